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

    func open(_ inode: UInt64, info: FileInfo, request: Request) {
        guard cfuse_fi_flags(info.pointer) & O_ACCMODE == O_RDONLY else { return request.fail(errno: EROFS) }
        do {
            let handle = FileHandle(content: try tree.open(inode))
            cfuse_fi_set_keep_cache(info.pointer, handle.content.keepsKernelCache ? 1 : 0)
            HandleSlot.store(handle, in: info.pointer)
            request.reply(open: info.pointer)
        } catch {
            request.fail(error, "open of inode \(inode)")
        }
    }

    /// Reads on the calling libfuse thread: a source file's bytes spliced from its descriptor to the
    /// kernel (no copy through our memory), or a copy from memory.
    func read(size: Int, offset: off_t, handle: FileHandle?, request: Request) {
        guard let handle else { return request.fail(errno: EBADF) }
        if let descriptor = handle.content.spliceDescriptor {
            return request.reply(descriptor: descriptor, size: size, offset: offset)
        }
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
