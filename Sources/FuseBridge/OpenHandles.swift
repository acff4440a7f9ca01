import CFuse
import MediaTree

/// A folder listing taken at `opendir`: `readdir` and `readdirplus` serve it by offset, so a
/// listing read in several calls is consistent even while the source changes.
final class DirectoryHandle: Sendable {
    /// The folder's entries, served after "." and ".." (offsets 0 and 1).
    let listing: [DirectoryEntry]
    let inode: UInt64

    init(inode: UInt64, listing: [DirectoryEntry]) {
        self.inode = inode
        self.listing = listing
    }

    /// Entries served before the listing: "." and "..".
    static let dots = 2
    var count: Int { listing.count + Self.dots }
}

/// An open file: what `read` serves until `release`.
final class FileHandle: Sendable {
    let content: any FileContent
    init(content: any FileContent) { self.content = content }
}

/// Stores an object in a file handle (`fuse_file_info.fh`) and takes it back.
/// The handle holds one strong reference from `store` until `release`.
enum HandleSlot {
    static func store(_ object: AnyObject, in info: UnsafeMutablePointer<fuse_file_info>) {
        info.pointee.fh = UInt64(UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()))
    }

    static func borrow<T: AnyObject>(_ type: T.Type, from info: UnsafeMutablePointer<fuse_file_info>?) -> T? {
        guard let fh = info?.pointee.fh, fh != 0, let pointer = UnsafeRawPointer(bitPattern: UInt(fh)) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
    }

    static func release(from info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let fh = info?.pointee.fh, fh != 0, let pointer = UnsafeRawPointer(bitPattern: UInt(fh)) else { return }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
        info?.pointee.fh = 0
    }
}
