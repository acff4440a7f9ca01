import MediaTree
import Testing

/// `mediafs warm --part K/N`'s parts of a library.
@Suite struct LibraryPartTests {
    @Test func partsAreWrittenKOverN() {
        #expect(LibraryPart("2/3") == LibraryPart("2/3") && LibraryPart("2/3")?.description == "2/3")
        for text in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3", "", "-1/2", "1/-2"] { #expect(LibraryPart(text) == nil, "\(text)") }
    }

    /// Every path in exactly one part, the parts of about equal size, and the same part in every
    /// run and on every machine (a changed hash would split machines of two versions differently).
    @Test func everyPathIsInOnePartAndStaysThere() {
        let parts = (1...3).map { LibraryPart("\($0)/3")! }
        let paths = (0..<3_000).map { "Films/Film \($0) (\(1950 + $0 % 70)).mkv" }
        var sizes = [0, 0, 0]
        for path in paths {
            let holding = parts.indices.filter { parts[$0].contains(relativePath: path) }
            #expect(holding.count == 1, "\(path)")
            if let index = holding.first { sizes[index] += 1 }
        }
        #expect(sizes.allSatisfy { $0 > 850 && $0 < 1_150 }, "\(sizes)")
        let split = ["clips/clip-vp9.webm", "clips/Holiday Café 2021.mp4", "clips/clip-hevc10.mkv", "clips/portrait-rotated.mp4"]
            .map { LibraryPart("1/2")!.contains(relativePath: $0) }
        #expect(split == [false, true, false, false], "\(split)")
    }
}
