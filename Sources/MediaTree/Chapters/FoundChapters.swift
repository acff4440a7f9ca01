import MediaKit

/// Chapters for a film that has none of its own, made from what its analysis found: about every
/// `spacing` seconds, each at the strongest hard cut within `reach` of that point (none where no
/// cut is that near; none at all for a film shorter than two spacings), and its segments (an
/// episode's intro and credits, a film's credits on black), titled "Intro" and "Credits" as mpv's
/// chapter-skip scripts and Jellyfin's chapter segments look for. The other chapters are titled "Chapter N" in the languages of
/// `titles`, so each reader sees them in theirs.
enum FoundChapters {
    static let spacing = 300.0
    static let reach = 60.0
    /// How near to a segment's ends a chapter from the scenes gives way to the segment's own.
    static let segmentMargin = 30.0

    /// "Chapter" in the languages people most read, by ISO 639-2 code (the bibliographic and
    /// terminology codes alike where they differ), the reader's best match chosen as for any title.
    static let titles: [(languages: [String], word: String)] = [
        (["eng"], "Chapter"), (["ger", "deu"], "Kapitel"), (["fre", "fra"], "Chapitre"), (["spa"], "Capítulo"),
        (["ita"], "Capitolo"), (["por"], "Capítulo"), (["dut", "nld"], "Hoofdstuk"), (["swe"], "Kapitel"),
        (["dan"], "Kapitel"), (["nor", "nob"], "Kapittel"), (["fin"], "Luku"), (["pol"], "Rozdział"),
        (["cze", "ces"], "Kapitola"), (["rus"], "Глава"), (["ukr"], "Розділ"), (["gre", "ell"], "Κεφάλαιο"),
        (["tur"], "Bölüm"), (["jpn"], "チャプター"), (["chi", "zho"], "章节"), (["kor"], "챕터"),
    ]

    /// The chapter list made from `analysis` of a film lasting `duration` seconds; nil where it
    /// gives none.
    static func list(_ analysis: VersionAnalysis, duration: Double) -> ChapterList? {
        var starts: [(start: Double, kind: MediaSegment.Kind?)] = []
        let segments = analysis.shownSegments
        for segment in segments {
            starts.append((segment.start, segment.kind))
            if segment.end < duration - 1 { starts.append((segment.end, nil)) }
        }
        if duration >= 2 * spacing, let cuts = analysis.scenes?.cuts {
            var point = spacing
            while point < duration - reach {
                let near = cuts.filter { abs($0.seconds - point) <= reach }
                if let strongest = near.max(by: { $0.strength < $1.strength }),
                   !segments.contains(where: { strongest.seconds > $0.start - segmentMargin && strongest.seconds < $0.end + segmentMargin }) {
                    starts.append((strongest.seconds, nil))
                }
                point += spacing
            }
        }
        guard !starts.isEmpty else { return nil }
        if !starts.contains(where: { $0.start < 1 }) { starts.append((0, nil)) }
        starts.sort { $0.start < $1.start }
        var number = 0
        let chapters = starts.indices.map { i -> ChapterList.Chapter in
            let end = i + 1 < starts.count ? starts[i + 1].start : duration
            let titles: [ChapterList.Title]
            switch starts[i].kind {
            case .intro: titles = [ChapterList.Title(text: "Intro", languages: [])]
            case .credits: titles = [ChapterList.Title(text: "Credits", languages: [])]
            case nil:
                number += 1
                titles = Self.titles.map { ChapterList.Title(text: "\($0.word) \(number)", languages: $0.languages) }
            }
            return ChapterList.Chapter(uid: UInt64(i + 1), start: starts[i].start, end: end, titles: titles)
        }
        return ChapterList(source: .found, editions: [ChapterList.Edition(chapters: chapters)])
    }
}
