import CFuse
import MediaTree
import Synchronization

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

    /// Entries served before the listing: "." and "..". (Constants, not stored statics: a static
    /// `let` is initialized through a once-check at every use, and readdir uses these per entry.)
    static var dots: Int { 2 }
    static func withDotName<Result>(_ index: Int, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (index == 0 ? "." : "..").withCString(body)
    }
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
///
/// The number is a slot's index with the generation the slot had when the object went in (a slot
/// used again has a new generation, so an old number finds nothing), so a lookup is an array index,
/// not a hash. One table per file system, under a `Mutex`: every readdir looks its folder up here.
final class OpenHandles: Sendable {
    private struct Slot {
        var object: (any AnyObject & Sendable)?
        var generation: UInt32
    }

    private let slots = Mutex(SlotArray<Slot>())

    /// Keeps `object` until `release` and puts its number in `info.fh`.
    func store(_ object: any AnyObject & Sendable, in info: UnsafeMutablePointer<fuse_file_info>) {
        info.pointee.fh = slots.withLock { slots in
            let index = slots.fill { before in Slot(object: object, generation: before?.generation ?? 1) }
            return UInt64(slots[index].generation) << 32 | UInt64(index)
        }
    }

    /// The object whose number is in `info.fh`, if it is still open and of type `T`.
    func borrow<T: AnyObject & Sendable>(_ type: T.Type, from info: UnsafeMutablePointer<fuse_file_info>?) -> T? {
        guard let number = info?.pointee.fh, number != 0 else { return nil }
        let (index, generation) = (Int(number & 0xFFFF_FFFF), UInt32(number >> 32))
        let object = slots.withLock { slots -> (any AnyObject & Sendable)? in
            index < slots.count && slots[index].generation == generation ? slots[index].object : nil
        }
        return object as? T
    }

    /// Drops the object whose number is in `info.fh`.
    func release(from info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let number = info?.pointee.fh, number != 0 else { return }
        let (index, generation) = (Int(number & 0xFFFF_FFFF), UInt32(number >> 32))
        let object = slots.withLock { slots -> (any AnyObject & Sendable)? in
            guard index < slots.count && slots[index].generation == generation else { return nil }
            let object = slots[index].object
            // Never 0, so that no number is 0 (FUSE's "no handle").
            slots[index] = Slot(object: nil, generation: generation == .max ? 1 : generation + 1)
            slots.empty(index)
            return object
        }
        _ = object  // the last reference goes here, outside the lock
    }
}
