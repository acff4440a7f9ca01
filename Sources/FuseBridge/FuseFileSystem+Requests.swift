import CFuse
import Glibc
import MediaTree

/// What each request does. Each method answers its request exactly once.
extension FuseFileSystem {
    /// A track file's size needs its pass: the tree answers it through the completion, from the
    /// tracks pool once the pass is done, so no thread of ours waits for it.
    func lookup(parent: UInt64, name: Name, request: Request) {
        numbered.lookup(parent: parent, name: name) { result in
            switch result {
            case .success(let (attributes, generation)): request.reply(entry: attributes, generation: generation)
            case .failure(let error): request.fail(error, "lookup of \(name) in inode \(parent)")
            }
        }
    }

    func getattr(_ inode: UInt64, request: Request) {
        numbered.attributes(of: inode) { result in
            switch result {
            case .success(let attributes): request.reply(attributes: attributes)
            case .failure(let error): request.fail(error, "getattr of inode \(inode)")
            }
        }
    }

    func open(_ inode: UInt64, info: FileInfo, request: Request) {
        guard cfuse_fi_flags(info.pointer) & O_ACCMODE == O_RDONLY else { return request.fail(errno: EROFS) }
        // An image is made before the open is answered (its reads then come from memory); the
        // answer comes from the generation pool, so no thread of ours waits for it.
        numbered.open(inode) { [passthrough, handles] result in
            switch result {
            case .success(let (content, keepsCache)):
                let passedThrough = content.spliceDescriptor.flatMap { passthrough.register($0, inode: inode) }.map {
                    PassedThroughFile(inode: inode, backing: $0, passthrough: passthrough)
                }
                // A passed-through file has no page cache of its own to keep.
                cfuse_fi_set_keep_cache(info.pointer, keepsCache && passedThrough == nil ? 1 : 0)
                handles.store(FileHandle(content: content, passedThrough: passedThrough), in: info.pointer)
                if let passedThrough { passthrough.expectReply(handle: info.pointer.pointee.fh, backing: passedThrough.backing) }
                request.reply(open: info.pointer)
            case .failure(let error):
                request.fail(error, "open of inode \(inode)")
            }
        }
    }

    /// One extended attribute; with `size` 0, only its length (the caller's probe for a buffer).
    func getxattr(_ inode: UInt64, name: String, size: Int, request: Request) {
        numbered.extendedAttribute(name, of: inode) { result in
            switch result {
            case .success(let value) where size == 0:
                request.reply(xattrSize: value.count)
            case .success(let value) where value.count > size:
                request.fail(TreeError.tooLarge, "getxattr")
            case .success(let value):
                value.withUnsafeBytes { request.reply(bytes: $0) }
            case .failure(let error):
                request.fail(error, "getxattr \(name) of inode \(inode)")
            }
        }
    }

    /// The attribute names, each followed by a NUL; with `size` 0, only the list's length.
    func listxattr(_ inode: UInt64, size: Int, request: Request) {
        numbered.extendedAttributeNames(of: inode) { result in
            switch result {
            case .success(let names):
                let list = names.reduce(into: [UInt8]()) { $0 += Array($1.utf8) + [0] }
                if size == 0 { return request.reply(xattrSize: list.count) }
                guard list.count <= size else { return request.fail(TreeError.tooLarge, "listxattr") }
                list.withUnsafeBytes { request.reply(bytes: $0) }
            case .failure(let error):
                request.fail(error, "listxattr of inode \(inode)")
            }
        }
    }

    /// Reads on the calling libfuse thread: a source file's bytes spliced from its descriptor to the
    /// kernel (no copy through our memory), or a copy from memory; content made as it is read (a
    /// BIF) answers from the pool that makes it.
    func read(size: Int, offset: off_t, handle: FileHandle?, request: Request) {
        guard let handle else { return request.fail(errno: EBADF) }
        if let descriptor = handle.content.spliceDescriptor {
            return request.reply(descriptor: descriptor, size: size, offset: offset)
        }
        let activity = tree.activity
        activity.begin()
        handle.content.read(offset: Int64(offset), count: size) { result in
            activity.end()
            switch result {
            case .success(let bytes): bytes.withUnsafeBytes { request.reply(bytes: $0) }
            case .failure(let error): request.fail(error, "read")
            }
        }
    }

    /// The source folder's file system figures, marked read-only.
    func statfs(request: Request) {
        var value = statvfs()
        guard statvfs(tree.sourceRoot, &value) == 0 else { return request.fail(errno: errno) }
        value.f_flag |= UInt(ST_RDONLY)
        value.f_namemax = UInt(Name.maximumBytes)
        request.reply(statfs: value)
    }
}
