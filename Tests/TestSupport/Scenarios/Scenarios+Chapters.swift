import Foundation
import Glibc
import MediaKit
import Testing

/// chapters/ and the cover: names in the reader's languages, chapters.json and chapters.txt exact
/// and the same at every read, chapter images and covers as long as stat says
/// (ChaptersFolderTests, ChaptersTests).
extension ScenarioGroup {
    public static let chapters = ScenarioGroup(name: "chapters", languages: ["fr", "en"], scenarios: [
        Scenario("names show number, start and title in the reader's language, in order") { c throws in
            let expected: [String: [String]] = [
                "feature-1080p.mp4": [
                    "01 00h00m00s Opening.png", "02 00h00m04s The Heist.png", "03 00h00m10s Rooftop Chase.png",
                    "04 00h00m15s Interlude at the Café.png", "05 00h00m22s Finale.png", "06 00h00m28s Credits.png",
                    "chapters.json", "chapters.txt",
                ],
                "chapters/multilingual.mkv": [
                    "01 00h00m00s Ouverture.png", "02 00h00m03s Le casse ∕ 1re partie.png", "03 00h00m03s Préparatifs.png",
                    "04 00h00m05s Un titre long.png", "05 00h00m06s Intermède 🎬.png", "06 00h00m09s Générique.png",
                    "chapters.json", "chapters.txt",
                ],
                "chapters/two-languages.mp4": [
                    "01 00h00m00s Arrivée.png", "02 00h00m04s L'accord ∕ 2e partie.png", "03 00h00m08s Départ 🚀.png",
                    "chapters.json", "chapters.txt",
                ],
            ]
            for (relative, names) in expected.sorted(by: { $0.key < $1.key }) {
                let chapters = relative + "/chapters"
                let folder = try c.client.stat(chapters)
                #expect(folder.type == .directory && folder.permissions == 0o555, c.at(chapters))
                let listing = try c.listAndStat(chapters)
                #expect(listing.map(\.0.name) == MediaFolderLayout.markers + names, c.at(chapters))
                for (entry, status) in listing where !MediaFolderLayout.isMarker(entry.name) {
                    #expect(status.type == .regular && status.permissions == 0o444 && status.size > 0, c.at(entry.name))
                }
            }
            // Names outside the listing do not resolve, a title in a language not chosen among them.
            for name in ["01 00h00m00s.png", "04 00h00m12s Extra.png", "01 00h00m00s Arrival.png", "thumbs", "cover.png"] {
                #expect(c.statFailure("chapters/two-languages.mp4/chapters/" + name) == ENOENT, c.at(name))
            }
        },

        Scenario("chapters.txt is exact") { c throws in
            #expect(String(decoding: try c.readWhole("feature-1080p.mp4/chapters/chapters.txt"), as: UTF8.self) == """
                CHAPTER01=00:00:00.000
                CHAPTER01NAME=Opening
                CHAPTER02=00:00:04.775
                CHAPTER02NAME=The Heist
                CHAPTER03=00:00:10.050
                CHAPTER03NAME=Rooftop Chase
                CHAPTER04=00:00:15.612
                CHAPTER04NAME=Interlude at the Café
                CHAPTER05=00:00:22.350
                CHAPTER05NAME=Finale
                CHAPTER06=00:00:28.570
                CHAPTER06NAME=Credits

                """, c.at("feature-1080p.mp4/chapters/chapters.txt"))
            #expect(String(decoding: try c.readWhole("chapters/multilingual.mkv/chapters/chapters.txt"), as: UTF8.self) == """
                CHAPTER01=00:00:00.000
                CHAPTER01NAME=Ouverture
                CHAPTER02=00:00:03.000
                CHAPTER02NAME=Le casse / 1re partie
                CHAPTER03=00:00:03.000
                CHAPTER03NAME=Préparatifs
                CHAPTER04=00:00:05.500
                CHAPTER04NAME=Un titre long
                CHAPTER05=00:00:06.000
                CHAPTER05NAME=Intermède 🎬
                CHAPTER06=00:00:09.000
                CHAPTER06NAME=Générique

                """, c.at("multilingual.mkv/chapters/chapters.txt"))
        },

        Scenario("chapters.json is exact, the same at every read, and names the listed images") { c throws in
            for relative in ["feature-1080p.mp4", "chapters/multilingual.mkv", "chapters/two-languages.mp4"] {
                for name in ["chapters.json", "chapters.txt"] {
                    let path = relative + "/chapters/" + name
                    #expect(try c.readWhole(path) == (try c.client.read(path)), c.at(path))
                }
            }
            let film = try c.readWhole("feature-1080p.mp4/chapters/chapters.json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(film)) as? [String: Any], c.at("chapters.json"))
            let listed = try #require(document["chapters"] as? [[String: Any]], c.at("chapters.json"))
            #expect(listed.map { $0["number"] as? Int } == [1, 2, 3, 4, 5, 6], c.at("feature-1080p.mp4 chapters.json"))
            #expect(listed.first?["file"] as? String == "01 00h00m00s Opening.png", c.at("feature-1080p.mp4 chapters.json"))
            #expect(listed.first?["language"] as? String == "eng", c.at("feature-1080p.mp4 chapters.json"))

            let multilingual = try c.readWhole("chapters/multilingual.mkv/chapters/chapters.json")
            let other = try #require(try JSONSerialization.jsonObject(with: Data(multilingual)) as? [String: Any], c.at("chapters.json"))
            #expect(other["file"] as? String == "multilingual.mkv" && other["source"] as? String == "matroska", c.at("multilingual.mkv"))
            #expect(other["preferred_languages"] as? [String] == ["fr", "en"], c.at("multilingual.mkv"))
            let chapters = try #require(other["chapters"] as? [[String: Any]], c.at("multilingual.mkv"))
            let images = try c.client.list("chapters/multilingual.mkv/chapters").map(\.name).filter { $0.hasSuffix(".png") }.sorted()
            #expect(chapters.map { $0["file"] as? String } == images, c.at("multilingual.mkv chapters.json"))
            #expect(chapters.map { $0["number"] as? Int } == [1, 2, 3, 4, 5, 6], c.at("multilingual.mkv chapters.json"))
            #expect(chapters.prefix(2).map { $0["title"] as? String } == ["Ouverture", "Le casse / 1re partie"], c.at("multilingual.mkv"))
            #expect(chapters.first?["language"] as? String == "fr-FR", c.at("multilingual.mkv chapters.json"))
        },

        Scenario("chapter images are as long as stat says: frames made, artwork as stored") { c throws in
            // Frames of 160×90 (the default 320-wide box never enlarges).
            let multilingual = try c.client.list("chapters/multilingual.mkv/chapters").filter { !MediaFolderLayout.isMarker($0.name) }
            #expect(multilingual.first?.size == Int64(PNGEncoder.encodedSize(width: 160, height: 90)), c.at("multilingual.mkv"))
            for relative in ["chapters/multilingual.mkv", "feature-1080p.mp4"] {
                for name in try c.client.list(relative + "/chapters").map(\.name) where name.hasSuffix(".png") {
                    let bytes = try c.readWhole(relative + "/chapters/" + name)
                    #expect(bytes.starts(with: Signature.png), c.at(name))
                }
            }
            // Stored chapter artwork, byte for byte.
            let names = try c.client.list("chapters/two-languages.mp4/chapters").map(\.name).filter { !MediaFolderLayout.isMarker($0) }
            for (i, name) in names.prefix(3).enumerated() {
                let expected = [UInt8](try Data(contentsOf: try ChapterMedia.file("image-\(i + 1).png")))
                #expect(try c.readWhole("chapters/two-languages.mp4/chapters/" + name) == expected, c.at(name))
            }
        },

        Scenario("an audiobook shows its stored cover, and as every chapter's image") { c throws in
            let book = "audio/audiobook.m4a/"
            let stored = try c.readWhole(book + "cover.jpg")
            #expect(stored.starts(with: [0xFF, 0xD8]), c.at("cover.jpg"))
            // The other format resolves too: a 600×900 JPEG cover, written as a PNG of that size.
            #expect(try c.client.stat(book + "cover.png").size == Int64(PNGEncoder.encodedSize(width: 600, height: 900)),
                    c.at("cover.png"))
            let png = try c.readWhole(book + "cover.png")
            #expect(png.starts(with: Signature.png), c.at("cover.png"))
            let chapters = try c.listAndStat(book + "chapters")
            #expect(chapters.count == 3 + 6, c.at("audiobook.m4a/chapters"))
            for (entry, _) in chapters where entry.name.hasSuffix(".jpg") {
                #expect(try c.readWhole(book + "chapters/" + entry.name) == stored, c.at(entry.name))
                let asPNG = String(entry.name.dropLast(4)) + ".png"
                #expect(try c.readWhole(book + "chapters/" + asPNG) == png, c.at(asPNG))
            }
        },

        Scenario("extended attributes tell the chapter") { c throws in
            let opening = "chapters/multilingual.mkv/chapters/01 00h00m00s Ouverture.png"
            for (name, value) in [("start", "0"), ("end", "3"), ("title", "Ouverture"), ("language", "fr-FR"), ("image", "frame")] {
                #expect(try c.attributeText("user.mediafs.chapter." + name, of: opening) == value, c.at(name))
            }
        },
    ])
}
