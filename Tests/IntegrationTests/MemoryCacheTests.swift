import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// Made pictures are kept deflated in memory (a PNG is written uncompressed, so that its length is
/// known before it is made) and inflated to the same bytes when read again.
@Suite(.mounts) struct MemoryCacheTests {
    /// 8 readers × 60 distinct full-size frames of a 640×360 film (each PNG 691 KB), default
    /// settings: the daemon's peak resident set stays within 200 MiB, the default 256 MiB of
    /// memory cache holds at least five times as many pictures as their bytes would fill, and every
    /// picture read again from memory is the one made.
    @Test func picturesAreKeptDeflatedAndReadBackWhole() throws {
        let folder = try TempFolder("memory-cache")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=30",
            "-c:v", "libx264", "-preset", "superfast", "-pix_fmt", "yuv420p", "-g", "25", source + "/film.mp4",
        ], timeout: 120))
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: []) { mount in
            let names = (0..<480).map { "film.mp4/thumbs/at-\(String(format: "%.2f", Double($0) * 0.06))s@full.png" }
            let pid = mount.daemon.pid
            let firsts = Mutex<[String: [UInt8]]>([:])
            DispatchQueue.concurrentPerform(iterations: 8) { reader in
                for name in names[(reader * 60)..<((reader + 1) * 60)] {
                    let bytes = FileManager.default.contents(atPath: mount.path(name)).map { [UInt8]($0) } ?? []
                    firsts.withLock { $0[name] = bytes }
                }
            }
            let peak = try #require(MemoryBoundTests.status(pid, "VmHWM"))
            #expect(peak <= 200 << 10, "peak RSS \(peak >> 10) MiB")
            let made = firsts.withLock { $0 }
            #expect(made.count == 480 && Set(made.values.map(\.count)).count == 1 && made.values.first!.count > 600_000)
            let stats = try statistics(mount)
            let entries = try #require(stats["memory_cache_entries"]), bytes = try #require(stats["memory_cache_bytes"])
            let whole = made.values.first!.count
            #expect(entries == 480, "\(stats)")
            #expect(bytes * 5 <= entries * whole, "\(entries) pictures in \(bytes) bytes, each \(whole) bytes read")
            // Read again: from memory, inflated to the bytes made.
            for name in names.prefix(40) {
                #expect(FileManager.default.contents(atPath: mount.path(name)).map { [UInt8]($0) } == made[name], "\(name)")
            }
            #expect(try statistics(mount)["thumbnails_made"] == 480)
        }
    }

    private func statistics(_ mount: Mount) throws -> [String: Int] {
        let value = try Command.run(["getfattr", "-n", "user.mediafs.stats", "--only-values", mount.point])
        return (try JSONSerialization.jsonObject(with: Data(value.stdout.utf8)) as? [String: Int]) ?? [:]
    }
}
