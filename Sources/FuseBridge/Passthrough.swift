import CFuse
import Foundation
import Glibc
import Logging
import Synchronization

/// FUSE passthrough for originals (Linux 6.9 and later): an original's descriptor is registered
/// with the kernel at `open`, and the kernel then reads, maps and splices the source file itself;
/// no read of an original reaches the daemon, cold or warm.
///
/// libfuse 3.14 cannot ask for it, so this stands between libfuse and /dev/fuse (libfuse's custom
/// I/O): it notes which requests are INIT and OPEN as they are read, and on the way back adds the
/// passthrough flag to the INIT reply and the backing id to OPEN replies of registered handles.
/// Registering a descriptor needs CAP_SYS_ADMIN; when the kernel does not offer passthrough or
/// refuses a registration for the whole connection (EPERM), every open is answered as before
/// (reads spliced by the daemon) for the rest of the mount. A file the kernel refuses on its own
/// (ELOOP: on a stacked file system) is read through the daemon, and others still passed through.
/// The kernel requires that all opens of one file agree: the answer for a file does not change
/// while the mount lasts.
final class Passthrough: Sendable {
    private enum Mode {
        /// Not asked for: INIT not seen yet, the kernel does not offer it, or turned off.
        case off
        /// Asked for in the INIT reply; no descriptor registered yet.
        case offered
        /// The kernel took a descriptor: originals are passed through.
        case working
        /// The kernel refused the first descriptor.
        case refused
    }

    /// What the reading, replying and opening threads share, under one lock.
    private struct State {
        var mode = Mode.off
        var initUnique: UInt64?
        /// OPEN requests read and not yet answered, by unique.
        var pendingOpens: Set<UInt64> = []
        /// Backing ids of handles whose OPEN reply is still to be written, by file handle.
        var replies: [UInt64: Int32] = [:]
        /// The backing id of each file open with passthrough, by inode, and how many opens use it.
        var shared: [UInt64: Shared] = [:]
        /// Devices whose files the kernel would not pass through (logged once each).
        var refusedDevices: Set<dev_t> = []
        /// /dev/fuse of the session, set once mounted.
        var device: Int32 = -1

        var takesDescriptors: Bool { mode == .offered || mode == .working }
        /// Replies `send` must look at: the INIT reply, and OPEN replies of registered handles.
        var watchedReplies: Int { (initUnique == nil ? 0 : 1) + pendingOpens.count }
    }

    private struct Shared {
        let backing: Int32
        var users: Int
    }

    private let state = Mutex(State())
    /// `State.watchedReplies`, stored under the lock at every change: while it is 0 (every reply but
    /// an INIT's or a registered OPEN's), `send` writes without taking the lock.
    private let watched = Atomic<Int>(0)
    private let wanted: Bool
    private let logger: Logger

    init(wanted: Bool, logger: Logger) {
        self.wanted = wanted
        self.logger = logger
    }

    /// Whether originals are being passed through.
    var isWorking: Bool { state.withLock { $0.mode == .working } }

    /// Takes `session`'s traffic through `received` and `send`.
    /// - Returns: false when libfuse refuses custom I/O (the session then runs as it was).
    func install(on session: OpaquePointer) -> Bool {
        guard wanted else { return true }
        let fd = fuse_session_fd(session)
        state.withLock { $0.device = fd }
        var io = fuse_custom_io()
        io.read = { fd, buffer, length, userdata in
            let count = Glibc.read(fd, buffer, length)
            if count > 0, let buffer { FuseFileSystem.from(userdata: userdata).passthrough.received(buffer, count: count) }
            return count
        }
        io.writev = { fd, iov, count, userdata in
            FuseFileSystem.from(userdata: userdata).passthrough.send(fd: fd, iov: iov!, count: count)
        }
        io.splice_send = { fdIn, offsetIn, fdOut, offsetOut, length, flags, _ in
            cfuse_splice(fdIn, offsetIn, fdOut, offsetOut, length, flags)
        }
        return fuse_session_custom_io(session, &io, fd) == 0
    }

    /// Notes a request read from /dev/fuse.
    private func received(_ buffer: UnsafeMutableRawPointer, count: Int) {
        var unique: UInt64 = 0
        switch cfuse_request_opcode(buffer, count, &unique) {
        case UInt32(CFUSE_OPCODE_INIT):
            let offered = cfuse_init_offers_passthrough(buffer, count) != 0
            state.withLock { state in
                state.initUnique = offered ? unique : nil
                watched.store(state.watchedReplies, ordering: .releasing)
            }
            if !offered { logger.info("the kernel offers no FUSE passthrough: originals are read through the daemon") }
        case UInt32(CFUSE_OPCODE_OPEN):
            state.withLock { state in
                guard state.takesDescriptors else { return }
                state.pendingOpens.insert(unique)
                watched.store(state.watchedReplies, ordering: .releasing)
            }
        default:
            break
        }
    }

