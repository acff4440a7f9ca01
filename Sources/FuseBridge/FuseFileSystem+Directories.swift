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
            HandleSlot.store(DirectoryHandle(inode: inode, listing: listing), in: info.pointer)
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
        // Not zeroed: only the `used` bytes written are sent. Names go to libfuse where the kept
        // listing stores them, NUL-terminated: nothing is copied or counted per entry.
        let kept = handle.listing
        replyBuffers.withBuffer(size: size) { buffer in
            var used = 0
            var index = Int(offset)
            while index < handle.count {
                var entry = fuse_entry_param()
                let next = off_t(index + 1)
                let start = (buffer.baseAddress! + used).assumingMemoryBound(to: CChar.self)
                /// Writes `name` with `entry` at `start` if it fits; the bytes it takes either way.
                func add(_ name: UnsafePointer<CChar>) -> Int {
                    plus ? fuse_add_direntry_plus(request.raw, start, size - used, name, &entry, next)
                        : fuse_add_direntry(request.raw, start, size - used, name, &entry.attr, next)
                }
                let needed: Int
                if index < DirectoryHandle.dots {
                    entry.attr.st_ino = ino_t(handle.inode)
                    entry.attr.st_mode = S_IFDIR
                    needed = DirectoryHandle.dotNames[index].withCString(add)
                } else {
                    let position = index - DirectoryHandle.dots
                    entry.attr = kept.attributes(at: position, number: kept.wantedNumber(at: position)).stat
                    // An entry known by name and type only goes without attributes (node id 0): the
                    // kernel then lists it and caches nothing, and looks it up when someone stats it.
                    let counted = plus && !kept.isNameAndTypeOnly(at: position)
                    if counted {
                        entry.generation = 1
                        entry.attr_timeout = timeouts.attributes
                        entry.entry_timeout = timeouts.entry
                    }
                    needed = kept.withCName(at: position) { name in
                        // The size of a readdirplus entry depends on its name alone: numbered (and
                        // counted) only once it is known to fit.
                        let fits = (plus ? fuse_add_direntry_plus(request.raw, nil, 0, name, nil, 0)
                            : fuse_add_direntry(request.raw, nil, 0, name, nil, 0)) <= size - used
                        if fits && counted {
                            let number = numbered.enter(kept, index: position)
                            entry.ino = fuse_ino_t(number)
                            entry.attr.st_ino = ino_t(number)
                        }
                        return add(name)
                    }
                }
                if used + needed > size { break }
                used += needed
                index += 1
            }
            request.reply(bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
        }
    }
}
