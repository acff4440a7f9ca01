import MediaKit

/// A BIF beside a film for Emby and Roku players, `Film-320-10.bif` (`ServerNames.bifSuffix`: the
/// tile width and the interval in seconds): Roku's archive of trick-play frames, one JPEG per tile
/// of the film's trickplay (the keyframe nearest each interval's start, `BIFLayout(frames:)`).
/// Its exact size is known from the probe; it is served by offset (`BIFContent`): the header and
/// index from the layout, the frames made in runs as reads reach them.
final class BIFFile: MadeFile, ServerEntry, VersionNode {
    let spot: VersionSpot
    let storyboard: StoryboardLayout
    let layout: BIFLayout

    static let kind = "bif"
    static let madeKinds: [MadeKind] = [.bifFrames]

    private init(film: ServerFilm, storyboard: StoryboardLayout, layout: BIFLayout) {
        self.storyboard = storyboard
        self.layout = layout
        let suffix = ServerNames.bifSuffix(width: storyboard.request.tileWidth, intervalMilliseconds: layout.intervalMilliseconds)
        spot = film.spot(madeFile: Self.kind, suffix: suffix)
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        let settings = tree.settings.storyboard
        guard let trickplay = TrickplayLayout(info: film.version.info, interval: settings.interval, columns: settings.grid.columns,
                                              rows: settings.grid.rows, width: settings.width),
              let layout = BIFLayout(frames: trickplay.storyboard) else { return [] }
        return [BIFFile(film: film, storyboard: trickplay.storyboard, layout: layout)]
    }

    /// `-<width>-<seconds>.bif`, the seconds a number with an optional fraction.
    static func hasShape(suffix: Name) -> Bool {
        guard let text = suffix.string, text.hasPrefix("-"), text.hasSuffix(".bif") else { return false }
        let parts = text.dropFirst().dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy(\.isASCIIDigit) && Double(parts[1]) != nil
            && parts[1].allSatisfy { $0.isASCIIDigit || $0 == "." }
    }

    func size(in tree: MediaTree) throws -> Int { layout.fileSize }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        reply(.success(content(in: tree)))
    }

    /// The whole file (as reads of it would give).
    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        content(in: tree).read(offset: 0, count: layout.fileSize, reply: reply)
    }

    private func content(in tree: MediaTree) -> BIFContent {
        BIFContent(tree: tree, version: version, storyboard: storyboard, layout: layout, shownAs: version.shownBeside(placement!.name))
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
