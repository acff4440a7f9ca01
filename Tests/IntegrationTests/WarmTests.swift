import Foundation
import Testing
import TestSupport

/// `mediafs warm`: what is made ahead of time through the mount is not made again.
@Suite(.mounts) struct WarmTests {
    @Test func warmMakesEveryListedImageOnce() throws {
        try LibraryMount.with("warm") { library in
            let clips = library.path("clips")
            let warmed = try Command.run([Mount.binary, "warm", clips], timeout: 300)
            expectSuccess(warmed)
            // Not a terminal: one line per media folder, then a summary.
            #expect(warmed.stderr.contains("warmed \(clips)/clip-vp9.webm: ") && warmed.stderr.contains("done: "),
                    "\(warmed)")
            let listed = try Command.shell(#"ls "$1"/*/thumbs | grep -c '\.png$'"#, [clips])
            let made = try ThumbsTests.statistics(library)["thumbnails_made"] ?? -1
            #expect(made > 0 && made <= Int(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                    "made \(made), listed \(listed.stdout)")
            // Everything listed is now kept: warming again, or copying, makes nothing more.
            expectSuccess(try Command.run([Mount.binary, "warm", clips], timeout: 300))
            expectSuccess(try Command.shell(#"cat "$1"/*/thumbs/*.png > /dev/null"#, [clips], timeout: 120))
            #expect(try ThumbsTests.statistics(library)["thumbnails_made"] == made)
        }
    }

    @Test func warmReportsWhatCannotBeMade() throws {
        try LibraryMount.with("warm-broken") { library in
            let result = try Command.run([Mount.binary, "warm", library.path("broken")], timeout: 300)
            #expect(result.exitCode == 1 && result.stderr.contains("feature-truncated.mp4/thumbs/"), "\(result)")
            let outside = try Command.run([Mount.binary, "warm", library.source])
            #expect(outside.exitCode == 1 && outside.stderr.contains("is not inside a mediafs mount"), "\(outside)")
        }
    }
}
