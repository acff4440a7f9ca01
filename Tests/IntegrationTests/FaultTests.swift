import Foundation
import Glibc
import Testing
import TestSupport

/// The source failing as real disks do, through real mounts: a disk whose reads fail from a byte
/// on, then repaired; a file cut short while its frames are being made; a daemon killed with reads
/// in flight. Every read is the bytes a mount without a cache serves of the whole files, or an
/// error (`EIO`, `ENOENT`); once the source reads whole again, everything is as it was, from the
/// same cache folder; the daemon stays up and gives its descriptors back (`Mount.finish`).
@Suite(.mounts, .serialized) struct FaultTests {
    /// A storyboard tile a second and a 3×2 contact sheet: sheets whose tiles reach every part of
    /// the 8 s films.
    static let options = ["--storyboard-interval", "1", "--contact-sheet-grid", "3x2"]
    static let errors: Set<Int32> = [EIO, ENOENT]

    /// What a mount without a cache folder reads of the whole films (whatever folder holds them:
    /// nothing made names it), made once for every test of the suite: every file it lists
    /// (`listed`), and frames of each film every 0.2 s (`at-` and `near-`), relative to the mount.
    struct Reference: Sendable {
        let listed: [String]
        let frames: [String]
        let reads: [String: ReadOutcome]
        var names: [String] { listed + frames }
    }

    static let reference = Result { () throws -> Reference in
        let folder = try TempFolder("fault-whole")
        let source = try folder.makeFolder("source")
        try FaultMedia.copy(into: source)
        return try Mount.with(source: source, point: try folder.makeFolder("whole"), log: folder.path("whole.log"),
                              arguments: options + ["--cache-dir", ""]) { mount in
            let found = try Command.run(["find", ".", "-type", "f"], timeout: 120, directory: mount.point)
            guard found.succeeded else { throw HarnessError("find: \(found)") }
            let listed = found.stdout.split(separator: "\n").map { String($0.dropFirst(2)) }.sorted()
            let frames = FaultMedia.names.flatMap { film in
                stride(from: 0.0, to: Double(FaultMedia.duration) - 0.1, by: 0.2).flatMap { time in
                    ["at", "near"].map { "\(film)/thumbs/\($0)-\(String(format: "%.2f", time))s.png" }
                }
            }.filter { !listed.contains($0) }
            let reads = try Self.read(listed + frames, in: mount)
            let failed = reads.filter { $0.value.isFailure }
            guard failed.isEmpty else { throw HarnessError("the whole films: \(failed)") }
            return Reference(listed: listed, frames: frames, reads: reads)
        }
    }

    /// What each of `names` reads as through `mount`.
    static func read(_ names: [String], in mount: Mount) throws -> [String: ReadOutcome] {
        let outcomes = try MountReads.read(names.map(mount.path))
        return Dictionary(uniqueKeysWithValues: names.map { ($0, outcomes[mount.path($0)]!) })
    }

    /// Checks `got` against `whole`: each the same bytes, its size as `stat` gave it, or one of
    /// `allowed` errors. Returns how many were served and how many failed.
    @discardableResult
    static func check(_ got: [String: ReadOutcome], against whole: [String: ReadOutcome], allowed: Set<Int32>,
                      _ what: String) -> (served: Int, failed: Int) {
        var (served, failed) = (0, 0)
        for (name, outcome) in got.sorted(by: { $0.key < $1.key }) {
            switch outcome {
            case .bytes(_, let count, let statSize):
                served += 1
                #expect(outcome.sameBytes(as: whole[name]!), "\(what): \(name) is \(outcome), the whole file's \(whole[name]!)")
                #expect(count == statSize, "\(what): \(name) read \(count) bytes where stat said \(statSize)")
            case .failed(let code):
                failed += 1
                #expect(allowed.contains(code), "\(what): \(name) \(outcome)")
            }
        }
        return (served, failed)
    }

