import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// The daemon's memory under a parallel thumbnail load stays within the bound Docs/ARCHITECTURE.md
/// states ("Memory"): its resident set when idle, plus `--memory-cache`, plus the decoders' budget
/// (`DecodeSessionPool`: 96 MiB for the decoders working at once, 32 MiB for idle ones, by
/// `DecodeMemory`'s estimate), plus 32 MiB of working memory.
@Suite(.mounts) struct MemoryBoundTests {
    static let memoryCacheMiB = 16
    static let decodersMiB = 96 + 32
    static let workingMiB = 32

    /// Two 1080p H.264 clips made now (6 s, a keyframe every 2 s, 3 B-frames; Matroska and MP4),
    /// 8 readers asking for 30 random frames each of 40 names per clip (exact and nearest
    /// keyframe, two sizes) with `ls -lR` beside them, `--memory-cache 16`: the daemon's peak
    /// resident set (VmHWM) less its resident set once mounted and listed (VmRSS).
    @Test func peakMemoryStaysWithinTheBound() throws {
        let folder = try TempFolder("memory-bound")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let clips = ["a.mp4", "b.mkv"]
        for (i, clip) in clips.enumerated() {
            let made = try Command.run([
                "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi",
                "-i", "testsrc2=s=1920x1080:r=25:d=6,hue=H=\(i)*PI/2", "-c:v", "libx264", "-preset", "superfast",
                "-pix_fmt", "yuv420p", "-g", "50", "-bf", "3", "-crf", "28", source + "/" + clip,
            ], timeout: 120)
            expectSuccess(made)
        }
        var random = SeededGenerator(seed: 18)
        let names: [String] = clips.flatMap { clip in
            (0..<40).map { _ -> String in
                let time = String(format: "%.2f", Double.random(in: 0..<5.9, using: &random))
                let name = ["at-\(time)s.png", "near-\(time)s.png", "at-\(time)s@180h.png"].randomElement(using: &random)!
                return "\(clip)/thumbs/\(name)"
            }
        }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: ["--memory-cache", String(Self.memoryCacheMiB)]) { mount in
            for clip in clips { _ = try FileManager.default.contentsOfDirectory(atPath: mount.path(clip + "/thumbs")) }
            let pid = mount.daemon.pid
            let idle = try #require(Self.status(pid, "VmRSS"))

            let lister = try ChildProcess(["sh", "-c", "while :; do ls -lR \"$1\" >/dev/null; done", "sh", mount.point],
                                          stdout: .null, stderr: .null)
            defer { lister.kill9() }
            let failures = Failures()
            let started = Date()
            DispatchQueue.concurrentPerform(iterations: 8) { reader in
                var random = SeededGenerator(seed: UInt64(100 + reader))
                for _ in 0..<30 {
                    let name = names.randomElement(using: &random)!
                    if FileManager.default.contents(atPath: mount.path(name)) == nil { failures.add(name) }
                }
            }
            let elapsed = Date().timeIntervalSince(started)
            #expect(failures.names.isEmpty, "reads failed: \(failures.names.prefix(5))")

            let peak = try #require(Self.status(pid, "VmHWM"))
            let bound = (Self.memoryCacheMiB + Self.decodersMiB + Self.workingMiB) << 10
            #expect(peak - idle <= bound,
                    "peak RSS \(peak >> 10) MiB is \((peak - idle) >> 10) MiB above the idle daemon's \(idle >> 10) MiB; the bound is \(bound >> 10) MiB")
            print("MemoryBoundTests: idle \(idle >> 10) MiB, peak \(peak >> 10) MiB (+\((peak - idle) >> 10), bound +\(bound >> 10)), 240 reads in \(String(format: "%.1f", elapsed)) s")
        }
    }

    /// A field of /proc/PID/status in KiB ("VmRSS", "VmHWM").
    static func status(_ pid: pid_t, _ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}

/// The names whose read failed, from the readers' threads.
private final class Failures: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ name: String) { list.withLock { $0.append(name) } }
    var names: [String] { list.withLock { $0 } }
}
