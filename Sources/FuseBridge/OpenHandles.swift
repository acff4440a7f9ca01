import Foundation
import CFuse
import MediaTree

/// A folder listing taken at `opendir`: `readdir` and `readdirplus` serve it by offset, so a
/// listing read in several calls is consistent even while the source changes.
final class DirectoryHandle: Sendable {
    /// The folder's listing, its entries served after "." and ".." (offsets 0 and 1).
    let listing: KeptListing
    let inode: UInt64

    init(inode: UInt64, listing: KeptListing) {
        self.inode = inode
        self.listing = listing
    }

    /// Entries served before the listing: "." and "..".
    static let dotNames: [Name] = [".", ".."]
    static let dots = dotNames.count
    var count: Int { listing.count + Self.dots }
}

/// An open file: what `read` serves until `release`.
final class FileHandle: Sendable {
    let content: any FileContent
    /// This open's share of the content's backing id, when its reads are passed through.
    let passedThrough: PassedThroughFile?

    init(content: any FileContent, passedThrough: PassedThroughFile? = nil) {
        self.content = content
        self.passedThrough = passedThrough
    }
}

/// One open of a file passed through (FUSE passthrough): ends that open of its backing id when
/// the handle is released.
final class PassedThroughFile: Sendable {
    let inode: UInt64
    let backing: Int32
    private let passthrough: Passthrough

    init(inode: UInt64, backing: Int32, passthrough: Passthrough) {
        self.inode = inode
        self.backing = backing
        self.passthrough = passthrough
    }

    deinit { passthrough.release(inode: inode, backing: backing) }
}

/// Open files and folders by the number the kernel holds as their file handle (`fh`).
///
/// A number, not a pointer: a request on a handle may still be running when its release arrives on
/// another thread (a reader killed during `readdir` releases its folder while the daemon is still
/// answering), so a handle is looked up under a lock and one already released is simply not found
/// (EBADF) instead of being freed memory.
enum HandleSlot {
    /// The open objects; each is used by one request at a time, the table only keeps them alive.
    private final class Table: @unchecked Sendable {
        let lock = NSLock()
        var next: UInt64 = 1
        var open: [UInt64: AnyObject] = [:]
    }

    private static let table = Table()

    /// Keeps `object` until `release` and puts its number in `info.fh`.
    static func store(_ object: AnyObject, in info: UnsafeMutablePointer<fuse_file_info>) {
        table.lock.lock()
        let number = table.next
        table.next += 1
        table.open[number] = object
        table.lock.unlock()
        info.pointee.fh = number
    }

    /// The object whose number is in `info.fh`, if it is still open and of type `T`.
    static func borrow<T: AnyObject>(_ type: T.Type, from info: UnsafeMutablePointer<fuse_file_info>?) -> T? {
        guard let number = info?.pointee.fh, number != 0 else { return nil }
        table.lock.lock()
        defer { table.lock.unlock() }
        return table.open[number] as? T
    }

    /// Drops the object whose number is in `info.fh`.
    static func release(from info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let number = info?.pointee.fh, number != 0 else { return }
        table.lock.lock()
        let object = table.open.removeValue(forKey: number)
        table.lock.unlock()
        _ = object  // the last reference goes here, outside the lock
    }
}
