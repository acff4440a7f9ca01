import MediaKit

/// The text read from a picture subtitle track of the film, as a SubRip file beside it
/// (`SidecarSubtitles.readFiles`: `Film.eng.srt` where free, `Film.OCR.eng.srt`,
/// `Film.eng.forced.srt` for the forced events alone). The same file as `tracks/legible/`'s in
/// the default layout: made by the version's read pass (`TrackSetKey.Part.read`), which the
/// analysis runs, never read twice.
///
/// Listed only once read (its pass remembered in this mount, or made in an earlier one), and only
/// where the reading made it (a track without forced events has no forced file); a lookup of its
/// name before then runs the reading and waits, as a sidecar's lookup runs its pass.
final class ReadSidecarFile: FileNode, ServerEntry, VersionNode {
    let spot: VersionSpot
    /// The entry of the version's track plan (`tracks/legible/`) this file is.
    let entry: TrackPlan.Entry

    static let kind = "read-sidecar"
    static let madeKinds: [MadeKind] = [.readTextSets]

    private init(film: ServerFilm, file: SidecarSubtitles.File, entry: TrackPlan.Entry) {
        spot = film.spot(madeFile: Self.kind, suffix: file.suffix)
        self.entry = entry
    }

    /// Every read sidecar of `film`, listed or not.
    private static func planned(beside film: ServerFilm, tree: MediaTree) -> [ReadSidecarFile] {
        let plan = tree.trackPlan(of: film.version)
        return tree.sidecars(of: film.version, baseNameBytes: film.baseName.bytes.count).readFiles.compactMap { file in
            plan.entries.first { $0.streamIndex == file.streamIndex && $0.output == file.output }.map {
                ReadSidecarFile(film: film, file: file, entry: $0)
            }
        }
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        planned(beside: film, tree: tree).filter { $0.rememberedSize(in: tree) != nil }
    }

    static func resolve(_ name: Name, beside film: ServerFilm, tree: MediaTree) -> (any ServerEntry)? {
        planned(beside: film, tree: tree).first { $0.placement?.name == name }
    }

    /// `.srt`, as a sidecar's (`SidecarFile.hasShape` says so too).
    static func hasShape(suffix: Name) -> Bool {
        guard let text = suffix.string else { return false }
        return text.hasPrefix(".") && text.hasSuffix(".srt")
    }

    /// Listed only once read: its size is known then.
    func listedEntry(in tree: MediaTree) throws -> DirectoryEntry {
        var attributes = tree.madeFileAttributes(of: self, stat: version.stat)
        attributes.size = rememberedSize(in: tree) ?? 0
        return DirectoryEntry(name: placement!.name, attributes: attributes, keyHash: key.stableHash)
    }

    private func rememberedSize(in tree: MediaTree) -> Int64? { tree.rememberedTrackSize(entry, of: version) }

    /// Made from one version, as a `MadeFile`: stale once the source changed.
    func current(in tree: MediaTree) throws -> any TreeNode {
        guard try tree.currentVersion(of: version) === version else { throw TreeError.stale }
        return self
    }

    func attributes(in tree: MediaTree, reply: @escaping Reply<Attributes>) {
        tree.trackAttributes(of: self, entry: entry, of: version, shownAs: shownAs, reply: reply)
    }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        tree.openTrack(entry, of: version, shownAs: shownAs, reply: reply)
    }

    private var shownAs: String { version.shownBeside(placement!.name) }
}