    /// Reads of the MP4 film fail from its middle on (its index at the front, it still opens):
    /// what is served is the whole film's, the rest `EIO`; after the disk is repaired, a mount on
    /// the same cache folder serves all of it, as the whole films (nothing made through a failing
    /// read was kept).
    @Test(.enabled(if: FailingDisk.missing == nil, Comment(rawValue: "needs a failing disk: \(FailingDisk.missing ?? "")")))
    func aFailingDiskGivesExactBytesOrEIOAndHeals() throws {
        let folder = try TempFolder("fault-disk")
        defer { folder.remove() }
        let disk = try FailingDisk(in: folder)
        defer { disk.remove() }
        try FaultMedia.copy(into: disk.mountPoint)
        let reference = try Self.reference.get()
        let (names, whole) = (reference.names, reference.reads)
        let film = disk.mountPoint + "/film.mp4"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: film)[.size] as? Int)
        try disk.fail(film, from: Int64(size * 45 / 100))
        let cache = folder.path("cache")

        let failing = try Mount.with(source: disk.mountPoint, point: try folder.makeFolder("failing"),
                                     log: folder.path("failing.log"), arguments: Self.options + ["--cache-dir", cache]) { mount in
            let got = try Self.read(names, in: mount)
            // Read again: what failed fails again, what was served is served the same.
            let again = try Self.read(names, in: mount)
            for (name, outcome) in got where outcome.isFailure != again[name]!.isFailure || !outcome.isFailure && !outcome.sameBytes(as: again[name]!) {
                Issue.record("\(name): \(outcome), then \(again[name]!)")
            }
            #expect(mount.log.contains("reading at byte"), "the log names the failing byte")
            return got
        }
        let counts = Self.check(failing, against: whole, allowed: Self.errors, "reads failing")
        #expect(counts.served > 0 && counts.failed > 0, "\(counts)")
        #expect(failing.filter { $0.key.hasPrefix("film.mkv/") }.allSatisfy { !$0.value.isFailure },
                "the film before the failing blocks reads whole")

        try disk.repair()
        let healed = try Mount.with(source: disk.mountPoint, point: try folder.makeFolder("healed"),
                                    log: folder.path("healed.log"), arguments: Self.options + ["--cache-dir", cache]) { mount in
            try Self.read(names, in: mount)
        }
        Self.check(healed, against: whole, allowed: [], "repaired, same cache folder")
    }

    /// The MP4 film cut to 55 % of its length while frames of it are being read: every frame read
    /// is the whole film's or an error; once the film is whole again, every frame is.
    @Test func aFileCutWhileItsFramesAreReadGivesWholeFramesOrErrors() throws {
        let folder = try TempFolder("fault-cut")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FaultMedia.copy(into: source)
        let film = source + "/film.mp4"
        let reference = try Self.reference.get()
        let (names, whole) = (reference.frames.filter { $0.hasPrefix("film.mp4/") }, reference.reads)
        let intact = try Data(contentsOf: URL(fileURLWithPath: film))

        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mnt.log"),
                       arguments: Self.options + ["--cache-dir", folder.path("cache")]) { mount in
            let output = folder.path("reads.txt")
            let reader = try ChildProcess([Command.pythonPath, "-c", MountReads.script] + (names + names).map(mount.path),
                                          stdout: .appending(output))
            defer { _ = reader.kill9() }
            // Cut once frames are being made.
            Wait.until(60) { ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").count >= 8 }
            #expect(truncate(film, off_t(intact.count * 55 / 100)) == 0)
            #expect(reader.wait(timeout: 300) == .exited(0), "the reader ended")
            let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            var (served, failed) = (0, 0)
            for line in lines {
                let fields = line.split(separator: "\t").map(String.init)
                let name = String(fields.last!.dropFirst(mount.point.count + 1))
                if fields[0] == "OK" {
                    served += 1
                    #expect(fields[1] == Self.digest(whole[name]!), "cut while read: \(name) is not the whole film's")
                } else {
                    failed += 1
                    #expect([EIO, ENOENT, ESTALE].contains(Int32(fields[1]) ?? 0), "cut while read: \(line)")
                }
            }
            #expect(lines.count == 2 * names.count && served > 0 && failed > 0, "\(served) served, \(failed) failed")

            // Whole again (a change like any other): every frame as the whole film's.
            try intact.write(to: URL(fileURLWithPath: film))
            #expect(Wait.until(10) { (try? FileManager.default.attributesOfItem(atPath: mount.path("film.mp4/film.mp4"))[.size] as? Int) == intact.count })
            Self.check(try Self.read(names, in: mount), against: whole, allowed: [], "whole again")
        }
    }

    static func digest(_ outcome: ReadOutcome) -> String {
        if case .bytes(let digest, _, _) = outcome { return digest }
        return ""
    }

    /// A daemon killed with SIGKILL three times, at different moments, each with 24 reads in
    /// flight (frames, sheets, tracks, chapter images): a mount on the same cache folder then
    /// serves every file as a mount without a cache does, and no unfinished file of the killed
    /// daemons is left.
    @Test func aDaemonKilledWithReadsInFlightLeavesNothingBroken() throws {
        let folder = try TempFolder("fault-kill")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FaultMedia.copy(into: source)
        let reference = try Self.reference.get()
        let (names, whole) = (reference.listed, reference.reads)
        let cache = folder.path("cache")
        let inFlight = names.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".txt") && !$0.hasPrefix(".") }
        for (round, storedBefore) in [0, 2, 6].enumerated() {
            try Mount.with(source: source, point: try folder.makeFolder("killed\(round)"), log: folder.path("killed\(round).log"),
                           arguments: Self.options + ["--cache-dir", cache], ending: .byTheTest) { mount in
                let chosen = Array(inFlight.shuffled().prefix(24))
                let readers = try ChildProcess(["/bin/sh", "-c", "for n in \"$@\"; do cat \"$n\" > /dev/null 2>&1 & done; wait", "sh"]
                                               + chosen.map(mount.path))
                defer { _ = readers.kill9() }
                Wait.until(30, poll: 0.005) { Self.stored(in: cache) >= storedBefore }
                mount.daemon.signal(SIGKILL)
                #expect(mount.daemon.wait(timeout: 10) != nil, "round \(round): the daemon ended")
            }
        }
        let healed = try Mount.with(source: source, point: try folder.makeFolder("after"), log: folder.path("after.log"),
                                    arguments: Self.options + ["--cache-dir", cache]) { mount in
            try Self.read(names, in: mount)
        }
        Self.check(healed, against: whole, allowed: [], "after three kills")
        let unfinished = try Command.run(["find", cache, "-name", ".tmp-*"])
        #expect(unfinished.stdout.isEmpty, "unfinished files left: \(unfinished.stdout)")
    }

    /// A cache folder filled by a mount that read every listed file, then damaged while unmounted
    /// (its made files, track files and database rows cut, bit-flipped, appended to, swapped or
    /// replaced, each kind a share of them; for swapped, the index rows' names too): a mount on it
    /// serves every file as a mount without a cache does, and says what it found.
    @Test func aDamagedCacheFolderServesNothingDamaged() throws {
        let folder = try TempFolder("fault-damage")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FaultMedia.copy(into: source)
        let reference = try Self.reference.get()
        let cache = folder.path("cache")
        try Mount.with(source: source, point: try folder.makeFolder("filling"), log: folder.path("filling.log"),
                       arguments: Self.options + ["--cache-dir", cache]) { mount in
            Self.check(try Self.read(reference.listed, in: mount), against: reference.reads, allowed: [], "filling the cache")
        }
        let changed = try CacheDamage.applyAll(to: cache)
        #expect(changed.files >= 20 && changed.rows >= 5, "\(changed)")
        try Mount.with(source: source, point: try folder.makeFolder("damaged"), log: folder.path("damaged.log"),
                       arguments: Self.options + ["--cache-dir", cache]) { mount in
            Self.check(try Self.read(reference.listed, in: mount), against: reference.reads, allowed: [], "damaged")
            #expect(mount.log.contains("damaged"), "the log says what it found")
        }
    }

    /// How many files the cache folder holds (made files and track files).
    static func stored(in cache: String) -> Int {
        let found = try? Command.run(["find", cache + "/files", cache + "/tracks", "-type", "f", "!", "-name", ".tmp-*"])
        return found?.stdout.split(separator: "\n").count ?? 0
    }
}
