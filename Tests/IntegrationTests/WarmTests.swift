import Foundation
import Testing
import TestSupport

/// `mediafs warm`: what is made ahead of time through the mount is not made again. One mount for
/// both tests, one at a time: the first counts what its warming makes.
@Suite(.mounts, .serialized, .sharedLibraryMount("warm")) struct WarmTests {
    @Test func warmMakesEveryListedImageOnce() throws {
        let library = try LibraryMount.shared
        let clips = library.path("clips")
        let before = try library.statistics()["thumbnails_made"] ?? 0
        let warmed = try Command.run([Mount.binary, "warm", clips], timeout: 300)
        expectSuccess(warmed)
        // Not a terminal: one line per media folder, then a summary.
        #expect(warmed.stderr.contains("warmed \(clips)/clip-vp9.webm: ") && warmed.stderr.contains("done: "), "\(warmed)")
        let listed = try Command.shell(#"ls "$1"/*/thumbs | grep -c '\.png$'"#, [clips])
        let made = (try library.statistics()["thumbnails_made"] ?? -1) - before
        #expect(made > 0 && made <= Int(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                "made \(made), listed \(listed.stdout)")
        // Everything listed is now kept: warming again, or copying, makes nothing more.
        expectSuccess(try Command.run([Mount.binary, "warm", clips], timeout: 300))
        expectSuccess(try Command.shell(#"cat "$1"/*/thumbs/*.png > /dev/null"#, [clips], timeout: 120))
        #expect(try library.statistics()["thumbnails_made"] == before + made)
    }

    @Test func warmReportsWhatCannotBeMade() throws {
        let library = try LibraryMount.shared
        let result = try Command.run([Mount.binary, "warm", library.path("broken")], timeout: 300)
        #expect(result.exitCode == 1 && result.stderr.contains("feature-truncated.mp4/thumbs/"), "\(result)")
        let outside = try Command.run([Mount.binary, "warm", library.source])
        #expect(outside.exitCode == 1 && outside.stderr.contains("is not inside a mediafs mount"), "\(outside)")
    }
}
