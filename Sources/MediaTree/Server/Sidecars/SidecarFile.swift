import MediaKit

/// A subtitle track of the film as a file beside it, named so that Jellyfin, Plex, Kodi, Emby and
/// mpv each read its language and flags (`SidecarSubtitles`: `Film.eng.srt`, `Film.eng.forced.srt`,
/// `Film.Kommentar.ger.srt`, `Film.ita.idx` and `.sub`): text as SRT, ASS and SSA as they are, PGS as
/// `.sup`, DVD subtitles as a VobSub pair. Made by `MediaService.extractTracks`, all of a film's
/// sidecars in one pass (`TrackPlan(sidecarsOf:)`), kept in the cache folder as track files are.
/// Its size is known once its pass has run: listings give its name and type only until then.
final class SidecarFile: FileNode, ServerEntry, VersionNode {
    let spot: VersionSpot
    let entry: TrackPlan.Entry

    static let kind = "sidecar"
    static let madeKinds: [MadeKind] = [.sidecarSets]
    /// The extensions a sidecar has (`SidecarTrack.form`).
    static let extensions = [".srt", ".ass", ".ssa", ".sup", ".idx", ".sub", ".mks"]

    private init(film: ServerFilm, file: SidecarSubtitles.File) {
        spot = film.spot(madeFile: Self.kind, suffix: file.suffix)
        let fileExtension = String(file.suffix[file.suffix.lastIndex(of: ".")!...])
        entry = TrackPlan.Entry(group: .sidecars, name: TrackPlan.sidecarName(stream: file.streamIndex, fileExtension: fileExtension),
                                streamIndex: file.streamIndex, output: file.output, language: file.storedLanguage)
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        tree.sidecars(of: film.version, baseNameBytes: film.baseName.bytes.count).files.map { SidecarFile(film: film, file: $0) }
    }

    static func hasShape(suffix: Name) -> Bool {
        guard let text = suffix.string, text.hasPrefix(".") else { return false }
        return extensions.contains { text.hasSuffix($0) }
    }

    /// Its size where its pass is remembered or was made in an earlier mount, else its name and
    /// type only (no pass runs for a listing).
    func listedEntry(in tree: MediaTree) throws -> DirectoryEntry {
        var attributes = tree.madeFileAttributes(of: self, stat: version.stat)
        guard let size = rememberedSize(in: tree) else {
            attributes.size = 0
            return DirectoryEntry(name: placement!.name, attributes: attributes, keyHash: key.stableHash, nameAndTypeOnly: true)
        }
        attributes.size = size
        return DirectoryEntry(name: placement!.name, attributes: attributes, keyHash: key.stableHash)
    }

    private func rememberedSize(in tree: MediaTree) -> Int64? {
        tree.rememberedTrackSize(entry, of: version)
    }

    /// Made from one version, as a `MadeFile`: stale once the source changed.
    func current(in tree: MediaTree) throws -> any TreeNode {
        guard try tree.currentVersion(of: version) === version else { throw TreeError.stale }
        return self
    }

    func attributes(in tree: MediaTree, reply: @escaping Reply<Attributes>) {
        tree.trackAttributes(of: self, entry: entry, of: version, plan: tree.sidecarPlan(of: version), shownAs: shownAs,
                             reply: reply)
    }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        tree.openTrack(entry, of: version, plan: tree.sidecarPlan(of: version), shownAs: shownAs, reply: reply)
    }

    private var shownAs: String { version.shownBeside(placement!.name) }
}
