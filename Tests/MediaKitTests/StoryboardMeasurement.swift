import Foundation
@testable import MediaKit
import Testing

/// Where a storyboard's time goes, on films given in `MEDIAFS_STORYBOARD_MEASURE` (paths
/// separated by `:`; skipped without it): a new service each time, so nothing is kept; the
/// probe, the keyframe scan with the first sheet, every sheet, the contact sheet. Prints the
/// times (release builds give the figures worth quoting); asserts only the sizes.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_STORYBOARD_MEASURE"] != nil,
                "set MEDIAFS_STORYBOARD_MEASURE=film.mp4[:film2.mkv] to time storyboards"),
       .serialized)
struct StoryboardMeasurement {
    static let films = (ProcessInfo.processInfo.environment["MEDIAFS_STORYBOARD_MEASURE"] ?? "")
        .split(separator: ":").map(String.init)

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test func timeStoryboards() throws {
        for path in Self.films {
            let video = try LibraryVideo(absolutePath: path)
            let service = LocalMediaService()
            var probed: MediaInfo?
            let probe = try Self.seconds { probed = try service.probe(path: path, size: video.file.size) }
            let info = try #require(probed)
            let request = try #require(StoryboardRequest(info: info))
            let layout = try #require(StoryboardLayout(request))
            var sheets: [Double] = []
            for sheet in 0..<layout.sheetCount {
                sheets.append(try Self.seconds {
                    let bytes = try service.storyboardSheet(of: video.file, request: request, sheet: sheet)
                    #expect(bytes.count == layout.encodedSize(sheet: sheet))
                })
            }
            let contact = try #require(ContactSheetRequest(info: info, fileName: "film"))
            let sheetTime = try Self.seconds {
                let bytes = try service.contactSheet(of: video.file, request: contact, format: .jpeg)
                #expect(bytes.count == ContactSheetLayout(contact)!.encodedSize(format: .jpeg))
            }
            let alone = LocalMediaService()
            _ = try alone.probe(path: path, size: video.file.size)
            let coldContact = try Self.seconds { _ = try alone.contactSheet(of: video.file, request: contact, format: .jpeg) }
            print("\(path): probe \(probe) s; sheets \(sheets) s (total \(sheets.reduce(0, +)) s, \(layout.tileCount) tiles, "
                  + "\(layout.sheetCount) sheets); contact sheet after them \(sheetTime) s, alone \(coldContact) s")
        }
    }
}
