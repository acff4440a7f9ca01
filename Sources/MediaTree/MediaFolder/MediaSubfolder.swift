import MediaKit

/// A folder inside a media folder (`chapters/`, `thumbs/`, `tracks/` and its groups): of one
/// version of the media file, brought to the new version when the source changes (same key, same
/// number), gone when the new version has no such folder.
protocol MediaSubfolder: FolderNode, ImmediateAttributes {
    var version: MediaVersion { get }
    /// This folder for `version`, or nil where that version has none.
    /// - Throws: where what decides it cannot be read now (`MediaTree.chapterListing(of:)`).
    func renewed(in version: MediaVersion, tree: MediaTree) throws -> Self?
}

extension MediaSubfolder {
    func current(in tree: MediaTree) throws -> any TreeNode {
        let now = try tree.currentVersion(of: version)
        if now === version { return self }
        guard let renewed = try renewed(in: now, tree: tree) else { throw TreeError.notFound }
        return renewed
    }

    func attributes(in tree: MediaTree) throws -> Attributes {
        tree.madeFolderAttributes(of: self, stat: version.stat)
    }

    /// Where an entry of this folder called `name` is listed.
    func placement(of name: Name) -> Placement { Placement(parent: key, name: name) }
}

/// A media subfolder that is one entry of its media folder, under a fixed name (`chapters/`,
/// `storyboard/`, `thumbs/`, `tracks/`): listed and resolved where the version has one, renewed
/// by making it again for the new version, read whole by `mediafs warm`.
protocol NamedSubfolder: MediaSubfolder, MediaFolderEntry, VersionNode {
    static var name: Name { get }
    /// This folder of `spot.version`, or nil where that version has none.
    /// - Throws: where what decides it cannot be read now (`MediaTree.chapterListing(of:)`).
    init?(spot: VersionSpot, tree: MediaTree) throws
}

extension NamedSubfolder {
    /// Its kind of node (`NodeKey.kind`): its name, spelt once (renamed, a folder is a new kind).
    static var kind: String { String(decoding: name.bytes, as: UTF8.self) }

    static var warmedNames: [Name] { [name] }

    static func listed(in folder: MediaFolder, tree: MediaTree) throws -> [any TreeNode] {
        try Self(spot: VersionSpot(folder: kind, of: folder.version, at: folder.placement(of: name)), tree: tree).map { [$0] } ?? []
    }

    static func resolve(_ name: Name, in folder: MediaFolder, tree: MediaTree) throws -> (any TreeNode)? {
        name == Self.name ? try listed(in: folder, tree: tree).first : nil
    }

    func renewed(in version: MediaVersion, tree: MediaTree) throws -> Self? {
        try Self(spot: VersionSpot(folder: Self.kind, of: version, at: spot.placement), tree: tree)
    }
}

/// A folder whose listing is worked out from its version of the media file and the mount's
/// settings alone (the probe, the chapter list, the plans of its pictures, the sizes of its tracks:
/// their files are bit-exact), so it is the same every time while the source is: `MediaFolder` and
/// its subfolders. A listing of one is kept by whoever holds the folder (FuseBridge's node table)
/// and given again while the source is unchanged (`MediaTree.isUnchanged`), unless an entry of it
/// is known by name and type only (a track whose pass is not remembered): that one gains its size.
protocol LastingListing: FolderNode {
    var version: MediaVersion { get }
    /// Whether a listing of it is made from memory alone now: nothing read, nothing waited for.
    func listsFromMemory(in tree: MediaTree) -> Bool
}

extension LastingListing {
    func listsFromMemory(in tree: MediaTree) -> Bool { false }
}

/// A media subfolder whose listing is worked out from its version in memory alone (the probe, the
/// track plan, the settings): no file is read and nothing waits. While its source is unchanged, a
/// listing of it is answered on the thread that received the request (`MediaTree.listAtOnce`);
/// handing each of the tens of thousands of folders of a library's `ls -lR` to a worker thread
/// cost a thread wake-up each. (Any lasting listing kept from before is answered there too.) One
/// that needs what is not in memory after all (a track group's sizes in listing facts not read
/// yet) gives up there and goes to a worker (`AtOnce`).
protocol ImmediateListing: MediaSubfolder, LastingListing {}

extension ImmediateListing {
    func listsFromMemory(in tree: MediaTree) -> Bool { true }
}
