import Foundation
import Glibc
import Testing

/// Jellyfin's trickplay beside a film: `Film.trickplay/320 - 10x10/0.jpg …`.
extension ScenarioGroup {
    static let serverTrickplay: [Scenario] = [
        Scenario("a film's trickplay is a folder named for the width and grid, of full-grid sheets from 0") { c throws in
            let listed = try c.client.list("")
            let folder = try #require(listed.first { $0.name == "subtitled.trickplay" }, c.at("subtitled.trickplay"))
            #expect(folder.type == .directory, c.at("subtitled.trickplay"))
            #expect(try c.client.list("subtitled.trickplay").map(\.name) == ["320 - 10x10"], c.at("subtitled.trickplay"))
            // 24 s every 10 s: three tiles, on one sheet.
            let sheets = try c.client.list("subtitled.trickplay/320 - 10x10")
            #expect(sheets.map(\.name) == ["0.jpg"], c.at("the sheets"))
            let before = try c.statistics()["trickplay_sheets_made"] ?? 0
            let sheet = try c.readWhole("subtitled.trickplay/320 - 10x10/0.jpg")
            #expect(sheet.starts(with: Signature.jpeg) && Int64(sheet.count) == sheets.first?.size, c.at("0.jpg"))
            #expect(try c.statistics()["trickplay_sheets_made"] == before + 1, c.at("trickplay_sheets_made"))
            for name in ["subtitled.trickplay/320 - 10x10/1.jpg", "subtitled.trickplay/320 - 10x10/00.jpg",
                         "subtitled.trickplay/320 - 10x10/0001.jpg", "subtitled.trickplay/160 - 10x10", "audio/audiobook.trickplay"] {
                #expect(c.statFailure(name) == ENOENT, c.at(name))
            }
        },
    ]
}
