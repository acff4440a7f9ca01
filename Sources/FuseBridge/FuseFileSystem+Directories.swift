import CFuse
import Glibc
import MediaTree

/// Folders: the listing is taken once at `opendir` and served by offset.
extension FuseFileSystem {
    /// A folder the tree lists from memory is answered here, on libfuse's thread; any other
    /// waits its turn on a worker, as it may read the disk or probe.
    func opendir(_ inode: UInt64, info: FileInfo, request: Request) {
        if let listing = numbered.listingAtOnce(inode) { return opened(inode, listing, info: info, request: request) }
        async(request) { [self] request in
            numbered.listing(of: inode) { [self] in opened(inode, $0, info: info, request: request) }
        }
    }

    private func opened(_ inode: UInt64, _ listing: Result<KeptListing, Error>, info: FileInfo, request: Request) {
        switch listing {
        case .success(let listing):
            handles.store(DirectoryHandle(inode: inode, listing: listing), in: info.pointer)
            request.reply(open: info.pointer)
        case .failure(let error):
            request.fail(error, "listing of inode \(inode)")
        }
    }

    /// Serves entries from index `offset`, as many as fit in `size` bytes. With `plus` (readdirplus)
    /// each entry carries its attributes, and so counts as a lookup, as `lookup` replies do (the node
    /// table numbers it, `NumberedTree.enter`); "." and "..", and entries the tree knows by name and
    /// type only (track files, whose size needs a pass), carry none (node id 0: fs/fuse/readdir.c
    /// `fuse_direntplus_link` then only lists the name), so the kernel does not count them.
    func readdir(size: Int, offset: off_t, plus: Bool, handle: DirectoryHandle?, request: Request) {
        guard let handle else { return request.fail(errno: EBADF) }
        let kept = handle.listing
        let dots = DirectoryHandle.dots
        let first = Int(offset)
        // The size of an entry depends on its name alone: the entries that fit are known before any
        // is numbered (and counted), and are numbered together.
        var end = max(first, 0)
        var fitting = 0
        while end < handle.count {
            let needed = withName(at: end, of: handle) { name in
                plus ? fuse_add_direntry_plus(request.raw, nil, 0, name, nil, 0)
                    : fuse_add_direntry(request.raw, nil, 0, name, nil, 0)
            }
            if fitting + needed > size { break }
            fitting += needed
            end += 1
        }
        let positions = (max(first, dots) - dots)..<(max(end, dots) - dots)
        // Not zeroed: only the `used` bytes written are sent. Names go to libfuse where the kept
        // listing stores them, NUL-terminated: nothing is copied per entry.
        replyBuffers.withBuffer(size: size) { buffer in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(positions.count, 1)) { numbers in
                if plus && !positions.isEmpty { numbered.enter(kept, positions: positions, into: numbers) }
                var used = 0
                for index in max(first, 0)..<end {
                    var entry = fuse_entry_param()
                    if index < dots {
                        entry.attr.st_ino = ino_t(handle.inode)
                        entry.attr.st_mode = S_IFDIR
                    } else {
                        let position = index - dots
                        // 0: an entry known by name and type only goes without attributes (node id
                        // 0): the kernel then lists it and caches nothing, and looks it up when
                        // someone stats it.
                        let number = plus ? numbers[position - positions.lowerBound] : 0
                        entry.attr = kept.attributes(at: position, number: number != 0 ? number : kept.wantedNumber(at: position)).stat
                        if number != 0 {
                            entry.ino = fuse_ino_t(number)
                            entry.generation = InodeGeneration.of(number: number, keyHash: kept.keyHash(at: position))
                            entry.attr_timeout = timeouts.attributes
                            entry.entry_timeout = timeouts.entry
                        }
                    }
                    let start = (buffer.baseAddress! + used).assumingMemoryBound(to: CChar.self)
                    used += withName(at: index, of: handle) { name in
                        plus ? fuse_add_direntry_plus(request.raw, start, size - used, name, &entry, off_t(index + 1))
                            : fuse_add_direntry(request.raw, start, size - used, name, &entry.attr, off_t(index + 1))
                    }
                }
                request.reply(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
            }
        }
    }

    /// Calls `body` with the NUL-terminated name of the entry at `index` of an open folder.
    private func withName<Result>(at index: Int, of handle: DirectoryHandle, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        index < DirectoryHandle.dots ? DirectoryHandle.withDotName(index, body)
            : handle.listing.withCName(at: index - DirectoryHandle.dots, body)
    }
}
