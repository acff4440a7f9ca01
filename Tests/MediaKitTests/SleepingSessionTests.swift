import Foundation
@testable import MediaKit
import Testing

/// Sheets after thumbnails on one service whose idle decoders all sleep (an idle budget of 0):
/// the sessions sheets take from the pool are asleep (their decoders freed) and must be woken.
/// The bench's storyboard section crashed the daemon this way ("a decode session used while
/// asleep") before sheets woke what they took.
@Suite struct SleepingSessionTests {
    @Test func sheetsWakeTheSessionsThePoolPutToSleep() throws {
        let video = try StoryboardFixture.video()
        let service = LocalMediaService(idleDecodeBytes: 0)
        for time in [5.0, 50.0, 80.0] {
            let request = ThumbnailRequest(streamIndex: video.video.index, time: time, pick: .exact, width: 160, height: 90)
            _ = try service.thumbnail(of: video.file, request: request)
        }
        let storyboard = try #require(StoryboardRequest(info: video.info, interval: 5, columns: 4, rows: 4, tileWidth: 160))
        let layout = try #require(StoryboardLayout(storyboard))
        for sheet in 0..<layout.sheetCount {
            #expect(try service.storyboardSheet(of: video.file, request: storyboard, sheet: sheet).count
                    == layout.encodedSize(sheet: sheet))
            // And a thumbnail between sheets: its session goes to sleep again.
            let request = ThumbnailRequest(streamIndex: video.video.index, time: Double(10 * sheet + 3), pick: .exact,
                                           width: 160, height: 90)
            _ = try service.thumbnail(of: video.file, request: request)
        }
        let contact = try #require(ContactSheetRequest(info: video.info, fileName: "clip.mp4"))
        let contactLayout = try #require(ContactSheetLayout(contact))
        #expect(try service.contactSheet(of: video.file, request: contact, format: .jpeg).count
                == contactLayout.encodedSize(format: .jpeg))
    }
}
