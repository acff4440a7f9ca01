import MediaKit

/// An answer handed back later: every operation of the tree answers through one, exactly once,
/// so that no caller's thread waits on a decode or a track pass.
public typealias Reply<Value> = @Sendable (Result<Value, Error>) -> Void

/// An entry of the tree (in the spirit of go-fuse's `fs/api.go`): each kind of entry is one type
/// that owns its names, its attributes, its content and its extended attributes. A node carries
/// what it was resolved from (the source's stat and probe, a parsed thumbnail name), so a request
/// works that out once.
///
/// Nodes are values of one moment of the source. Before the tree answers for a node it was given
/// by number, it asks the node for its `current(in:)` self.
public protocol TreeNode: AnyObject, Sendable {
    var key: NodeKey { get }
    /// Where the node is listed; nil for the root.
    var placement: Placement? { get }
    var isFolder: Bool { get }

    /// The node as the source is now: itself when nothing changed, a node made anew from the
    /// changed source (same key, so the same number), or an error.
    /// - Throws: `TreeError.notFound` where the source no longer shows it; `.stale` where the node
    ///   stands for a version of the source that is gone (a made file: its number names that version).
    func current(in tree: MediaTree) throws -> any TreeNode

    /// What `stat` reports. May take long for a track file (its pass): answered through `reply`.
    func attributes(in tree: MediaTree, reply: @escaping Reply<Attributes>)

    /// The names of the node's extended attributes. Makes no image.
    func extendedAttributeNames(in tree: MediaTree) throws -> [String]

    /// The value of the extended attribute `name` (one of `extendedAttributeNames`).
    func extendedAttribute(_ name: String, in tree: MediaTree, reply: @escaping Reply<[UInt8]>)
}

/// A folder: lists its entries and looks up a child by name.
public protocol FolderNode: TreeNode {
    /// The entries, in listing order, each with its attributes (or its name and type only). Makes
    /// no image and runs no pass.
    func list(in tree: MediaTree) throws -> [DirectoryEntry]

    /// The entries (`list`), the source they last as long as (a `LastingListing`'s), and the
    /// listings of subfolders made with them (`Listing.sublistings`; by default none).
    func listing(in tree: MediaTree) throws -> Listing

    /// The child called `name`, or nil. May probe the child (a source folder's media file).
    func child(named name: Name, in tree: MediaTree) throws -> (any TreeNode)?
}

/// A file: opened for reading.
public protocol FileNode: TreeNode {
    /// The content to read from until release: at once for the source's files and documents, once
    /// made for images, once its pass is done for a track.
    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>)
}

extension TreeNode {
    public func extendedAttributeNames(in tree: MediaTree) throws -> [String] { [] }

    public func extendedAttribute(_ name: String, in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        reply(.failure(TreeError.noAttribute))
    }
}

/// A node whose attributes are known at once, without waiting for any work.
public protocol ImmediateAttributes: TreeNode {
    func attributes(in tree: MediaTree) throws -> Attributes
}

extension ImmediateAttributes {
    public func attributes(in tree: MediaTree, reply: @escaping Reply<Attributes>) {
        reply(Result { try attributes(in: tree) })
    }
}

extension FolderNode {
    public var isFolder: Bool { true }

    public func listing(in tree: MediaTree) throws -> Listing {
        Listing(entries: try list(in: tree), source: (self as? any LastingListing).map(ListingSource.init))
    }
}

extension FileNode {
    public var isFolder: Bool { false }
}
