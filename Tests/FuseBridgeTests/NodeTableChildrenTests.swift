import Glibc
import MediaKit
@testable import FuseBridge
@testable import MediaTree
import Testing

/// A folder's children as the node table finds them (NodeTable+Children): a change looks at the
/// entries of what changed and no others, and every folder's children stay what the table holds
/// through forgetting, numbers given again to other keys, and listings replaced.
@Suite struct NodeTableChildrenTests {
    /// An entry of a listing: `hash` its key hash, a folder with `folder`.
    static func entry(_ name: String, _ hash: UInt64, folder: Bool = false) -> DirectoryEntry {
        let time = timespec()
        return DirectoryEntry(name: Name(name),
                              attributes: Attributes(inode: NodeKey.number(forHash: hash), type: folder ? .directory : .regular,
                                                     permissions: 0o444, size: 1, links: 1, uid: 0, gid: 0, accessTime: time,
                                                     modificationTime: time, changeTime: time),
                              keyHash: hash)
    }

    static func table() -> NodeTable {
        NodeTable(root: MediaTree(sourceRoot: "/nonexistent", media: LocalMediaService(), logger: .init(label: "test")).root)
    }

    /// Every entry of `listing` entered, as a readdirplus reply does; their numbers.
    @discardableResult
    static func enterAll(_ listing: KeptListing, in table: NodeTable) -> [UInt64] {
        var numbers = [UInt64](repeating: 0, count: listing.count)
        numbers.withUnsafeMutableBufferPointer { table.enter(listing, positions: 0..<listing.count, into: $0) }
        return numbers
    }

    /// The children of the folder numbered `folder` the table finds.
    static func children(of folder: UInt64, in table: NodeTable) -> Set<UInt64> {
        var found: Set<UInt64> = []
        var looked = 0
        table.state.withLock { $0.forEachChild(of: folder, looked: &looked) { number, _ in found.insert(number) } }
        return found
    }

    /// A library listed whole, as `ls -lR` leaves it: `films` media files in the source's root
    /// (whose listing, a source folder's, no entry keeps), each a media folder of `files` files
    /// and a `thumbs/` of `thumbs` (their listings kept by their entries). By film, every number
    /// made from it.
    static func listedLibrary(films: Int, files: Int = 8, thumbs: Int = 40) -> (table: NodeTable, films: [Set<UInt64>]) {
        let table = table()
        let names = (0..<films).map { String(format: "film-%05d.mkv", $0) }
        let root = KeptListing(folder: NodeKey.rootNumber, folderKey: MediaTree.folderKey(.root), listing: Listing(
            entries: names.map { entry($0, NodeKey(kind: "media", path: SourcePath($0)).stableHash, folder: true) }))
        let folders = enterAll(root, in: table)
        let made = zip(names, folders).map { name, folder -> Set<UInt64> in
            let path = SourcePath(name)
            let media = KeptListing(folder: folder, folderKey: NodeKey(kind: "media", path: path), listing: Listing(
                entries: (0..<files).map { entry("file-\($0).json", NodeKey(kind: "file", path: path, names: [Name("\($0)")]).stableHash) }
                    + [entry("thumbs", NodeKey(kind: "thumbs", path: path).stableHash, folder: true)]))
            table.keep(media, for: folder)
            let inMedia = enterAll(media, in: table)
            let thumbsFolder = inMedia.last!
            let pictures = KeptListing(folder: thumbsFolder, folderKey: NodeKey(kind: "thumbs", path: path), listing: Listing(
                entries: (0..<thumbs).map { entry("at-\($0)s.png", NodeKey(kind: "thumbnail", path: path, names: [Name("\($0)")]).stableHash) }))
            table.keep(pictures, for: thumbsFolder)
            return Set([folder] + inMedia + enterAll(pictures, in: table))
        }
        return (table, made)
    }

    /// What a change of `path` in the root makes stale, and how many entries it looked at.
    static func change(_ path: String, in table: NodeTable) -> (stale: Set<UInt64>, looked: Int) {
        var stale: Set<UInt64> = []
        let looked = table.forgetState(madeFrom: SourcePath(path), in: NodeKey.rootNumber) { number, _ in stale.insert(number) }
        return (stale, looked)
    }

