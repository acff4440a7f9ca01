import MediaKit

/// `scenes/`: one picture per scene of the film, its first frame, once the analysis has found them
/// (`VersionAnalysis.scenes`). Each is named as `thumbs/` names a frame, by the scene's start to
/// the microsecond (`at-01m02.5s.png`; `@SIZE` and `.jpg` resolve as there) and is that frame
/// (`user.mediafs.time`), made and cached as a thumbnail: the same picture as `thumbs/` under that
/// name.
final class ScenesFolder: ImmediateListing, NamedSubfolder {
    let spot: VersionSpot
    let stream: MediaInfo.Stream
    let duration: Double
    /// Each scene's start, in seconds (the first scene's is 0).
    let starts: [Double]

    static let madeKinds: [MadeKind] = [.thumbnails]
    static let name: Name = "scenes"
    /// Its pictures' kind of node: numbered apart from the same frame in `thumbs/`.
    static let pictureKind = "scene-picture"

    init?(spot: VersionSpot, tree: MediaTree) {
        guard let scenes = spot.version.analysis?.scenes, let stream = Thumbnails.stream(of: spot.version.info) else { return nil }
        self.spot = spot
        self.stream = stream
        duration = Thumbnails.duration(of: stream, info: spot.version.info)
        starts = [0] + scenes.cuts.map(\.seconds)
    }

    /// The name of the scene starting at `start`, in `format`.
    func name(start: Double, format: ImageFormat) -> Name {
        Name("at-" + NameTime.sortable(exactSeconds: start, duration: duration) + "." + format.fileExtension)
    }

    /// Its names made from the starts, nothing parsed.
    func list(in tree: MediaTree) throws -> [DirectoryEntry] {
        let format = tree.settings.imageFormat
        return try ScannerMarker.entries(in: self, tree: tree) + starts.compactMap { start in
            try picture(name(start: start, format: format), ThumbnailName(pick: .exact, time: .seconds(start), format: format),
                        tree: tree).map(tree.entry)
        }
    }

    /// A thumbnail name whose time is a scene's start, to the microsecond.
    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)? {
        if let marker = ScannerMarker.file(named: name, in: self) { return marker }
        guard let text = name.string, let parsed = ThumbnailName.parse(text), parsed.pick == .exact,
              case .seconds(let time) = parsed.time, isStart(time) else { return nil }
        return picture(name, parsed, tree: tree)
    }

    /// The picture `parsed` asks for, called `name`; nil where its size is too large.
    private func picture(_ name: Name, _ parsed: ThumbnailName, tree: MediaTree) -> ThumbnailFile? {
        guard let request = Thumbnails.request(for: parsed, stream: stream, duration: duration, settings: tree.settings,
                                               source: version.info.pictureSource(of: stream)) else { return nil }
        let spot = VersionSpot(madeFile: Self.pictureKind, of: version, at: placement(of: name), names: [Self.name, name])
        return ThumbnailFile(spot: spot, folderName: Self.name, request: request)
    }

    /// Whether `seconds` is a scene's start, to the microsecond (the starts are in order: halved).
    private func isStart(_ seconds: Double) -> Bool {
        let wanted = Self.microseconds(seconds)
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if Self.microseconds(starts[middle]) < wanted { low = middle + 1 } else { high = middle }
        }
        return low < starts.count && Self.microseconds(starts[low]) == wanted
    }

    private static func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }
}
