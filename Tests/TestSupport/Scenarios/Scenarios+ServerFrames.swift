import Foundation
import Glibc
import Testing

/// The representative frame beside a film: `Film-fanart.jpg` and `Film-thumb.jpg`.
extension ScenarioGroup {
    static let serverFrames: [Scenario] = [
        Scenario("a film's representative frame is its fanart and thumb: a keyframe a third of the way in") { c throws in
            let listed = try c.client.list("")
            let before = try c.statistics()["representative_frames_made"] ?? 0
            var bytes: [[UInt8]] = []
            for name in ["subtitled-fanart.jpg", "subtitled-thumb.jpg"] {
                let entry = try #require(listed.first { $0.name == name }, c.at(name))
                #expect(entry.type == .regular && entry.size != nil, c.at(name))
                let read = try c.readWhole(name)
                #expect(read.starts(with: Signature.jpeg), c.at(name))
                bytes.append(read)
                // 24 s with a keyframe every 2 s: the one at 8 s.
                #expect(try c.attributeText("user.mediafs.time", of: name) == "8", c.at(name))
                #expect(try c.attributeText("user.mediafs.keyframe", of: name) == "true", c.at(name))
            }
            #expect(bytes[0] == bytes[1], c.at("fanart and thumb"))
            #expect(try c.statistics()["representative_frames_made"] == before + 1, c.at("made once for both names"))
            for film in ["movie-1080p", "feature-1080p", "clips/clip-vp9"] {
                #expect(try c.client.stat(film + "-fanart.jpg").size > 0, c.at(film))
            }
            #expect(c.statFailure("audio/audiobook-fanart.jpg") == ENOENT, c.at("an audiobook"))
        },
    ]
}
