import Foundation
import Glibc
import Logging

/// One mount's life around its server: mounted, watched, served until unmounted (`fusermount3 -u`)
/// or a termination signal, then ended in order.
///
/// Teardown follows libfuse's hello_ll in reverse order of set-up. After a signal the mount is
/// detached first (so no dead mount can remain), then the loop is given a bound to finish; a loop
/// still held by an open file after that is left to end when the process exits, which closes
/// /dev/fuse and so ends the connection. If the process dies instead (SIGKILL, a crash), libfuse's
/// auto_unmount helper and a watchdog of our own (`MountWatchdog`) remove the mount.
public final class ServedMount {
    let server: any MountServer
    let logger: Logger
    /// Seconds the loop is given to finish after the mount is gone.
    public var shutdownBound: Double = 3
    /// The mediafs program, run with its hidden `watch-mount` subcommand as the mount's watchdog
    /// (`MountWatchdog`); nil for none.
    public var watchdogExecutable: String? = "/proc/self/exe"

    public init(_ server: any MountServer, logger: Logger) {
        self.server = server
        self.logger = logger
    }

    /// Mounts, serves until unmounted or signalled, and ends the server.
    ///
    /// `TerminationSignals.block()` must have run at process start. `ready` is called once, from
    /// another thread, when the mount answers a `stat` of its root (with false if it never does).
    /// - Throws: what the server's `mount()` or `close(loopCode:)` throws.
    public func run(ready: @escaping @Sendable (Bool) -> Void) throws {
        try server.mount()
        startWatchdog()

        let events = MountEvents()
        let loop = LoopHandle(server: server)
        startThread("mediafs-loop") { events.post(.loopEnded(code: loop.server.serve())) }
        startThread("mediafs-signals") { events.post(.signal(TerminationSignals.wait())) }
        let mountpoint = server.mountpoint
        startThread("mediafs-ready") {
            var st = Glibc.stat()
            ready(stat(mountpoint, &st) == 0)
        }

        var loopCode: Int32?
        switch events.next() {
        case .loopEnded(let code)?:
            loopCode = code
            server.stop()
            server.unmount()
        case .signal(let number)?:
            logger.notice("signal \(number): unmounting \(mountpoint)")
            server.stop()
            if let failure = LazyUnmount.detach(mountpoint) { logger.error("\(failure)") }
            if case .loopEnded(let code)? = events.next(within: shutdownBound, where: { if case .loopEnded = $0 { true } else { false } }) {
                loopCode = code
            }
        case nil:
            break
        }

        guard let code = loopCode else {
            // Something still holds the connection (an open file on the detached mount); the
            // server must outlive its worker threads, so it is left for process exit to end.
            logger.notice("unmounted; the FUSE loop did not finish within \(shutdownBound) s, leaving it to process exit")
            return
        }
        try server.close(loopCode: code)
    }

    /// Starts the process that removes the mount if this one dies and leaves it dead (`MountWatchdog`).
    /// Without it the mount still has libfuse's auto_unmount, so a failure is logged, not thrown.
    private func startWatchdog() {
        guard let executable = watchdogExecutable else { return }
        do throws(WatchdogError) {
            let pid = try MountWatchdog.start(executable: executable, mountpoint: server.mountpoint,
                                              fileSystemType: server.fileSystemType)
            logger.debug("mount watchdog started (pid \(pid))")
        } catch {
            logger.error("\(error)")
        }
    }

    private func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
    }
}

/// The server, handed to the loop thread. `@unchecked`: `serve()` is the one call made on that
/// thread, and the server is no value a lock could guard (it owns the libfuse session).
private struct LoopHandle: @unchecked Sendable {
    let server: any MountServer
}
