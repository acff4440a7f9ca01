@testable import MediaTree
import Testing

/// The names of chapter images: the safety rules, the 255-byte bound on UTF-8 boundaries, numbering,
/// start times and collisions (Docs/LAYOUT.md).
@Suite struct ChapterNamesTests {
    @Test func numberStartAndTitle() {
        let names = ChapterNames.names(starts: [0, 95.5, 201, 3599.999], titles: ["Opening", "The Heist", nil, "Late"])
        #expect(names == ["01 00h00m00s Opening.png", "02 00h01m35s The Heist.png", "03 00h03m21s.png",
                          "04 00h59m59s Late.png"])
    }

    @Test func numbersAndHoursArePaddedAlikeSoNamesSortInOrder() {
        let starts = (0..<120).map { Double($0) * 3600 }
        let names = ChapterNames.names(starts: starts, titles: starts.map { _ in "x" })
        #expect(names.first == "001 000h00m00s x.png")
        #expect(names[99] == "100 099h00m00s x.png")
        #expect(names.last == "120 119h00m00s x.png")
        #expect(names == names.sorted())
        // Nine chapters still get two digits, like chapters.txt's CHAPTER01.
        #expect(ChapterNames.names(starts: [0], titles: ["a"]) == ["01 00h00m00s a.png"])
    }

    @Test func titlesAreMadeSafe() {
        #expect(ChapterNames.safeTitle("Act 1 / \"The Call\" 📞") == "Act 1 ∕ \"The Call\" 📞")
        #expect(ChapterNames.safeTitle("a/b//c") == "a∕b∕∕c")
        #expect(ChapterNames.safeTitle("line one\nline two\r\n") == "line one line two")
        #expect(ChapterNames.safeTitle("nul\u{0}here\u{7F}del\u{85}c1\u{9B}csi") == "nul here del c1 csi")
        #expect(ChapterNames.safeTitle("tab\tand\u{2028}separator\u{2029}end") == "tab and separator end")
        #expect(ChapterNames.safeTitle("  spaced    out  ") == "spaced out")
        #expect(ChapterNames.safeTitle("\u{1}\u{2}\n  ") == nil)
        #expect(ChapterNames.safeTitle("") == nil)
        #expect(ChapterNames.safeTitle(nil) == nil)
        #expect(ChapterNames.safeTitle("'single' \"double\" \\ back * ? : | < >") == "'single' \"double\" \\ back * ? : | < >")
        let names = ChapterNames.names(starts: [0, 1], titles: ["../../etc/passwd", "\n"])
        #expect(names == ["01 00h00m00s ..∕..∕etc∕passwd.png", "02 00h00m01s.png"])
        for name in names {
            #expect(!name.contains("/") && !name.unicodeScalars.contains { $0.value < 0x20 })
        }
    }

    @Test func longTitlesAreCutOnCharacterBoundariesWithin255Bytes() {
        let ascii = String(repeating: "A very long chapter title that keeps going, ", count: 10)
        let emoji = String(repeating: "👩🏽‍🚀", count: 40)          // 15 bytes a character
        let accents = String(repeating: "e\u{301}", count: 200)   // a letter and a combining accent
        let cjk = String(repeating: "章", count: 200)              // 3 bytes a character
        for title in [ascii, emoji, accents, cjk] {
            let name = ChapterNames.names(starts: [7200], titles: [title])[0]
            #expect(name.utf8.count <= ChapterNames.maximumBytes, "\(name.utf8.count)")
            #expect(name.utf8.count > ChapterNames.maximumBytes - 16, "cut no more than needed")
            #expect(name.hasPrefix("01 02h00m00s ") && name.hasSuffix("….png"))
            // Whole characters of the title only: the kept part is a prefix of the title, as characters.
            let kept = String(name.dropFirst("01 02h00m00s ".count).dropLast("….png".count))
            #expect(title.hasPrefix(kept) && Array(title).starts(with: Array(kept)))
            #expect(String(decoding: Array(name.utf8), as: UTF8.self) == name, "valid UTF-8")
        }
        // A title that just fits is kept whole.
        let fits = String(repeating: "x", count: 255 - "01 00h00m00s .png".utf8.count)
        #expect(ChapterNames.names(starts: [0], titles: [fits])[0].utf8.count == 255)
        #expect(!ChapterNames.names(starts: [0], titles: [fits])[0].contains("…"))
        #expect(ChapterNames.names(starts: [0], titles: [fits + "y"])[0].hasSuffix("….png"))
    }

    @Test func truncatedKeepsWholeCharacters() {
        // The one byte-bounded cut of names (`FileNameText.truncated`), as chapter names use it.
        func truncated(_ text: String, toBytes limit: Int) -> String {
            FileNameText.truncated(text, toBytes: limit, ellipsis: ChapterNames.ellipsis)
        }
        #expect(truncated("abc", toBytes: 3) == "abc")
        #expect(truncated("abcdef", toBytes: 5) == "ab…")
        #expect(truncated("ab  cdef", toBytes: 7) == "ab…")     // no space before the ellipsis
        #expect(truncated("🚀🚀🚀", toBytes: 10) == "🚀…")
        #expect(truncated("🚀🚀🚀", toBytes: 6) == "…")
        #expect(truncated("🚀🚀🚀", toBytes: 2) == "")
    }

    @Test func namesNeverCollide() {
        // Taken names (the documents beside the images, or another image) get " (2)", " (3)", …
        let reserved: Set<String> = ["01 00h00m00s Same.png", "01 00h00m00s Same (2).png"]
        #expect(ChapterNames.names(starts: [0], titles: ["Same"], reserved: reserved) == ["01 00h00m00s Same (3).png"])
        // Still within 255 bytes when the title had to be cut.
        let long = String(repeating: "é", count: 300)
        let first = ChapterNames.names(starts: [0], titles: [long])[0]
        let second = ChapterNames.names(starts: [0], titles: [long], reserved: [first])[0]
        #expect(second != first && second.hasSuffix("… (2).png") && second.utf8.count <= 255)
        // Same titles at the same time are told apart by their numbers.
        let same = ChapterNames.names(starts: [3, 3, 3], titles: ["Part", "Part", "Part"])
        #expect(Set(same).count == 3)
    }
}

/// When a chapter with no picture of its own shows a frame, and the later tries for a black one.
@Suite struct ChapterFrameTimesTests {
    @Test func aLittleAfterTheStartThenLaterTries() {
        #expect(ChapterFrameTimes.times(start: 60, end: 160, duration: 600) == [61, 61.666667, 63.333333, 65])
        // A 4.775 s chapter: a tenth of it, then thirds of it.
        #expect(ChapterFrameTimes.times(start: 0, end: 4.775, duration: 30) == [0.4775, 1.591667, 3.183333, 4.774])
        // No length: the start alone. Past the video: its end.
        #expect(ChapterFrameTimes.times(start: 6, end: 6, duration: 12) == [6])
        #expect(ChapterFrameTimes.times(start: 40, end: 50, duration: 30) == [30])
        #expect(ChapterFrameTimes.times(start: 29.5, end: 40, duration: 30) == [30])
        #expect(ChapterFrameTimes.times(start: 0, end: 0.5, duration: 30) == [0.05, 0.166667, 0.333333, 0.499])
    }
}
