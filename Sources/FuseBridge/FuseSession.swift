import CFuse
import Foundation
import Glibc
import Logging
import MountLifecycle

/// One libfuse session: `fuse_session_new` and its mount, the multithreaded loop, and its end.
///
/// MountLifecycle's `ServedMount` drives it (`MountServer`): it runs `serve()` on a thread of its
/// own, and ends the session when the mount is unmounted or the process is signalled (with the
/// signals, the readiness check, the watchdog and a lazy detach, which are not libfuse's).
public final class FuseSession: MountServer {
    let fileSystem: FuseFileSystem
    public let mountpoint: String
    let options: MountOptions
    let logger: Logger
    /// The session and the reference to `fileSystem` it holds as its userdata, from `mount()` to
    /// `close(loopCode:)`.
    private var session: OpaquePointer?
    private var userdata: Unmanaged<FuseFileSystem>?

    public init(fileSystem: FuseFileSystem, mountpoint: String, options: MountOptions, logger: Logger) {
        self.fileSystem = fileSystem
        self.mountpoint = mountpoint
        self.options = options
        self.logger = logger
    }

    public var fileSystemType: String { MountOptions.fileSystemType }

    /// Makes the session and mounts it; from then on the kernel's requests wait for `serve()`.
    /// - Throws: `FuseError` when libfuse rejects the options or the mount cannot be made.
    public func mount() throws {
        precondition(session == nil, "mounted once")
        var args = fuse_args(argc: 0, argv: nil, allocated: 0)
        for argument in options.arguments { fuse_opt_add_arg(&args, argument) }
        defer { fuse_opt_free_args(&args) }

        var ops = Operations.table()
        let userdata = Unmanaged.passRetained(fileSystem)
        guard let session = fuse_session_new(&args, &ops, MemoryLayout<fuse_lowlevel_ops>.size, userdata.toOpaque()) else {
            userdata.release()
            throw FuseError.badOptions(options.arguments)
        }
        guard fuse_session_mount(session, mountpoint) == 0 else {
            fuse_session_destroy(session)
            userdata.release()
            throw FuseError.mountFailed(mountpoint: mountpoint)
        }
        self.session = session
        self.userdata = userdata
        // No program this daemon starts may hold /dev/fuse: the connection would outlive the daemon.
        _ = fcntl(fuse_session_fd(session), F_SETFD, FD_CLOEXEC)
        if !fileSystem.passthrough.install(on: session) {
            logger.warning("libfuse refused custom I/O: originals are read through the daemon")
        }
        logger.info("mounted on \(mountpoint)")
        fileSystem.notifier.attach(SessionNotifications(session: session))
    }

    /// The multithreaded loop, with at most `options.maxThreads` workers, until the session ends.
    public func serve() -> Int32 {
        guard let session else { preconditionFailure("serve() before mount()") }
        return cfuse_session_loop_mt(session, options.maxThreads)
    }

    /// Stops the kernel notifications and makes the loop return (`fuse_session_exit`).
    public func stop() {
        fileSystem.notifier.detach()
        if let session { fuse_session_exit(session) }
    }

    public func unmount() {
        if let session { fuse_session_unmount(session) }
    }

    /// Waits (bounded) for answers still being worked on, which reply into the session, then
    /// destroys it.
    /// - Throws: `FuseError.loopFailed` when the loop ended with an error.
    public func close(loopCode code: Int32) throws {
        waitForPendingRequests()
        if let session { fuse_session_destroy(session) }
        userdata?.release()
        session = nil
        userdata = nil
        logger.info("unmounted \(mountpoint)")
        if code < 0 && code != -ENODEV && code != -EINTR { throw FuseError.loopFailed(code: code) }
    }

    /// Answers still being worked on reply into the session, so it must not go before them.
    private func waitForPendingRequests() {
        let deadline = Date(timeIntervalSinceNow: 2)
        while fileSystem.pendingRequests > 0 && Date() < deadline { usleep(10_000) }
    }
}
