import CFuse
import Glibc
import MediaTree

/// The libfuse low-level operations table: capture-free C callbacks that wrap each request in a
/// `Request` and call the matching `FuseFileSystem` method.
enum Operations {
    static func table() -> fuse_lowlevel_ops {
        var ops = fuse_lowlevel_ops()
        ops.`init` = { _, conn in
            guard let conn else { return }
            // Large reads in one request; the kernel reads ahead generously on sequential reads.
            conn.pointee.max_readahead = 1 << 20
            // Reads of source files are spliced from the file to /dev/fuse where the kernel can.
            let splice = UInt32(FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE)
            conn.pointee.want |= conn.pointee.capable & splice
            // Every readdir carries attributes, not only a folder's first buffer: `ls -l` of a
            // folder longer than one buffer then needs no lookup per name of the later ones.
            conn.pointee.want &= ~UInt32(FUSE_CAP_READDIRPLUS_AUTO)
        }
        ops.lookup = { req, parent, name in
            let request = Request(req!)
            // A name is bytes: it need not be UTF-8.
            let name = Name(bytes: Array(UnsafeRawBufferPointer(start: name!, count: strlen(name!))))
            // The kernel passes a FUSE file system names longer than a name may be (as `statfs`
            // says): answered as a disk's file system answers them; the tree makes none.
            guard name.bytes.count <= Name.maximumBytes else { return request.fail(errno: ENAMETOOLONG) }
            request.fileSystem.async(request) { $0.fileSystem.lookup(parent: UInt64(parent), name: name, request: $0) }
        }
        ops.forget = { req, ino, nlookup in
            let request = Request(req!)
            request.fileSystem.numbered.forget(UInt64(ino), count: nlookup)
            request.none()
        }
        ops.forget_multi = { req, count, forgets in
            let request = Request(req!)
            for i in 0..<count {
                let forget = forgets![i]
                request.fileSystem.numbered.forget(UInt64(forget.ino), count: forget.nlookup)
            }
            request.none()
        }
        ops.getattr = { req, ino, _ in
            let request = Request(req!)
            request.fileSystem.async(request) { $0.fileSystem.getattr(UInt64(ino), request: $0) }
        }
        ops.opendir = { req, ino, fi in
            let request = Request(req!)
            let info = FileInfo(copying: fi!)
            request.fileSystem.opendir(UInt64(ino), info: info, request: request)
        }
        ops.readdir = { req, _, size, off, fi in
            let request = Request(req!)
            let handle = request.fileSystem.handles.borrow(DirectoryHandle.self, from: fi)
            request.fileSystem.readdir(size: size, offset: off, plus: false, handle: handle, request: request)
        }
        ops.readdirplus = { req, _, size, off, fi in
            let request = Request(req!)
            let handle = request.fileSystem.handles.borrow(DirectoryHandle.self, from: fi)
            request.fileSystem.readdir(size: size, offset: off, plus: true, handle: handle, request: request)
        }
        ops.releasedir = { req, _, fi in
            let request = Request(req!)
            request.fileSystem.handles.release(from: fi)
            request.replyOK()
        }
        ops.open = { req, ino, fi in
            let request = Request(req!)
            let info = FileInfo(copying: fi!)
            request.fileSystem.async(request) { $0.fileSystem.open(UInt64(ino), info: info, request: $0) }
        }
        ops.read = { req, _, size, off, fi in
            let request = Request(req!)
            request.fileSystem.read(size: size, offset: off, handle: request.fileSystem.handles.borrow(FileHandle.self, from: fi), request: request)
        }
        ops.release = { req, _, fi in
            let request = Request(req!)
            request.fileSystem.handles.release(from: fi)
            request.replyOK()
        }
        ops.flush = { req, _, _ in Request(req!).replyOK() }
        ops.statfs = { req, _ in
            let request = Request(req!)
            request.fileSystem.statfs(request: request)
        }
        ops.getxattr = { req, ino, name, size in
            let request = Request(req!)
            let name = String(cString: name!)
            // `ls -l` asks every file for security.selinux and its ACL: names mediafs never has
            // are answered here, without the hop to a worker thread.
            if let error = MediaTree.attributeErrorForAnyNode(named: name) { return request.fail(error, "getxattr") }
            request.fileSystem.async(request) { $0.fileSystem.getxattr(UInt64(ino), name: name, size: size, request: $0) }
        }
        ops.listxattr = { req, ino, size in
            let request = Request(req!)
            request.fileSystem.async(request) { $0.fileSystem.listxattr(UInt64(ino), size: size, request: $0) }
        }
        ReadOnlyOperations.install(in: &ops)
        return ops
    }
}

/// A request's `fuse_file_info`, copied. libfuse passes `open` and `opendir` a pointer to a
/// variable on its own stack, gone as soon as the callback returns; requests answered later, from
/// another thread, fill in and reply with this copy instead. The one owner of its memory.
/// `@unchecked`: a C struct behind a pointer, filled and read by the one request holding it.
final class FileInfo: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<fuse_file_info>

    init(copying info: UnsafeMutablePointer<fuse_file_info>) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: info.pointee)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
