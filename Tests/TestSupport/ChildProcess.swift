import Foundation
import Glibc
import MountLifecycle

/// How a child process ended: `.exited(code)` or `.signalled(number)` (MountLifecycle's `ProcessExit`).
public typealias ExitStatus = ProcessExit

/// Where a child's standard stream goes. Never a pipe: a child that outlives the test (a daemon)
/// and holds a pipe of `swift test` open makes `swift test` hang (see PLATFORM-NOTES.md).
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
/// test needs: waiting with a bound, signals, and reaping in `deinit`.
///
/// It is reaped only through `wait(timeout:)` / `status`, so its exit status can be read exactly
/// once, here.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    public let arguments: [String]
    private let lock = NSLock()
    private var finalStatus: ExitStatus?

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
        // Never leave a child running or a zombie behind.
        if status == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = wait(timeout: 2)
        }
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
        return finalStatus
    }

    public var isRunning: Bool { status == nil }

    /// Waits at most `timeout` seconds for the process to end; its status, or nil if it still runs.
    @discardableResult
    public func wait(timeout: Double) -> ExitStatus? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var pause: useconds_t = 1_000
        while true {
            if let status { return status }
            if Date() >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// Sends `number` to the process (not its group).
    public func signal(_ number: Int32) {
        if status == nil { kill(pid, number) }
    }

    /// Sends `number` to the process's whole group (it leads its own group).
    /// Also after the leader has ended, so that helpers it left running are reached.
    public func signalGroup(_ number: Int32) {
        kill(-pid, number)
    }

    /// SIGKILLs the group and waits (bounded) for the process to end.
    @discardableResult
    public func kill9(timeout: Double = 5) -> ExitStatus? {
        signalGroup(SIGKILL)
        return wait(timeout: timeout)
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
