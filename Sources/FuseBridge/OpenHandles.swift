import CFuse
import MediaTree

/// A folder listing taken at `opendir`: `readdir` serves it by offset, so a listing read in several
/// calls is consistent even while the source changes.
final class DirectoryHandle: Sendable {
    /// ".", ".." and the folder's entries, in the order served.
    let entries: [(name: String, inode: UInt64, isDirectory: Bool)]

    init(inode: UInt64, parent: UInt64, listing: [DirectoryEntry]) {
        entries = [(".", inode, true), ("..", parent, true)]
            + listing.map { ($0.name, $0.inode, $0.type == .directory) }
    }
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
