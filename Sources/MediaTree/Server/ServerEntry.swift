import MediaKit

/// One kind of entry the server layout shows beside a film (the poster, the representative frame,
/// a sidecar subtitle, Jellyfin's trickplay folder, the BIF): the type that is that entry says
/// which of its kind a version of a film has, and resolves a name to one.
///
/// To add a kind of entry: write its type, in a folder of its own here, conforming to this, and
/// add it to `ServerEntries.kinds`; the kinds of thing it makes are counted from there
/// (`madeKinds`), and `mediafs warm` reads what it says (`isWarmed`, `hasShape`).
protocol ServerEntry: TreeNode {
    /// The entries of this kind beside `film`, in listing order. Decided from the probe, the track
    /// plan and the settings: nothing is made and nothing read.
    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry]

    /// The entry of this kind called `name` beside `film`, nil when `name` is none of this kind.
    /// By default, the listed one of that name.
    static func resolve(_ name: Name, beside film: ServerFilm, tree: MediaTree) -> (any ServerEntry)?

    /// The kinds of made thing entries of this kind make (counted in `user.mediafs.stats`).
    static var madeKinds: [MadeKind] { get }

    /// Whether `mediafs warm` makes entries of this kind ahead of time (reading a file whole, or
    /// every file under a folder). By default it does.
    static var isWarmed: Bool { get }

    /// Whether a name beside a film, without the film's base name (`.eng.forced.srt`,
    /// `-320-10.bif`), has this kind's shape: how `mediafs warm`, which sees names only, finds the
    /// entries to read. May say yes to a source file of that shape (read through, harmless).
    static func hasShape(suffix: Name) -> Bool

    /// The entry as a listing gives it: with its attributes, or with its name and type only where
    /// they need work that a listing must not cause (a sidecar's size needs its track pass).
    func listedEntry(in tree: MediaTree) throws -> DirectoryEntry
}

extension ServerEntry {
    static func resolve(_ name: Name, beside film: ServerFilm, tree: MediaTree) -> (any ServerEntry)? {
        listed(beside: film, tree: tree).first { $0.placement?.name == name }
    }

    static var madeKinds: [MadeKind] { [] }
    static var isWarmed: Bool { true }
    static func hasShape(suffix: Name) -> Bool { false }
}

extension ServerEntry where Self: ImmediateAttributes {
    func listedEntry(in tree: MediaTree) throws -> DirectoryEntry { try tree.entry(self) }
}

/// The kinds of entry the server layout shows beside a film, in listing order: the one
/// registration line per kind.
public enum ServerEntries {
    static let kinds: [any ServerEntry.Type] = [
        PosterFile.self,
        SidecarFile.self,
        ReadSidecarFile.self,
        FrameFile.self,
        TrickplayFolder.self,
        BIFFile.self,
        EDLFile.self,
    ]

    /// The entries of every kind beside `film`, in listing order, but those whose names would be
    /// longer than a name may be (`Name.maximumBytes`): a film's name near that long leaves no room
    /// for some suffixes (`-fanart.jpg`, `.trickplay`), and those entries are not there.
    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        kinds.flatMap { $0.listed(beside: film, tree: tree) }.filter { entry in
            (entry.placement?.name.bytes.count ?? 0) <= Name.maximumBytes
        }
    }

    /// Every kind of made thing the entries make, each once, in the order of `kinds`.
    static let madeKinds: [MadeKind] = kinds.flatMap { $0.madeKinds }.reduce(into: []) { kinds, kind in
        if !kinds.contains(kind) { kinds.append(kind) }
    }

    /// What `mediafs warm` reads in a folder of a server layout mount whose entries are `listing`
    /// (each name, and whether it is a folder), film by film: each film (a file with a media
    /// extension) with the entries beside it whose names are its base name followed by the shape
    /// of a warmed kind (`hasShape`), in listing order. Films with none are left out.
    public static func warmedNames(in listing: [(name: Name, isFolder: Bool)]) -> [(film: Name, entries: [Name])] {
        let warmed = kinds.filter { kind in kind.isWarmed }
        let films = listing.filter { !$0.isFolder && MediaNames.isCandidate($0.name) }.map(\.name)
        guard !warmed.isEmpty, !films.isEmpty else { return [] }
        let names = FolderNames(names: films)
        var byFilm: [Name: [Name]] = [:]
        for (name, _) in listing {
            // The first film (in name order) whose base name and a warmed kind's shape make the name.
            let film = names.films(beside: name).first { film in
                let base = ServerNames.baseName(of: film).bytes
                let suffix = Name(bytes: Array(name.bytes[base.count...]))
                return warmed.contains { kind in kind.hasShape(suffix: suffix) }
            }
            if let film { byFilm[film, default: []].append(name) }
        }
        return films.compactMap { film in byFilm[film].map { (film, $0) } }
    }
}
