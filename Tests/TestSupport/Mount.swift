import Foundation
import FuseBridge
import Glibc
import MountLifecycle

/// A real mediafs mount: `mediafs mount --foreground SOURCE POINT` as a child process, its output
/// in a log file (never a pipe), ready once the mount point is in /proc/self/mountinfo as
/// fuse.mediafs and `stat` of it answers.
///
/// Use it through `Mount.with { }` (or call `teardown()` in a `defer`). When the test's body returns,
/// `with` ends the mount the orderly way and checks it (`finish()`, Mount+Finish.swift): no
/// descriptor leaked since the mount answered (`DaemonDescriptors`), `fusermount3 -u` and the
/// daemon exit 0, else the test fails with the daemon's log; a test that ends its mount itself
/// says so (`ending: .byTheTest`). Teardown then always runs and, from gentle to forceful,
/// `fusermount3 -u`, SIGTERM, aborts the FUSE connection, SIGKILL and `umount -l`, so that no
/// test leaves a mount or a daemon behind whatever happened.
/// `@unchecked`: its `var`s are written by the test's own thread only (mounting, teardown).
public final class Mount: @unchecked Sendable {
    /// The mediafs binary: $MEDIAFS_BIN, or .build/debug/mediafs in the package.
    public static var binary: String {
        if let path = ProcessInfo.processInfo.environment["MEDIAFS_BIN"], !path.isEmpty { return path }
        return TestMedia.packageRoot.appendingPathComponent(".build/debug/mediafs").path
    }

    public let source: String
    public let point: String
    public let logPath: String
    public let daemon: ChildProcess
    /// The mountinfo line recorded once the mount was ready: its device names the FUSE connection.
    public private(set) var entry: KernelMounts.Entry!
    /// The daemon's descriptors once the mount had answered its first request (a `stat` of its
    /// root): what `finish()` compares with.
    public private(set) var descriptorsAtMount: DaemonDescriptors?
    /// What teardown had to do beyond the gentle steps (empty when the mount had already ended).
    public private(set) var teardownSteps: [String] = []
    private var tornDown = false
    /// This connection's fusectl `abort` file, opened once the mount was ready: written through
    /// this descriptor, an abort reaches this connection or, once it has ended, none (the kernel
    /// unhooks a removed connection's control files). Opened again by its number later, it could
    /// reach another test's mount that took the number meanwhile: the daemon of a lazily unmounted
    /// mount whose read was in flight ended with ECONNABORTED one run in several.
    private var abortFile: Int32 = -1

    /// The FUSE connection number (the minor of the mount's device).
    public var connection: Int? { entry?.minor }

    /// Mounts `source` on `point` (both must exist) in the foreground and waits, at most
    /// `timeout` seconds, until the mount answers.
    /// - Parameters:
    ///   - arguments: more arguments for `mediafs mount` (e.g. `["-o", "…"]`, `["--log-level", "debug"]`).
    ///   - environment: the daemon's whole environment; nil for this process's.
    /// - Throws: `HarnessError` (after tearing down) when the daemon dies or the mount does not
    ///   answer in time; the message holds the daemon's log.
    public init(source: String, point: String, log: String, arguments: [String] = [], timeout: Double = 20,
                environment: [String: String]? = nil) throws {
        self.source = source
        self.point = point
        self.logPath = log
        guard access(Self.binary, X_OK) == 0 else {
            throw HarnessError("no mediafs binary at \(Self.binary): run `swift build` first or set MEDIAFS_BIN")
        }
        // A cache folder of the test's own (beside its log) unless the test names one: counts of
        // probes and images made must not depend on what earlier runs kept.
        var arguments = arguments
        // Analysis runs when a test asks for it (the user.mediafs.analysis attribute), or in the
        // background where a test says so: tests count and time other work.
        if !arguments.contains(where: { $0.hasPrefix("--analysis") }) {
            arguments += ["--analysis", "on-demand"]
        }
        if !arguments.contains("--cache-dir") {
            arguments += ["--cache-dir", (log as NSString).deletingLastPathComponent + "/cache"]
        }
        daemon = try ChildProcess([Self.binary, "mount", "--foreground"] + arguments + [source, point],
                                  stdout: .appending(log), stderr: .appending(log), environment: environment)
        Daemons.register(daemon.pid)
        do {
            try waitUntilReady(timeout: timeout)
        } catch {
            teardown()
            throw error
        }
    }

    deinit { teardown() }

    /// Runs `body` with a mount of `source` on `point`; once it returns, ends the mount as
    /// `ending` says (by default `finish()`: unmounted and checked), and tears down what is left
    /// in every case (also when `body` throws, then without checks).
    /// - Throws: what `body` throws; else, with `.unmountChecked`, `HarnessError` when the
    ///   daemon leaked descriptors or the unmount failed (see `finish()`).
    public static func with<T>(source: String, point: String, log: String, arguments: [String] = [],
                               timeout: Double = 20, environment: [String: String]? = nil,
                               ending: Ending = .unmountChecked, _ body: (Mount) throws -> T) throws -> T {
        let mount = try Mount(source: source, point: point, log: log, arguments: arguments, timeout: timeout,
                              environment: environment)
        defer { mount.teardown() }
        let result = try body(mount)
        if ending == .unmountChecked { try mount.finish() }
        return result
    }

