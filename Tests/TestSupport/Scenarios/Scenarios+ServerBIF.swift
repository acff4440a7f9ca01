import Foundation
import Glibc
import Testing

/// The BIF beside a film for Emby and Roku: `Film-320-10.bif`, read by Roku's format.
extension ScenarioGroup {
    static let serverBIF: [Scenario] = [
        Scenario("a film's BIF holds a JPEG per tile of its trickplay, at its exact size, read by offset") { c throws in
            let name = "subtitled-320-10.bif"
            let entry = try #require(try c.client.list("").first { $0.name == name }, c.at(name))
            let size = try #require(entry.size, c.at(name))
            let bif = try c.readWhole(name)
            let read = try BIFReader(bif)
            // 24 s every 10 s: three frames, at 0, 10 and 20 s.
            #expect(read.version == 0 && read.imageCount == 3 && read.multiplier == 10_000 && read.reservedAllZero, c.at(name))
            #expect(read.frames.map(\.milliseconds) == [0, 10_000, 20_000] && read.dataEnd == bif.count, c.at(name))
            #expect(read.frames.allSatisfy { $0.jpeg.starts(with: Signature.jpeg) }, c.at(name))
            #expect(Int64(bif.count) == size, c.at(name))
            #expect(try c.statistics()["bif_frames_made"] ?? 0 >= 1, c.at("bif_frames_made"))
            #expect(c.statFailure("audio/audiobook-320-10.bif") == ENOENT, c.at("an audiobook"))
        },
    ]
}
