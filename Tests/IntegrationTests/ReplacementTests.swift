import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// Never a broken file (issue 18): while the source video is replaced, in place (`cp` over it)
/// and by a rename over it, four readers poll its thumbnail, `info.json`, a chapter image and an
/// audio track every 20 ms until each has read the new version a few times; every read is the whole file of the old or of the new version (an
/// error that makes the reader look again, ENOENT or ESTALE, is allowed; a mix or a cut file is not).
@Suite(.mounts) struct ReplacementTests {
    /// A video of one colour with a sine audio track and two chapters, made with the ffmpeg command.
    private func makeVideo(_ path: String, color: String, size: String, seconds: Int, folder: TempFolder) throws {
        let metadata = folder.path("chapters-\(color).txt")
        try """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=2000
            title=One
            [CHAPTER]
            TIMEBASE=1/1000
            START=2000
            END=\(seconds * 1000)
            title=Two

            """.write(toFile: metadata, atomically: false, encoding: .utf8)
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):s=\(size):r=10:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-i", metadata, "-map", "0:v", "-map", "1:a",
            "-map_metadata", "2", "-map_chapters", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-f", "mp4", path,
        ], timeout: 60), "ffmpeg \(path)")
    }

    /// A read of one of the files: the version it was (by a hash of its bytes), or its errno.
    enum Read: Hashable {
        case bytes(Int)
        case failed(Int32)
    }

    /// The hash of the whole file at `relative`, or the errno of its open or read.
    static func read(_ mount: MountedTreeClient, _ relative: String) -> Read {
        do {
            var hasher = Hasher()
            hasher.combine(try mount.read(relative))
            return .bytes(hasher.finalize())
        } catch {
            return .failed(error.code)
        }
    }

    @Test func readersGetWholeFilesOfOneVersionWhileTheSourceIsReplaced() throws {
        let folder = try TempFolder("replacement")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let old = folder.path("old.mp4")
        let new = folder.path("new.mp4")
        // Other sizes: the images of the two versions differ in length, as the documents do.
        try makeVideo(old, color: "red", size: "320x240", seconds: 4, folder: folder)
        try makeVideo(new, color: "blue", size: "640x360", seconds: 5, folder: folder)
        expectSuccess(try Command.run(["cp", old, source + "/a.mp4"]))
        let target = source + "/a.mp4"
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { mount in
            let client = MountedTreeClient(point: mount.point)
            let chapter = try client.sortedNames("a.mp4/chapters").first { $0.hasSuffix(".png") } ?? "none"
            let track = try client.sortedNames("a.mp4/tracks/audible").first ?? "none"
            let files = ["thumbnail": "a.mp4/thumbs/at-1s.png", "info": "a.mp4/info.json", "chapter": "a.mp4/chapters/" + chapter,
                         "track": "a.mp4/tracks/audible/" + track]
            func reads() -> [String: Read] { files.mapValues { Self.read(client, $0) } }
            /// The files once each has changed from `previous` (all, when nil) and reads the same twice.
            func settled(after previous: [String: Read]?) -> [String: Read] {
                var now = reads()
                Wait.until(30) {
                    now = reads()
                    let changed = previous.map { previous in now.allSatisfy { $0.value != previous[$0.key] } } ?? true
                    return changed && now.values.allSatisfy { if case .bytes = $0 { true } else { false } } && now == reads()
                }
                return now
            }
            /// Four readers read the files over and over while `change` replaces the video: some
            /// reads before the change, and after it until every reader has read the version `until`
            /// (any, when nil) a few times, or 30 s; what each read.
            func poll(_ change: () throws -> Void, until version: [String: Read]?) rethrows -> [String: [Read]] {
                let seen = Mutex<[String: [Read]]>([:])
                let stop = Atomic<Bool>(false)
                let done = DispatchGroup()
                for (key, relative) in files {
                    done.enter()
                    Thread {
                        while !stop.load(ordering: .relaxed) {
                            let read = Self.read(client, relative)
                            seen.withLock { $0[key, default: []].append(read) }
                            usleep(20_000)  // the readers' pace, fifty reads a second each: not a wait
                        }
                        done.leave()
                    }.start()
                }
                defer {
                    stop.store(true, ordering: .relaxed)
                    done.wait()
                }
                Wait.until(30) { seen.withLock { $0.count == files.count && $0.values.allSatisfy { $0.count >= 3 } } }
                try change()
                let before = seen.withLock { $0.mapValues(\.count) }
                Wait.until(30) {
                    seen.withLock { seen in
                        seen.allSatisfy { key, reads in
                            reads.dropFirst(before[key] ?? 0).filter { read in
                                guard case .bytes = read else { return false }
                                return version.map { read == $0[key] } ?? (read != reads.first)
                            }.count >= 3
                        }
                    }
                }
                stop.store(true, ordering: .relaxed)
                done.wait()
                return seen.withLock { $0 }
            }

            let first = settled(after: nil)
            // In place: the new bytes copied over the old.
            let inPlace = try poll({ expectSuccess(try Command.run(["cp", new, target])) }, until: nil)
            let second = settled(after: first)
            // By a rename over it: the old bytes again.
            let renamed = try poll({
                expectSuccess(try Command.run(["cp", old, target + ".part"]))
                #expect(rename(target + ".part", target) == 0)
            }, until: first)
            let third = settled(after: second)
            for key in files.keys.sorted() {
                let (oldVersion, newVersion) = (first[key]!, second[key]!)
                var counts = (old: 0, new: 0, neither: 0, errors: [Int32]())
                for read in (inPlace[key] ?? []) + (renamed[key] ?? []) {
                    switch read {
                    case .failed(let code): counts.errors.append(code)
                    case oldVersion: counts.old += 1
                    case newVersion: counts.new += 1
                    default: counts.neither += 1
                    }
                }
                #expect(counts.neither == 0, "\(key): a read that was neither version (cut or mixed): \(counts)")
                #expect(counts.old > 0 && counts.new > 0, "\(key): both versions read: \(counts)")
                #expect(first[key] != second[key] && third[key] == first[key], "\(key): the versions")
                #expect(counts.errors.allSatisfy { $0 == ENOENT || $0 == ESTALE }, "\(key): \(counts.errors)")
            }
        }
    }
}