    /// Writes a reply to /dev/fuse, with passthrough added where it belongs.
    private func send(fd: Int32, iov: UnsafeMutablePointer<iovec>, count: Int32) -> Int {
        // Set (under the lock) before the request was handed on, so a watched reply sees it.
        if watched.load(ordering: .acquiring) == 0 { return writev(fd, iov, count) }
        var error: Int32 = 0
        let unique = cfuse_reply_unique(iov, count, &error)
        enum Patch { case none, initReply, open(Int32) }
        let patch: Patch = state.withLock { state in
            defer { watched.store(state.watchedReplies, ordering: .releasing) }
            if unique != 0, unique == state.initUnique {
                state.initUnique = nil
                if error == 0 { state.mode = .offered }
                return error == 0 ? .initReply : .none
            }
            guard state.pendingOpens.remove(unique) != nil, error == 0,
                  let backing = state.replies.removeValue(forKey: cfuse_open_reply_fh(iov, count)) else { return .none }
            return .open(backing)
        }
        switch patch {
        case .none: return writev(fd, iov, count)
        case .initReply: return cfuse_writev_init_with_passthrough(fd, iov, count)
        case .open(let backing):
            logger.trace("OPEN reply \(unique) passed through to backing id \(backing)")
            return cfuse_writev_open_with_backing(fd, iov, count, backing)
        }
    }

    /// The backing id for an open of the file `inode` whose content is `descriptor`; nil when
    /// originals are not passed through (its reads are then spliced by the daemon as before).
    ///
    /// Opens of one inode at the same time share one id: the kernel refuses (EIO) a second open of
    /// an inode with another backing file. A source file replaced by another gets a new inode (the
    /// stamp of its `NodeKey` is the file's identity), so an inode is one file; should an open of
    /// an old inode come meanwhile (the kernel not yet told of the change), it reads the old
    /// version, as the handles already open on that inode do.
    func register(_ descriptor: Int32, inode: UInt64) -> Int32? {
        var source = stat()
        guard fstat(descriptor, &source) == 0 else { return nil }
        let device = source.st_dev
        return state.withLock { state -> Int32? in
            guard state.takesDescriptors else { return nil }
            if var entry = state.shared[inode] {
                entry.users += 1
                state.shared[inode] = entry
                return entry.backing
            }
            let backing = cfuse_backing_open(state.device, descriptor)
            if backing > 0 {
                if state.mode == .offered { logger.info("originals are read by the kernel directly (FUSE passthrough)") }
                state.mode = .working
                state.shared[inode] = Shared(backing: backing, users: 1)
                return backing
            }
            let code = errno
            let reason = String(cString: strerror(code))
            if code == EPERM || code == ENOTTY || code == EOPNOTSUPP {
                // The connection's answer (no passthrough, or no CAP_SYS_ADMIN), not this file's:
                // decided under the lock, so no other open is passed through meanwhile.
                state.mode = .refused
                state.pendingOpens.removeAll()
                watched.store(state.watchedReplies, ordering: .releasing)
                logger.info("FUSE passthrough refused (\(reason)): originals are read through the daemon")
            } else if state.refusedDevices.insert(device).inserted {
                // This file's (ELOOP: a stacked file system such as overlayfs): its reads, and those
                // of others like it, go through the daemon; the rest are still passed through.
                logger.notice("FUSE passthrough refused a file on device \(device) (\(reason)); its reads go through the daemon")
            }
            return nil
        }
    }

    /// Marks the OPEN reply for `handle` to carry `backing`.
    func expectReply(handle: UInt64, backing: Int32) {
        state.withLock { $0.replies[handle] = backing }
    }

    /// Ends one open of `inode`; its backing id is dropped with the last (the kernel keeps its own
    /// reference for files it opened with it).
    func release(inode: UInt64, backing: Int32) {
        state.withLock { state in
            guard var entry = state.shared[inode], entry.backing == backing else { return }
            entry.users -= 1
            if entry.users > 0 {
                state.shared[inode] = entry
            } else {
                state.shared[inode] = nil
                _ = cfuse_backing_close(state.device, backing)
            }
        }
    }
}
