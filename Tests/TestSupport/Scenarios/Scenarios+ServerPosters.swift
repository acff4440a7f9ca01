import Foundation
import Glibc
import Testing

/// The poster beside a film: its embedded cover, byte for byte, as `Film.jpg` and `Film-poster.jpg`.
extension ScenarioGroup {
    static let serverPosters: [Scenario] = [
        Scenario("a film's cover is its poster, byte for byte, under both names") { c throws in
            // The test library's poster.jpg is the picture movie-1080p.mkv has attached.
            let cover = [UInt8](try Data(contentsOf: try TestMedia.file("poster.jpg")))
            let listed = try c.client.list("")
            for name in ["movie-1080p.jpg", "movie-1080p-poster.jpg"] {
                let entry = try #require(listed.first { $0.name == name }, c.at(name))
                #expect(entry.type == .regular && entry.size == Int64(cover.count), c.at(name))
                #expect(try c.readWhole(name) == cover, c.at(name))
            }
            #expect(try c.statistics()["covers_made"] ?? 0 >= 1, c.at("covers_made"))
        },

        Scenario("a film without a cover has no poster") { c throws in
            for name in ["subtitled.jpg", "subtitled-poster.jpg", "feature-1080p.jpg", "feature-1080p-poster.jpg",
                         "movie-1080p-poster.png"] {
                #expect(c.statFailure(name) == ENOENT, c.at(name))
            }
        },
    ]
}
