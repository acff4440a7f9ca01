import Foundation
import Glibc
import Testing
@testable import TestSupport

/// The harness's own checks at an orderly unmount (`Mount.finish()`): they must fail a test whose
/// daemon leaked descriptors or whose unmount failed, and leave alone what the daemon keeps by design.
@Suite struct HarnessTests {
    static let source = "/tmp/library"

    static func descriptors(_ targets: [Int32: String]) -> DaemonDescriptors {
        DaemonDescriptors(targets: [0: "/dev/null", 1: "/tmp/x/log", 2: "/tmp/x/log", 3: "/dev/fuse"].merging(targets) { $1 })
    }

    @Test func whatIsKeptByDesignIsAllowedUpToItsBound() {
        let baseline = Self.descriptors([4: "/tmp/x/cache/probes.sqlite", 5: "/tmp/x/cache/probes.sqlite-wal"])
        var later: [Int32: String] = [4: "/tmp/x/cache/probes.sqlite", 5: "/tmp/x/cache/probes.sqlite-wal",
                                      6: "anon_inode:[eventpoll]", 7: "anon_inode:[eventfd]", 8: "anon_inode:[timerfd]",
                                      9: "/tmp/x/cache/probes.sqlite", 10: "/tmp/x/cache/probes.sqlite-wal",
                                      11: "pipe:[1]", 12: "pipe:[1]"]
        for index in 0..<DaemonDescriptors.Kind.sourceFile.allowance {
            later[Int32(20 + index)] = "\(Self.source)/film-\(index).mkv"
        }
        #expect(Self.descriptors(later).excess(over: baseline, source: Self.source).isEmpty)
    }

    @Test func oneMoreThanTheBoundOrAnyOtherKindIsALeak() throws {
        let baseline = Self.descriptors([:])
        var later: [Int32: String] = [4: "/tmp/x/cache/tracks/abc/audible/eng.mka", 5: "socket:[7]"]
        for index in 0...DaemonDescriptors.Kind.sourceFile.allowance {
            later[Int32(20 + index)] = "\(Self.source)/film.mkv (deleted)"
        }
        let excess = Self.descriptors(later).excess(over: baseline, source: Self.source)
        #expect(excess.map { $0.kind } == [.sourceFile, .other])
        let other = try #require(excess.last)
        #expect(other.count == 2 && other.new == ["4 /tmp/x/cache/tracks/abc/audible/eng.mka", "5 socket:[7]"])
        // Fewer of a kind than at mount time never hides more of another.
        #expect(Self.descriptors([:]).excess(over: Self.descriptors([9: "/tmp/x/other"]), source: Self.source).isEmpty)
    }

    /// A track file kept open on the mount: the daemon holds its cache file (a kind nothing keeps
    /// by design) and the mount is busy, so `finish()` reports both and the test would fail.
    @Test(.mounts) func aFileLeftOpenFailsTheCheckedUnmount() throws {
        try LibraryMount.with("harness-leak", arguments: ["--no-passthrough", "--languages", ""], ending: .byTheTest) { library in
            let track = library.path("clips/clip-vp9.webm/tracks/legible/eng English WebVTT.srt")
            let holder = try ChildProcess(["/bin/sh", "-c", #"exec 3< "$1"; exec sleep 60"#, "sh", track])
            defer { holder.kill9() }
            // Its open has returned (the track is made, and the daemon holds the cache file, not the
            // pass's unfinished one, for the open file).
            Wait.until(60) { !holder.isRunning || Processes.descriptors(of: holder.pid)[3] != nil }
            #expect(Processes.descriptors(of: library.mount.daemon.pid).values.contains { $0.contains("/cache/tracks/") })
            let failure = #expect(throws: HarnessError.self) { try library.mount.finish(settle: 0.5) }
            let message = failure?.message ?? ""
            #expect(message.contains("other: ") && message.contains("/cache/tracks/"), "\(message)")
            #expect(message.contains("the unmount failed"), "\(message)")
            #expect(library.mount.isMounted, "a failed unmount leaves the mount to teardown")
        }
    }
}
