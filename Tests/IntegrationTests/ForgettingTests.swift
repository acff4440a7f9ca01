import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// The daemon holds as many nodes as the kernel caches: what the kernel forgets, it drops, and a
/// node seen again has its number again. The kernel is made to forget by dropping its caches
/// (`echo 2 > /proc/sys/vm/drop_caches`: unused dentries and inodes go, and a FUSE inode that goes
/// is a forget), which needs root.
///
/// The tests run one at a time on one mount: one's dropping of the caches would make the other's
/// kernel forget.
@Suite(.serialized, .mounts, .enabled(if: access("/proc/sys/vm/drop_caches", W_OK) == 0, "dropping the kernel's caches needs root"),
       .sharedLibraryMount("forget"))
struct ForgettingTests {
    static func dropCaches() {
        let fd = open("/proc/sys/vm/drop_caches", O_WRONLY)
        guard fd >= 0 else {
            Issue.record("open /proc/sys/vm/drop_caches: \(String(cString: strerror(errno)))")
            return
        }
        defer { close(fd) }
        #expect(write(fd, "2", 1) == 1)
    }

    /// 3,000 names in `thumbs/` (any time is a name) grow the daemon's table by 3,000; once the
    /// kernel forgets them, the table is back to what it was, and each name has its number again.
    /// The listings kept of the folders listed go with the folders' numbers.
    @Test func theDaemonForgetsWhatTheKernelForgets() throws {
        let mount = try LibraryMount.shared.client
        let thumbs = "feature-1080p.mp4/thumbs/"
        let inodes = { try mount.statistics()["inodes"] ?? -1 }
        let names = (0..<3000).map { String(format: "at-%.3fs.png", Double($0) / 1000) }
        let before = try inodes()
        let first = try names.map { try mount.stat(thumbs + $0) }
        _ = try mount.names("feature-1080p.mp4")
        _ = try mount.names(thumbs)
        let kept = try mount.statistics()["listings_kept"] ?? -1
        let grown = try inodes()
        Self.dropCaches()
        Wait.until(10) { ((try? inodes()) ?? .max) <= before + 20 }
        let forgotten = try inodes()
        let keptAfter = try mount.statistics()["listings_kept"] ?? -1
        let again = try names.map { try mount.stat(thumbs + $0) }
        let figures = "before \(before), grown \(grown), forgotten \(forgotten), listings kept \(kept) then \(keptAfter)"
        #expect(grown >= before + 3000, "\(figures)")
        #expect(forgotten <= before + 20, "\(figures)")
        #expect(kept >= 2 && keptAfter < kept, "\(figures)")
        #expect(Set(first.map(\.size)).count == 1 && Set(first.map(\.inode)).count == 3000)
        #expect(again.map(\.inode) == first.map(\.inode), "each name has its number again")
    }

    /// Lookups of the same names while the kernel forgets them again and again: the daemon drops
    /// numbers while lookups of their nodes are under way. Every `stat` succeeds with the name's
    /// one number, and every listed entry's inode number is the one `stat` gives.
    @Test func lookupsRacingForgetsAllSucceedWithStableNumbers() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        let thumbs = "feature-1080p.mp4/thumbs/"
        let names = (0..<300).map { String(format: "at-%.2fs.png", Double($0) / 100) }
        let found = Mutex<(numbers: [String: UInt64], stats: Int, problems: [String])>(([:], 0, []))
        let stop = Atomic<Bool>(false)
        let drops = Atomic<Int>(0)
        // 4 readers stat'ing names, a lister comparing listed numbers with stat's, and a dropper
        // making the kernel forget every 50 ms, for 4 s.
        Threads.run(6) { k in
            var random = SeededGenerator(seed: UInt64(k))
            switch k {
            case 0..<4:
                while !stop.load(ordering: .relaxed) {
                    let name = names.randomElement(using: &random)!
                    do {
                        let number = try mount.stat(thumbs + name).inode
                        found.withLock { found in
                            found.stats += 1
                            if found.numbers[name, default: number] != number {
                                found.problems.append("\(name): \(found.numbers[name]!) then \(number)")
                            }
                            found.numbers[name] = number
                        }
                    } catch {
                        found.withLock { $0.problems.append("stat \(name): \(error)") }
                    }
                }
            case 4:
                while !stop.load(ordering: .relaxed) {
                    for folder in ["feature-1080p.mp4", "feature-1080p.mp4/thumbs"] {
                        do {
                            for entry in try mount.list(folder) where entry.inode != (try mount.stat(folder + "/" + entry.name)).inode {
                                found.withLock { $0.problems.append("listed number of \(folder)/\(entry.name)") }
                            }
                        } catch {
                            found.withLock { $0.problems.append("list \(folder): \(error)") }
                        }
                    }
                }
            default:
                let end = Date(timeIntervalSinceNow: 4)
                while Date() < end {
                    Self.dropCaches()
                    drops.add(1, ordering: .relaxed)
                    // The forgets' pace, not a wait for anything: the others race them meanwhile.
                    usleep(50_000)
                }
                stop.store(true, ordering: .relaxed)
            }
        }
        let (stats, problems) = found.withLock { ($0.stats, $0.problems) }
        #expect(problems.isEmpty, "\(problems.prefix(20))")
        #expect(stats > 1000 && drops.load(ordering: .relaxed) > 20, "\(stats) stats, \(drops.load(ordering: .relaxed)) drops")
        // The mount still answers.
        expectSuccess(try Command.run(["ls", "-l", library.path("feature-1080p.mp4/thumbs")]))
    }
}
