import MediaKit
@testable import MediaTree
import Testing

/// The thumbs/ name grammar (Docs/LAYOUT.md), in its one parser.
@Suite struct ThumbnailNameTests {
    @Test(arguments: [
        ("12.5s", 12.5), ("90s", 90), ("1m30s", 90), ("1h02m03.5s", 3723.5), ("1h", 3600), ("2m", 120),
        ("00:01:30.5", 90.5), ("01:30", 90), ("1:02:03", 3723), ("0s", 0), ("0.000001s", 0.000001),
    ])
    func timesInEveryForm(_ text: String, _ seconds: Double) {
        #expect(NameTime.parse(Substring(text)) == .seconds(seconds), "\(text)")
    }

    @Test func percentages() {
        #expect(NameTime.parse("25%") == .percent(25))
        #expect(NameTime.parse("0%") == .percent(0))
        #expect(NameTime.parse("100%") == .percent(100))
        #expect(NameTime.parse("33.3%")?.seconds(duration: 300) == 99.9)
    }

    @Test(arguments: ["", "s", "12", "12.s", ".5s", "-1s", "1e3s", "12.5S", "1m90s", "1s2m", "1h1h", "00:60",
                      "1:2:3", "::", "12:30:", "101%", "%", "1.2.3s", "١٢s", "12 s", "0x10s", "1234567890s"])
    func malformedTimes(_ text: String) {
        #expect(NameTime.parse(Substring(text)) == nil, "\(text)")
    }

    /// `thumbs/` lists the names kept for the first video of a shape (`ThumbnailListing.Shape`):
    /// every duration of that shape lists exactly those, across intervals and hour widths.
    @Test func videosOfOneShapeListTheSameNames() {
        var first: [ThumbnailListing.Shape: (duration: Double, names: [Name])] = [:]
        let durations = stride(from: 0.5, to: 40_000, by: 37.1).map { $0 } + [3599.9, 3600, 35_999.5, 36_000, 36_000.5]
        for interval in [nil, 7] as [Int?] {
            for duration in durations {
                let shape = ThumbnailListing.Shape(duration: duration, interval: interval, format: .jpeg)
                let names = ThumbnailListing.names(duration: duration, interval: interval, format: .jpeg).map { Name($0) }
                if let kept = first[shape] {
                    #expect(kept.names == names, "\(duration) s lists other names than \(kept.duration) s of its shape")
                } else {
                    first[shape] = (duration, names)
                }
            }
        }
        #expect(first.count > 10 && first.count < 2 * durations.count, "shapes are shared")
    }

    @Test func names() {
        #expect(ThumbnailName.parse("at-12.5s.png") == ThumbnailName(pick: .exact, time: .seconds(12.5)))
        #expect(ThumbnailName.parse("near-1m.png") == ThumbnailName(pick: .nearestKeyframe, time: .seconds(60)))
        #expect(ThumbnailName.parse("at-25%@180h.png") == ThumbnailName(pick: .exact, time: .percent(25), box: .height(180)))
        #expect(ThumbnailName.parse("at-00:00:02@640x360.png")?.box == .box(width: 640, height: 360))
        #expect(ThumbnailName.parse("at-2s@320w.png")?.box == .width(320))
        #expect(ThumbnailName.parse("near-2s@full.png")?.box == .full)
        #expect(ThumbnailName.parse("at-12.5s.jpg") == ThumbnailName(pick: .exact, time: .seconds(12.5), format: .jpeg))
        #expect(ThumbnailName.parse("near-25%@640x360.jpg")?.format == .jpeg)
    }

    @Test(arguments: ["at-12.5s", "at-12.5s.gif", "at-12.5s.jpeg", "at-1s.JPG", "12.5s.png", "at-.png", "at-12.5s@.png", "at-1s@0w.png",
                      "at-1s@320.png", "at-1s@320x.png", "at-1s@x180.png", "at-1s@16385w.png", "at-1s@320w@full.png",
                      "middle-1s.png", "AT-1s.png", "at-1s.PNG", "at-1s@Full.png", "near-.png"])
    func malformedNames(_ name: String) {
        #expect(ThumbnailName.parse(name) == nil, "\(name)")
    }

    /// Listed names sort in time order as text, so `cp thumbs/*.png` copies them in time order.
    @Test func listingIsPeriodicSortedAndBounded() {
        let film = ThumbnailListing.names(duration: 5_400, interval: nil)
        let periodic = film.filter { !$0.hasSuffix("%.png") }
        #expect(periodic.count <= 40 && periodic.count >= 20)
        #expect(periodic == periodic.sorted())
        #expect(periodic.first == "at-0h00m00s.png")
        #expect(Array(film.suffix(3)) == ["at-25%.png", "at-50%.png", "at-75%.png"])
        for name in film { #expect(ThumbnailName.parse(name) != nil, "\(name) does not parse") }

        let clip = ThumbnailListing.names(duration: 30, interval: nil)
        #expect(clip.prefix(3) == ["at-00m00s.png", "at-00m01s.png", "at-00m02s.png"])
        #expect(ThumbnailListing.names(duration: 30, interval: 10).prefix(3) == ["at-00m00s.png", "at-00m10s.png", "at-00m20s.png"])
        #expect(ThumbnailListing.names(duration: 0, interval: nil).isEmpty)
    }

    @Test func decimalText() {
        #expect(NameTime.decimalText(12.5) == "12.5")
        #expect(NameTime.decimalText(90) == "90")
        #expect(NameTime.decimalText(1001.0 / 24000) == "0.041708")
    }
}
