import Dispatch
import FuseBridge
import MediaTree
import Synchronization

/// A `TreeClient` straight against a `MediaTree`, by number as the kernel reaches it
/// (`NumberedTree`, without libfuse): each path is looked up name by name from the root, every
/// operation waited for on its `Reply` (a test may wait; FUSE threads never do); a failure's errno
/// is the one FuseBridge would answer the kernel with.
public struct DirectTreeClient: TreeClient, Sendable {
    public let tree: NumberedTree
    public var kind: String { "tree" }

    public init(_ tree: MediaTree) { self.tree = NumberedTree(tree: tree) }

    public func list(_ path: String) throws(CallError) -> [ListedEntry] {
        try call("list", path) {
            try tree.list(try attributes(path).inode).map { entry in
                ListedEntry(name: entry.name.escaped, type: EntryType(entry.type), inode: entry.inode,
                            size: entry.nameAndTypeOnly ? nil : entry.attributes.size)
            }
        }
    }

    public func stat(_ path: String) throws(CallError) -> EntryStatus {
        try call("stat", path) {
            let attributes = try attributes(path)
            return EntryStatus(type: EntryType(attributes.type), size: attributes.size, inode: attributes.inode,
                               permissions: attributes.permissions)
        }
    }

    public func read(_ path: String) throws(CallError) -> [UInt8] {
        try call("read", path) {
            let content = try tree.open(try attributes(path).inode)
            var bytes: [UInt8] = []
            while true {
                let chunk = try content.read(offset: Int64(bytes.count), count: 65_536)
                if chunk.isEmpty { return bytes }
                bytes += chunk
            }
        }
    }

    public func extendedAttribute(_ name: String, of path: String) throws(CallError) -> [UInt8] {
        try call("getxattr \(name)", path) {
            // What the bridge answers for any node before it looks at this one (Operations.swift).
            if let error = MediaTree.attributeErrorForAnyNode(named: name) { throw error }
            return try tree.extendedAttribute(name, of: try attributes(path).inode)
        }
    }

    /// The attributes at `path`, looked up name by name from the root.
    private func attributes(_ path: String) throws -> Attributes {
        var attributes = try tree.attributes(of: NodeKey.rootNumber)
        for name in path.split(separator: "/") {
            attributes = try tree.lookup(parent: attributes.inode, name: String(name))
        }
        return attributes
    }

    /// `body`'s value, or its error as the errno FuseBridge answers with.
    private func call<T>(_ what: String, _ path: String, _ body: () throws -> T) throws(CallError) -> T {
        do {
            return try body()
        } catch {
            let detail: String = switch error as? TreeError {
            case .io(_, let reason)?: reason
            case .media(_, let failure)?: "\(failure)"
            default: ""
            }
            throw CallError(code: ErrnoMapping.code(for: error), call: "\(what) \(path)", detail: detail)
        }
    }
}

extension EntryType {
    init(_ type: Attributes.FileType) {
        switch type {
        case .directory: self = .directory
        case .regular: self = .regular
        }
    }
}

/// The tree's operations by number, waited for: a test may wait; FUSE threads never do.
extension NumberedTree {
    /// Runs `operation` and waits for the one answer it gives through its reply.
    public static func wait<Value: Sendable>(_ operation: (@escaping Reply<Value>) throws -> Void) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Value, Error>?>(nil)
        try operation { answer in
            result.withLock { $0 = answer }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    public func lookup(parent: UInt64, name: String) throws -> Attributes {
        try Self.wait { lookup(parent: parent, name: Name(name), reply: $0) }.attributes
    }

    public func attributes(of inode: UInt64) throws -> Attributes {
        try Self.wait { attributes(of: inode, reply: $0) }
    }

    /// The listing `opendir` gives: kept or made at once, else made.
    public func keptListing(_ inode: UInt64) throws -> KeptListing {
        if let listing = listingAtOnce(inode) { return try listing.get() }
        return try Self.wait { listing(of: inode, reply: $0) }
    }

    /// The entries of the listing `opendir` gives.
    public func list(_ inode: UInt64) throws -> [DirectoryEntry] {
        try keptListing(inode).entries
    }

    public func open(_ inode: UInt64) throws -> any FileContent {
        try Self.wait { open(inode, reply: $0) }.content
    }

    public func extendedAttributeNames(of inode: UInt64) throws -> [String] {
        try Self.wait { extendedAttributeNames(of: inode, reply: $0) }
    }

    public func extendedAttribute(_ name: String, of inode: UInt64) throws -> [UInt8] {
        try Self.wait { extendedAttribute(name, of: inode, reply: $0) }
    }
}
