import CFuse
import Foundation
import Glibc
import Logging

/// One mount's life: `fuse_session_new`, mount, the multithreaded loop, and an orderly end on
/// unmount (`fusermount3 -u`) or a termination signal.
///
/// Teardown follows libfuse's hello_ll in reverse order of set-up. After a signal the mount is
/// detached first (so no dead mount can remain), then the loop is given a bound to finish; a loop
/// still held by an open file after that is left to end when the process exits, which closes
/// /dev/fuse and so ends the connection. If the process dies instead (SIGKILL, a crash), libfuse's
/// auto_unmount helper and a watchdog of our own (`MountWatchdog`) remove the mount.
public final class FuseSession {
    let fileSystem: FuseFileSystem
    let mountpoint: String
    let options: MountOptions
    let logger: Logger
    /// Seconds the loop is given to finish after the mount is gone.
    public var shutdownBound: Double = 3
    /// The mediafs program, run with its hidden `watch-mount` subcommand as the mount's watchdog
    /// (`MountWatchdog`); nil for none.
    public var watchdogExecutable: String? = "/proc/self/exe"

    public init(fileSystem: FuseFileSystem, mountpoint: String, options: MountOptions, logger: Logger) {
        self.fileSystem = fileSystem
        self.mountpoint = mountpoint
        self.options = options
        self.logger = logger
    }

    /// Mounts, serves until unmounted or signalled, and tears down.
    ///
    /// `TerminationSignals.block()` must have run at process start. `ready` is called once, from
    /// another thread, when the mount answers a `stat` of its root (with false if it never does).
    /// - Throws: `FuseError` when the mount cannot be made or the loop fails.
    public func run(ready: @escaping @Sendable (Bool) -> Void) throws {
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
        // No program this daemon starts may hold /dev/fuse: the connection would outlive the daemon.
        _ = fcntl(fuse_session_fd(session), F_SETFD, FD_CLOEXEC)
        startWatchdog()
        if !fileSystem.passthrough.install(on: session) {
            logger.warning("libfuse refused custom I/O: originals are read through the daemon")
        }
        logger.info("mounted on \(mountpoint)")
        fileSystem.notifier.attach(session)

        let events = SessionEvents()
        let handle = SessionHandle(session)
        let maxThreads = options.maxThreads
        startThread("mediafs-loop") { events.post(.loopEnded(code: cfuse_session_loop_mt(handle.session, maxThreads))) }
        startThread("mediafs-signals") { events.post(.signal(TerminationSignals.wait())) }
        let mountpoint = self.mountpoint
        startThread("mediafs-ready") {
            var st = Glibc.stat()
            ready(stat(mountpoint, &st) == 0)
        }

        var loopCode: Int32?
        let event = events.next()
        fileSystem.notifier.detach()
        switch event {
        case .loopEnded(let code)?:
            loopCode = code
            fuse_session_unmount(session)
        case .signal(let number)?:
            logger.notice("signal \(number): unmounting \(mountpoint)")
            fuse_session_exit(session)
            detach()
            if case .loopEnded(let code)? = events.next(within: shutdownBound, where: { if case .loopEnded = $0 { true } else { false } }) {
                loopCode = code
            }
        case nil:
            break
        }

        guard let code = loopCode else {
            // Something still holds the connection (an open file on the detached mount); the
            // session must outlive its worker threads, so it is left for process exit to end.
            logger.notice("unmounted; the FUSE loop did not finish within \(shutdownBound) s, leaving it to process exit")
            return
        }
        waitForPendingRequests()
        fuse_session_destroy(session)
        userdata.release()
        logger.info("unmounted \(mountpoint)")
        if code < 0 && code != -ENODEV && code != -EINTR { throw FuseError.loopFailed(code: code) }
    }

    /// Detaches the mount now, even while files on it are open: as root with `umount2`, otherwise
    /// with `fusermount3 -u -z`.
    private func detach() {
        if let failure = LazyUnmount.detach(mountpoint) { logger.error("\(failure)") }
    }

    /// Starts the process that removes the mount if this one dies and leaves it dead (`MountWatchdog`).
    /// Without it the mount still has libfuse's auto_unmount, so a failure is logged, not thrown.
    private func startWatchdog() {
        guard let executable = watchdogExecutable else { return }
        do {
            let pid = try MountWatchdog.start(executable: executable, mountpoint: mountpoint)
            logger.debug("mount watchdog started (pid \(pid))")
        } catch {
            logger.error("\(error)")
        }
    }

    /// Answers still being worked on reply into the session, so it must not go before them.
    private func waitForPendingRequests() {
        let deadline = Date(timeIntervalSinceNow: 2)
        while fileSystem.pendingRequests > 0 && Date() < deadline { usleep(10_000) }
    }

    private func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}

/// The session pointer, handed to the loop thread.
private struct SessionHandle: @unchecked Sendable {
    let session: OpaquePointer
    init(_ session: OpaquePointer) { self.session = session }
}
