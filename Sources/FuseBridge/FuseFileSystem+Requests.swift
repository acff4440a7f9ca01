import CFuse
import Glibc
import MediaTree

/// What each request does. Each method answers its request exactly once.
extension FuseFileSystem {
    func lookup(parent: UInt64, name: String, request: Request) {
        do {
            request.reply(entry: try tree.lookup(parent: parent, name: name))
        } catch {
            request.fail(error, "lookup of \(name) in inode \(parent)")
        }
    }

    func getattr(_ inode: UInt64, request: Request) {
        do {
            request.reply(attributes: try tree.attributes(of: inode))
        } catch {
            request.fail(error, "getattr of inode \(inode)")
        }
    }

    func opendir(_ inode: UInt64, info: FileInfo, request: Request) {
        do {
            let listing = try tree.list(inode)
            // ".." of the root points at the root; elsewhere the kernel fills in the real parent.
            let handle = DirectoryHandle(inode: inode, parent: inode, listing: listing)
            HandleSlot.store(handle, in: info.pointer)
            request.reply(open: info.pointer)
        } catch {
            request.fail(error, "listing of inode \(inode)")
        }
    }

    /// Serves entries of the listing taken at `opendir`, from index `offset`, as many as fit in `size`.
    func readdir(size: Int, offset: off_t, handle: DirectoryHandle?, request: Request) {
        guard let handle else { return request.fail(errno: EBADF) }
        var buffer = [CChar](repeating: 0, count: size)
        var used = 0
        var index = Int(offset)
        while index < handle.entries.count {
            let entry = handle.entries[index]
            var st = Glibc.stat()
            st.st_ino = ino_t(entry.inode)
            st.st_mode = entry.isDirectory ? S_IFDIR : S_IFREG
            let needed = buffer.withUnsafeMutableBufferPointer { buf in
                fuse_add_direntry(request.raw, buf.baseAddress! + used, size - used, entry.name, &st, off_t(index + 1))
            }
            if used + needed > size { break }
            used += needed
            index += 1
        }
        buffer.withUnsafeBytes { request.reply(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<used])) }
    }

    func open(_ inode: UInt64, info: FileInfo, request: Request) {
        guard cfuse_fi_flags(info.pointer) & O_ACCMODE == O_RDONLY else { return request.fail(errno: EROFS) }
        do {
            let handle = FileHandle(content: try tree.open(inode))
            HandleSlot.store(handle, in: info.pointer)
            request.reply(open: info.pointer)
        } catch {
            request.fail(error, "open of inode \(inode)")
        }
    }

    /// Reads on the calling libfuse thread: a `pread` of a source file or a copy from memory.
    func read(size: Int, offset: off_t, handle: FileHandle?, request: Request) {
        guard let handle else { return request.fail(errno: EBADF) }
        do {
            let bytes = try handle.content.read(offset: Int64(offset), count: size)
            bytes.withUnsafeBytes { request.reply(bytes: $0) }
        } catch {
            request.fail(error, "read")
        }
    }

    /// The source folder's file system figures, marked read-only.
    func statfs(request: Request) {
        var value = statvfs()
        guard statvfs(tree.sourceRoot, &value) == 0 else { return request.fail(errno: errno) }
        value.f_flag |= UInt(ST_RDONLY)
        value.f_namemax = 255
        request.reply(statfs: value)
    }
}
