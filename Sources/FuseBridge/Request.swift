import CFuse
import Glibc
import Logging
import MediaTree

/// One kernel request, answered exactly once.
///
/// A request may travel to another thread and be answered there. One dropped unanswered is
/// answered with EIO in `deinit` (and logged), so no caller ever hangs on a forgotten request; one
/// answered twice sends the first answer only, and logs the second (`RequestAnswer`), so no bug
/// in one request ends the daemon.
/// `@unchecked`: the raw request is libfuse's, used by the one answer sent.
final class Request: @unchecked Sendable {
    let raw: fuse_req_t
    let fileSystem: FuseFileSystem
    private let answered = RequestAnswer()

    init(_ raw: fuse_req_t) {
        self.raw = raw
        self.fileSystem = FuseFileSystem.from(raw)
        fileSystem.requestStarted()
    }

    deinit {
        if !answered.isAnswered {
            fileSystem.logger.error("request dropped unanswered; answered EIO")
            fuse_reply_err(raw, EIO)
        }
        fileSystem.requestFinished()
    }

    private func answer(_ kind: RequestAnswer.Kind, _ send: () -> Int32) {
        if case .dropped(let report) = answered.take(kind) {
            if let report { fileSystem.logger.error("\(report)") }
            return
        }
        let result = send()
        if result != 0 && result != -ENOENT && result != -ENODEV {
            fileSystem.logger.debug("reply not delivered: \(String(cString: strerror(-result)))")
        }
    }

    /// Answers with the errno for `error`; what could not be read or made is logged with what
    /// caused it (`ErrnoMapping.isLogged`).
    func fail(_ error: any Error, _ what: @autoclosure () -> String) {
        if ErrnoMapping.isLogged(error) { fileSystem.logger.error("\(what()): \(error)") }
        fail(errno: ErrnoMapping.code(for: error))
    }

    func fail(errno code: Int32) { answer(.error(code)) { fuse_reply_err(raw, code) } }

    func replyOK() { answer(.error(0)) { fuse_reply_err(raw, 0) } }

    /// Answers a lookup with `attributes`, whose number the node table counted a lookup of before
    /// (the kernel may send forget as soon as it has the entry), and its `generation`.
    func reply(entry attributes: Attributes, generation: UInt64) {
        var entry = fuse_entry_param()
        entry.ino = fuse_ino_t(attributes.inode)
        entry.generation = generation
        entry.attr = attributes.stat
        entry.attr_timeout = fileSystem.timeouts.attributes
        entry.entry_timeout = fileSystem.timeouts.entry
        answer(.entry(inode: attributes.inode)) { fuse_reply_entry(raw, &entry) }
    }

    func reply(attributes: Attributes) {
        var st = attributes.stat
        answer(.attributes) { fuse_reply_attr(raw, &st, fileSystem.timeouts.attributes) }
    }

    func reply(open info: UnsafeMutablePointer<fuse_file_info>) {
        answer(.open) { fuse_reply_open(raw, info) }
    }

    func reply(bytes: UnsafeRawBufferPointer) {
        answer(.bytes(count: bytes.count)) { fuse_reply_buf(raw, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) }
    }

    /// Answers a read with up to `size` bytes of `descriptor` from `offset` (fewer at its end);
    /// libfuse splices them when the kernel allows, and answers the errno itself if reading fails.
    func reply(descriptor: Int32, size: Int, offset: off_t) {
        answer(.descriptor) { cfuse_reply_fd(raw, descriptor, size, offset) }
    }

    func reply(statfs: statvfs) {
        var value = statfs
        answer(.statfs) { fuse_reply_statfs(raw, &value) }
    }

    func reply(xattrSize size: Int) { answer(.xattrSize(size)) { fuse_reply_xattr(raw, size) } }

    /// Answers a forget, which takes no reply but must be told it is done.
    func none() { answer(.none) { fuse_reply_none(raw); return 0 } }
}
