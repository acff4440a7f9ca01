import MediaKit

/// A film as the server layout shows it: a media file with a moving video, passed through under its
/// own name, and beside it, in the same source folder, the entries `ServerEntries.kinds` list.
struct ServerFilm: Sendable {
    let version: MediaVersion
    /// The source folder holding the film: where its entries are listed.
    let folder: NodeKey
    /// The film's name without its extension (`ServerNames.baseName`): every entry's name starts
    /// with it.
    let baseName: Name

    /// The film of `version` in the folder `folder`; nil for media without a moving video (a song,
    /// an audiobook), which passes through alone.
    init?(version: MediaVersion, folder: NodeKey) {
        guard Thumbnails.stream(of: version.info) != nil else { return nil }
        self.version = version
        self.folder = folder
        baseName = ServerNames.baseName(of: version.fileName)
    }

    /// The base name followed by `suffix` (`.eng.srt`, `-poster.jpg`).
    func name(_ suffix: String) -> Name { ServerNames.name(baseName, suffix) }

    /// What follows the base name in `name`, or nil when `name` does not start with it.
    func suffix(of name: Name) -> String? {
        guard name.bytes.count > baseName.bytes.count, name.bytes.starts(with: baseName.bytes) else { return nil }
        return String(validating: name.bytes[baseName.bytes.count...], as: UTF8.self)
    }

    /// Where an entry beside the film called `name` is listed.
    func placement(of name: Name) -> Placement { Placement(parent: folder, name: name) }

    /// Where a made file beside the film, called the base name and `suffix`, stands: numbered per
    /// version by its suffix, so that a renamed film's entries keep their numbers' rule.
    func spot(madeFile kind: String, suffix: String) -> VersionSpot {
        VersionSpot(madeFile: kind, of: version, at: placement(of: name(suffix)), names: [Name(suffix)])
    }
}

extension MediaTree {
    /// The film at `path` in the folder `folder` in the server layout, or nil where there is none: not
    /// a regular file with a media extension, empty, not media, or without a moving video. Probes
    /// it (once per version), after it has settled (`settledStat`).
    /// - Throws: `Pending` where another thread probes it; `AtOnce.GaveUp`.
    func serverFilm(at path: SourcePath, folder: NodeKey) throws -> ServerFilm? {
        guard MediaNames.isCandidate(path.lastName), let stat = sourceStat(path), stat.isRegular,
              let settled = settledStat(path, first: stat), settled.isRegular, settled.identity.size > 0,
              let facts = try facts(at: path, stat: settled) else { return nil }
        return ServerFilm(version: MediaVersion(path: path, stat: settled, facts: facts, shownAs: absolute(path)), folder: folder)
    }
}

extension MediaVersion {
    /// The absolute path of the entry `name` beside this film, for log lines.
    func shownBeside(_ name: Name) -> String {
        AbsolutePath(bytes: Array(shownAs.bytes[...(shownAs.bytes.lastIndex(of: 0x2F) ?? 0)]) + name.bytes).description
    }
}