    /// A film changed: its folder and everything in it, and nothing else, looked at through the
    /// root's listing (one name), the film's and its thumbs' listings: as many entries in a library
    /// of 2,000 films as in one of 20.
    @Test func aChangeLooksAtTheChangedFilmsEntriesOnly() {
        var lookedAt: [Int] = []
        for films in [20, 2_000] {
            let (table, made) = Self.listedLibrary(films: films)
            let (stale, looked) = Self.change("film-00007.mkv", in: table)
            #expect(stale == made[7], "\(films) films")
            // The root's entry for the name, then each entry of the two listings.
            #expect(looked == made[7].count, "\(films) films: looked at \(looked)")
            lookedAt.append(looked)
            #expect(Self.change("film-99999.mkv", in: table).stale.isEmpty, "a name the table does not hold")
        }
        #expect(lookedAt[0] == lookedAt[1])
    }

    /// What a change drops (a folder's listing) and what replaces a kept listing (a new version's,
    /// without one of the old names) still find the entries numbered by them, in the next change.
    @Test func entriesOfListingsReplacedOrDroppedAreStillFound() {
        let (table, made) = Self.listedLibrary(films: 3, files: 4, thumbs: 5)
        #expect(Self.change("film-00001.mkv", in: table).stale == made[1])
        #expect(Self.change("film-00001.mkv", in: table).stale == made[1], "its listings dropped by the first change")
        // A new listing of film 2 keeps all but its first file.
        let folder = Self.children(of: NodeKey.rootNumber, in: table).first { made[2].contains($0) }!
        let old = table.entry(folder)!.listing!
        let path = SourcePath("film-00002.mkv")
        let new = KeptListing(folder: folder, folderKey: NodeKey(kind: "media", path: path), listing: Listing(
            entries: old.entries.dropFirst().map { Self.entry($0.name.escaped, $0.keyHash, folder: $0.type == .directory) }))
        table.keep(new, for: folder)
        Self.enterAll(new, in: table)
        #expect(Self.children(of: folder, in: table).count == old.count, "the first file too, numbered by the old listing")
        #expect(Self.change("film-00002.mkv", in: table).stale == made[2])
    }

