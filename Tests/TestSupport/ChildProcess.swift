import Foundation
import Glibc

/// How a child process ended.
public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    init(waitStatus status: Int32) {
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signalled(status & 0x7f)
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signalled(let number): "killed by signal \(number)"
        }
    }
}

/// Where a child's standard stream goes. Never a pipe: a child that outlives the test (a daemon)
/// and holds a pipe of `swift test` open makes `swift test` hang (see PLATFORM-NOTES.md).
public enum ChildStream: Sendable {
    case null
    /// A file, created or truncated.
    case file(String)
    /// A file, created or appended to.
    case appending(String)
}

/// A process started with `posix_spawn`, in its own process group, with the termination signals
/// set back to their defaults and none blocked (as a shell would start it), every file descriptor
/// above 2 closed, and standard streams that are never pipes.
///
/// It is reaped only through `wait(timeout:)` / `status`, so its exit status can be read exactly
/// once, here.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    public let arguments: [String]
    private let lock = NSLock()
    private var finalStatus: ExitStatus?

    /// Starts `arguments[0]` (a path, or a name looked up in PATH).
    /// - Throws: `HarnessError` when the program cannot be started.
    public init(_ arguments: [String], stdin: ChildStream = .null, stdout: ChildStream = .null,
                stderr: ChildStream = .null, directory: String? = nil, environment: [String: String]? = nil) throws {
        precondition(!arguments.isEmpty)
        self.arguments = arguments
        let executable = try Self.locate(arguments[0])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .appending(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_APPEND, 0o644)
            }
        }
        guard let closeFrom = GNUSpawn.addCloseFrom, let changeDirectory = GNUSpawn.addChangeDirectory else {
            throw HarnessError("glibc without posix_spawn_file_actions_addclosefrom_np/addchdir_np (needs 2.34)")
        }
        _ = closeFrom(&actions, 3)
        if let directory { _ = changeDirectory(&actions, directory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environmentStrings: [String]
        if let environment {
            environmentStrings = environment.map { "\($0.key)=\($0.value)" }
        } else {
            environmentStrings = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        }
        environmentStrings.sort()
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environmentStrings.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
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
        for folder in path.split(separator: ":") + ["/usr/sbin", "/sbin"] {
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

/// glibc's GNU extensions to posix_spawn, declared only with _GNU_SOURCE and so not imported:
/// looked up at run time instead.
enum GNUSpawn {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let addCloseFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    static let addChangeDirectory: ChangeDirectory? = dlsym(nil, "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }
}
