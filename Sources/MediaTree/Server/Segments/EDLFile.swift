import MediaKit

/// `Film.edl` beside a film whose analysis found what a player may skip (an episode's intro and
/// credits, a film's credits on black): Kodi's edit decision list, one line per segment,
/// `START END 3` in seconds (action 3, a commercial break: Kodi skips it once, automatically, and
/// the viewer can go back), which Jellyfin's EDL-importing plugins read too. Rendered from the
/// version's analysis, a few bytes, never cached.
final class EDLFile: MadeFile, ServerEntry, VersionNode {
    let spot: VersionSpot
    let segments: [MediaSegment]

    static let kind = "edl"
    static let suffix = ".edl"
    /// Kodi's action for a stretch it skips once, automatically.
    static let commercialBreak = 3
    /// Rendered at once: nothing to make ahead.
    static let isWarmed = false

    private init(film: ServerFilm, segments: [MediaSegment]) {
        spot = film.spot(madeFile: Self.kind, suffix: Self.suffix)
        self.segments = segments
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        guard let segments = film.version.analysis?.shownSegments, !segments.isEmpty else { return [] }
        return [EDLFile(film: film, segments: segments)]
    }

    static func hasShape(suffix: Name) -> Bool { suffix == Name(Self.suffix) }

    /// `12.5 81.041708 3`, a line per segment.
    var text: [UInt8] {
        Array(segments.map { "\(NameTime.decimalText($0.start)) \(NameTime.decimalText($0.end)) \(Self.commercialBreak)\n" }.joined().utf8)
    }

    func size(in tree: MediaTree) throws -> Int { text.count }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) { reply(.success(text)) }
}
