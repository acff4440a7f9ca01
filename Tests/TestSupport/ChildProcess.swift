import Foundation
import Glibc
import MountLifecycle

/// How a child process ended: `.exited(code)` or `.signalled(number)` (MountLifecycle's `ProcessExit`).
public typealias ExitStatus = ProcessExit

/// Where a child's standard stream goes. Never a pipe: a child that outlives the test (a daemon)
/// and holds a pipe of `swift test` open makes `swift test` hang, waiting for the pipe's end.
public enum ChildStream: Sendable {
    case null
    /// A file, created or truncated (as standard input: read).
    case file(String)
    /// A file, created or appended to (as standard input: read).
    case appending(String)

    var spawned: Spawn.Stream {
        switch self {
        case .null: .null
        case .file(let path): .file(path)
        case .appending(let path): .appending(path)
        }
    }
}

/// A process started with MountLifecycle's `Spawn`, in its own process group, with the termination
/// signals set back to their defaults and none blocked (as a shell would start it), every file
/// descriptor above 2 closed, and standard streams that are never pipes. This type adds what a
/// test needs: waiting with a bound, signals, and ending it with everything it started in its
/// group (`kill9`, also in `deinit`), so that nothing it started outlives it holding a file.
///
/// It is reaped only through `wait(timeout:)` / `status`, so its exit status can be read exactly
/// once, here.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    public let arguments: [String]
    /// Guards `finalStatus` and `groupGone` (`@unchecked`: a lock the status getter takes around
    /// waitpid, which `Mutex` would serve no better).
    private let lock = NSLock()
    private var finalStatus: ExitStatus?
    /// Whether its group was seen empty after it was reaped: the group's number may be reused from
    /// then on, so it is never signalled again.
    private var groupGone = false

    /// Starts `arguments[0]` (a path, or a name looked up in PATH; argv[0] is `arguments[0]` as given).
    /// - Throws: `HarnessError` when the program cannot be started.
    public init(_ arguments: [String], stdin: ChildStream = .null, stdout: ChildStream = .null,
                stderr: ChildStream = .null, directory: String? = nil, environment: [String: String]? = nil) throws {
        precondition(!arguments.isEmpty)
        self.arguments = arguments
        var spawn = Spawn(try Self.locate(arguments[0]), Array(arguments.dropFirst()), argv0: arguments[0])
        spawn.standardInput = stdin.spawned
        spawn.standardOutput = stdout.spawned
        spawn.standardError = stderr.spawned
        spawn.closesOtherDescriptors = true
        spawn.grouping = .newProcessGroup
        spawn.unblocksAllSignals = true
        spawn.defaultSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2]
        spawn.workingDirectory = directory
        spawn.environment = environment
        do throws(SpawnError) {
            pid = try spawn.start()
        } catch {
            throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(error.code)))")
        }
    }

    deinit {
        // Never leave a child, or what it started, running or a zombie behind.
        kill9(timeout: 5)
    }

    /// The exit status once the process has ended (reaping it), else nil. Does not block.
    public var status: ExitStatus? {
        lock.lock()
        defer { lock.unlock() }
        if let finalStatus { return finalStatus }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid {
            finalStatus = ExitStatus(waitStatus: raw)
        } else if result < 0 && errno == ECHILD {
            // Reaped elsewhere (should not happen); say so rather than wait forever.
            finalStatus = .exited(-1)
        }
        if finalStatus != nil {
            // While a process of the group lives, the group's number cannot be taken by another.
            groupGone = Processes.members(ofGroup: pid).isEmpty
        }
        return finalStatus
    }

    public var isRunning: Bool { status == nil }

    /// Whether the process has ended and no process it left in its group lives (a process of
    /// its group that has ended holds no file any more, even before it is reaped).
    public var groupIsGone: Bool {
        guard status != nil else { return false }
        lock.lock()
        defer { lock.unlock() }
        if !groupGone { groupGone = Processes.members(ofGroup: pid).isEmpty }
        return groupGone
    }

    /// Waits at most `timeout` seconds for the process to end; its status, or nil if it still runs.
    @discardableResult
    public func wait(timeout: Double) -> ExitStatus? {
        Wait.until(timeout) { status != nil }
        return status
    }

    /// Sends `number` to the process (not its group).
    public func signal(_ number: Int32) {
        if status == nil { kill(pid, number) }
    }

    /// Sends `number` to the process's whole group (it leads its own group), also after the
    /// process has ended, so that helpers it left running are reached; not once the group is gone.
    public func signalGroup(_ number: Int32) {
        if !groupIsGone { kill(-pid, number) }
    }

    /// SIGKILLs the group, again until it is gone, for at most `timeout` seconds: then the process
    /// (reaped) and everything it started that stayed in its group (a shell loop's `ls`) have
    /// ended and hold no file, on a mount to be unmounted or anywhere else.
    /// - Returns: the process's status, nil if it or a process of its group still runs at the bound.
    @discardableResult
    public func kill9(timeout: Double = 10) -> ExitStatus? {
        let gone = Wait.until(timeout) {
            if groupIsGone { return true }
            kill(-pid, SIGKILL)
            return false
        }
        return gone ? status : nil
    }

    /// The one-letter state of a running process from /proc (R, S, D, Z, …), nil when gone.
    public static func state(of pid: pid_t) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    }

    /// Whether a process (not necessarily our child) exists and is not a zombie.
    public static func isAlive(_ pid: pid_t) -> Bool {
        guard let state = state(of: pid) else { return false }
        return state != "Z" && state != "X"
    }

    /// `name` if it holds a slash, else its first match in PATH.
    static func locate(_ name: String) throws -> String {
        if name.contains("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        // As [String]: `split(…) + ["/usr/sbin"]` is inferred as arrays of characters, and the
        // lookup of a bare name never found anything.
        let folders: [String] = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for folder in folders {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw HarnessError("\(name) is not in PATH")
    }
}

/// A failure of the test harness itself (a tool missing, a bound passed), with what to look at.
public struct HarnessError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