    /// Whether our mount (this connection) is still on the mount point.
    public var isMounted: Bool {
        KernelMounts.entries(at: point).contains { $0.device == entry?.device && $0.fileSystemType == MountOptions.fileSystemType }
    }

    /// The daemon's log so far.
    public var log: String {
        FileManager.default.contents(atPath: logPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// `path` relative to the mount point.
    public func path(_ relative: String) -> String { relative.isEmpty ? point : point + "/" + relative }

    /// `fusermount3 -u POINT` (`unmountRetryingBusy`), then waits at most `timeout` seconds for
    /// the daemon to exit.
    /// - Returns: fusermount3's result and the daemon's exit status (nil if it still runs).
    public func unmount(timeout: Double = 15) throws -> (fusermount: CommandResult, daemon: ExitStatus?) {
        let result = try unmountRetryingBusy(within: 5)
        return (result, daemon.wait(timeout: timeout))
    }

    /// `fusermount3 -u POINT`, again while it fails because the mount is busy, for at most
    /// `seconds`: a process that has just ended (a test's reader, killed) may still be releasing
    /// its files on the mount.
    /// - Returns: the last fusermount3's result.
    func unmountRetryingBusy(within seconds: Double) throws -> CommandResult {
        var result = try Command.run(["fusermount3", "-u", point], timeout: 20)
        try Wait.until(seconds) {
            guard !result.succeeded && result.stderr.contains("Device or resource busy") && isMounted else { return true }
            result = try Command.run(["fusermount3", "-u", point], timeout: 20)
            return false
        }
        return result
    }

    /// Sends `number` to the daemon alone and waits at most `timeout` seconds for it to exit.
    public func signal(_ number: Int32, timeout: Double = 15) -> ExitStatus? {
        daemon.signal(number)
        return daemon.wait(timeout: timeout)
    }

    /// Waits at most `timeout` seconds until the mount is gone from mountinfo; whether it is.
    @discardableResult
    public func waitUntilUnmounted(timeout: Double) -> Bool {
        Wait.until(timeout) { !isMounted }
    }

    /// Aborts this mount's FUSE connection, if the mount is still on its point: once it is gone
    /// its connection number is free, and a mount made since (another test's, tests run side by
    /// side) may have it.
    private func abortConnection() {
        guard isMounted, let connection, abortFile >= 0 else { return }
        teardownSteps.append("abort connection \(connection)")
        _ = write(abortFile, "1", 1)
    }

    /// Ends the mount and the daemon, whatever state they are in. Safe to call more than once.
    public func teardown() {
        guard !tornDown else { return }
        tornDown = true
        if isMounted && daemon.isRunning {
            _ = try? unmountRetryingBusy(within: 2)
            daemon.wait(timeout: 5)
        }
        if daemon.isRunning {
            teardownSteps.append("SIGTERM")
            daemon.signal(SIGTERM)
            daemon.wait(timeout: 5)
        }
        if daemon.isRunning {
            abortConnection()
            teardownSteps.append("SIGKILL")
            daemon.signal(SIGKILL)
            daemon.wait(timeout: 5)
        }
        if isMounted {
            abortConnection()
            teardownSteps.append("umount -l")
            _ = try? Command.run(["umount", "-l", point], timeout: 10)
            if isMounted { _ = try? Command.run(["fusermount3", "-u", "-z", point], timeout: 10) }
        }
        if daemon.isRunning {
            teardownSteps.append("daemon \(daemon.pid) still running (state \(ChildProcess.state(of: daemon.pid).map(String.init) ?? "?"))")
        }
        // And helpers the daemon left in its group (none are expected), waited for.
        daemon.kill9(timeout: 5)
        if abortFile >= 0 {
            close(abortFile)
            abortFile = -1
        }
    }

    private func waitUntilReady(timeout: Double) throws {
        let ready = try Wait.until(timeout) {
            if let status = daemon.status {
                throw HarnessError("mediafs exited (\(status)) before \(point) was mounted; log:\n\(log)")
            }
            guard let found = KernelMounts.entries(at: point).last(where: { $0.fileSystemType == MountOptions.fileSystemType })
            else { return false }
            entry = found
            return try Command.run(["stat", "--", point], timeout: 5).succeeded
        }
        if ready {
            descriptorsAtMount = DaemonDescriptors(of: daemon.pid)
            if let connection { abortFile = FuseConnections.openAbortFile(connection) }
            return
        }
        throw HarnessError("\(point) did not answer within \(timeout) s; mountinfo: \(KernelMounts.entries(at: point)); log:\n\(log)")
    }
}

/// Every mediafs daemon the tests started (foreground, or background by pid file), for the final check.
public enum Daemons {
    private static let pids = NSLock()
    nonisolated(unsafe) private static var registered: Set<pid_t> = []

    public static func register(_ pid: pid_t) {
        pids.lock()
        registered.insert(pid)
        pids.unlock()
    }

    /// Those still alive (not zombies) that are still mediafs.
    public static func alive() -> [pid_t] {
        pids.lock()
        defer { pids.unlock() }
        return registered.filter { pid in
            ChildProcess.isAlive(pid)
                && ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains("mount")
        }.sorted()
    }
}