    /// A name looked up in a folder that lists it is entered as the listing's entry; one no listing
    /// names (any time in `thumbs/`) is known to the folder until it is forgotten.
    @Test func namesLookedUpAreFoundThroughTheListingOrKnown() throws {
        let (table, made) = Self.listedLibrary(films: 2, files: 2, thumbs: 3)
        let path = SourcePath("film-00000.mkv")
        let thumbs = try #require(made[0].first { number in
            guard case .listed(let listing, let index) = table.entry(number)?.origin else { return false }
            return listing.name(at: index) == "thumbs"
        })
        let listed = table.enter(Stub(NodeKey(kind: "thumbnail", path: path, names: [Name("1")])), as: "at-1s.png", in: thumbs,
                                 parentIsSourceFolder: false, lookups: 1)
        #expect(made[0].contains(listed) && table.lookups(of: listed) == 2)
        let other = Stub(NodeKey(kind: "thumbnail", path: path, names: [Name("1.5")]))
        let looked = table.enter(other, as: "at-1.5s.png", in: thumbs, parentIsSourceFolder: false, lookups: 1)
        guard case .lookedUp = try #require(table.entry(looked)).origin else { Issue.record("not a looked-up name"); return }
        #expect(table.entry(looked)?.keyHash(at: looked) == other.key.stableHash)
        #expect(table.state.withLock { $0.children[thumbs]?.known } == [looked])
        #expect(Self.children(of: thumbs, in: table) == made[0].filter { table.entry($0)?.parent == thumbs }.union([looked]))
        #expect(Self.change("film-00000.mkv", in: table).stale == made[0].union([looked]))
        table.forget(looked, count: 1)
        #expect(table.state.withLock { $0.children[thumbs]?.known ?? [] }.isEmpty, "forgotten, it is no child")
    }

    /// Random numbering, lookups, forgetting, listings replaced and changes, over keys that ask for
    /// the numbers of other folders' keys (so numbers go to other keys, and tombstones form),
    /// against a model: every folder's children found are the entries the model holds in it.
    @Test func childrenStayRightThroughForgetAndNumberReuse() throws {
        let table = Self.table()
        var generator = SystemRandomNumberGenerator()
        // Four media folders in the root; in each, 40 files whose key hashes ask for the same 40
        // numbers as the files of the folder two along (the top bit differs).
        let names = (0..<4).map { "film-\($0).mkv" }
        let root = KeptListing(folder: NodeKey.rootNumber, folderKey: MediaTree.folderKey(.root), listing: Listing(
            entries: names.enumerated().map { Self.entry($1, 0x1000 + UInt64($0), folder: true) }))
        let folders = Self.enterAll(root, in: table)
        func fileHash(_ folder: Int, _ file: Int) -> UInt64 { UInt64(0x2000 + file) | UInt64(folder & 1) << 62 | UInt64(folder >> 1) << 63 }
        func listing(_ folder: Int, dropping: Int? = nil) -> KeptListing {
            KeptListing(folder: folders[folder], folderKey: NodeKey(kind: "media", path: SourcePath(names[folder])), listing: Listing(
                entries: (0..<40).filter { $0 != dropping }.map { Self.entry("file-\($0)", fileHash(folder, $0)) }))
        }
        var kept = (0..<4).map { listing($0) }
        for folder in 0..<4 { table.keep(kept[folder], for: folders[folder]) }
        // The model: number → (key hash, folder index).
        var held: [UInt64: (hash: UInt64, folder: Int, lookups: UInt64)] = [:]
        var keysGiven: [UInt64: Set<UInt64>] = [:]  // number → the key hashes it was given to
        for step in 0..<3_000 {
            let folder = Int.random(in: 0..<4, using: &generator)
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<45:  // a readdirplus entry
                let file = Int.random(in: 0..<kept[folder].count, using: &generator)
                let number = table.enter(kept[folder], index: file)
                held[number, default: (kept[folder].keyHash(at: file), folder, 0)].lookups += 1
            case 45..<55:  // a name no listing gives, looked up
                let node = Stub(NodeKey(kind: "thumbnail", path: SourcePath(names[folder]), names: [Name("\(Int.random(in: 0..<30, using: &generator))")]))
                let number = table.enter(node, as: "at-x.png", in: folders[folder], parentIsSourceFolder: false, lookups: 1)
                held[number, default: (node.key.stableHash, folder, 0)].lookups += 1
            case 55..<95:  // forgotten, all or part
                guard let (number, entry) = held.filter({ $0.value.folder == folder }).randomElement(using: &generator) else { continue }
                let count = UInt64.random(in: 1...entry.lookups, using: &generator)
                table.forget(number, count: count)
                held[number] = entry.lookups == count ? nil : (entry.hash, entry.folder, entry.lookups - count)
            case 95..<98:  // a new listing without the name of a file held
                let files = held.values.filter { $0.folder == folder }.compactMap { entry in
                    (0..<40).first { fileHash(folder, $0) == entry.hash }
                }
                kept[folder] = listing(folder, dropping: files.randomElement(using: &generator))
                table.keep(kept[folder], for: folders[folder])
            default:  // the film changed
                let expected = Set(held.filter { $0.value.folder == folder }.keys).union([folders[folder]])
                let stale = Self.change(names[folder], in: table).stale
                guard stale == expected else {
                    Issue.record("step \(step): the change of \(names[folder]) made \(stale.symmetricDifference(expected)) wrongly stale")
                    return
                }
            }
            for (index, number) in folders.enumerated() {
                let expected = Set(held.filter { $0.value.folder == index }.keys)
                let found = Self.children(of: number, in: table)
                guard found == expected else {
                    Issue.record("step \(step), folder \(index): \(found.subtracting(expected)) more, \(expected.subtracting(found)) fewer")
                    return
                }
            }
            #expect(held.allSatisfy { table.entry($0.key)?.keyHash(at: $0.key) == $0.value.hash }, "step \(step)")
            for (number, entry) in held { keysGiven[number, default: []].insert(entry.hash) }
        }
        #expect(keysGiven.values.filter { $0.count > 1 }.count > 10, "numbers were given to other keys")
        // All forgotten: no folder knows a child any more.
        for (number, entry) in held { table.forget(number, count: entry.lookups) }
        #expect(table.state.withLock { state in state.children.folders.values.allSatisfy { $0.known.isEmpty } })
    }
}

/// A node of a key, for names looked up.
private final class Stub: TreeNode {
    let key: NodeKey
    init(_ key: NodeKey) { self.key = key }
    var placement: Placement? { nil }
    var isFolder: Bool { false }
    func current(in tree: MediaTree) throws -> any TreeNode { self }
    func attributes(in tree: MediaTree, reply: @escaping Reply<Attributes>) { reply(.failure(TreeError.notFound)) }
}
