import CSpawn
import Glibc

/// A program to start, described whole: what it runs, what it holds and where it stands. The one
/// way mediafs and its tests start processes (the watchdog, the background daemon, fusermount3,
/// the test harness's children); `start()` holds the one call of posix_spawn.
///
/// Every property left at its default is inherited from this process, as with a bare
/// posix_spawn: its standard descriptors, every descriptor not close-on-exec, its process group
/// and session, its signal mask and dispositions, its working folder and its environment. A
/// caller says what the child must not share.
///
/// ```swift
/// var spawn = Spawn("/proc/self/exe", ["watch-mount", "--fd", "3", …], argv0: "mediafs")
/// spawn.standardInput = .null
/// spawn.passing = [pipeReadEnd]            // the child's 3
/// spawn.closesOtherDescriptors = true      // and nothing else
/// spawn.grouping = .newSession
/// let pid = try spawn.start()
/// ```
public struct Spawn: Sendable {
    /// What one of the child's standard descriptors (0, 1 or 2) is.
    public enum Stream: Sendable, Equatable {
        /// This process's own descriptor of that number, as it is.
        case inherited
        /// /dev/null: read-only as 0, write-only as 1 and 2.
        case null
        /// A file: as 0 opened for reading; as 1 or 2 created (mode 0644) or truncated.
        case file(String)
        /// A file: as 0 opened for reading; as 1 or 2 created (mode 0644) or appended to (O_APPEND).
        case appending(String)
        /// A descriptor of this process, duplicated into the child (the child's copy is not
        /// close-on-exec, whatever the original is).
        case descriptor(Int32)
        /// For 2 only: the same open file as the child's standard output, as a shell's `2>&1`.
        case standardOutput
    }

    /// Which process group and session the child is in.
    public enum Grouping: Sendable, Equatable {
        /// This process's.
        case inherited
        /// A group of its own that it leads (signals to this process's group do not reach it).
        case newProcessGroup
        /// A session of its own that it leads (neither this process's group nor its terminal
        /// reaches it).
        case newSession
    }

    /// The program to run: a path (no PATH lookup).
    public var program: String
    /// The child's argv[0]; nil for `program`.
    public var argv0: String?
    /// The arguments after argv[0].
    public var arguments: [String]
    /// The child's whole environment; nil for this process's (`environ`).
    public var environment: [String: String]?
    /// The child's descriptor 0.
    public var standardInput: Stream = .inherited
    /// The child's descriptor 1.
    public var standardOutput: Stream = .inherited
    /// The child's descriptor 2.
    public var standardError: Stream = .inherited
    /// Descriptors of this process given to the child as its 3, 4, … in this order (not
    /// close-on-exec in the child, whatever they are here). Any numbers will do, 0, 1 and 2 too.
    public var passing: [Int32] = []
    /// Whether every descriptor above the standard ones and `passing` is closed in the child,
    /// close-on-exec or not (glibc's posix_spawn_file_actions_addclosefrom_np, glibc 2.34).
    public var closesOtherDescriptors = false
    /// The child's process group and session.
    public var grouping: Grouping = .inherited
    /// Whether the child starts with no signal blocked; else with this thread's mask.
    public var unblocksAllSignals = false
    /// Signals set back to their default action in the child (those this process ignores stay
    /// ignored otherwise; handled ones are reset by exec anyway).
    public var defaultSignals: [Int32] = []
    /// The child's working folder; nil for this process's.
    public var workingDirectory: String?

    /// - Parameters:
    ///   - program: the path of the program.
    ///   - arguments: its arguments after argv[0].
    ///   - argv0: its argv[0]; nil for `program`.
    public init(_ program: String, _ arguments: [String] = [], argv0: String? = nil) {
        self.program = program
        self.arguments = arguments
        self.argv0 = argv0
    }

    /// Starts the child and returns without waiting for it; whoever gets its process id reaps it.
    /// - Returns: its process id.
    /// - Throws: `SpawnError` with the call that failed and its error (from posix_spawn: the
    ///   program is missing or not executable, a file of a stream cannot be opened, …).
    /// The corresponding C function is posix_spawn.
    public func start() throws(SpawnError) -> pid_t {
        precondition(standardInput != .standardOutput && standardOutput != .standardOutput,
                     "only standard error can be a copy of standard output")
        var copies: [Int32] = []
        defer { copies.forEach { close($0) } }
        let arranged = try arranged(copies: &copies)

        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        try arranged.addFileActions(&actions)

        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }
        try setAttributes(&attributes)

        let argv = ([argv0 ?? program] + arguments).map { strdup($0) } + [nil]
        let variables = environment.map { $0.map { "\($0.key)=\($0.value)" }.sorted() }
        let envp = (variables ?? []).map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = variables == nil
            ? posix_spawn(&pid, program, &actions, &attributes, argv, Glibc.environ)
            : posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        try check(result, "posix_spawn")
        return pid
    }

    /// Starts the child and waits for it to end.
    /// - Returns: how it ended.
    /// - Throws: `SpawnError` when it cannot be started (see `start()`).
    public func run() throws(SpawnError) -> ProcessExit {
        let pid = try start()
        // A child we just started is ours to reap: ECHILD cannot happen unless SIGCHLD is ignored.
        return ProcessExit.wait(for: pid) ?? .exited(-1)
    }

    /// This description with every descriptor of ours that a file action would replace before
    /// copying it (one of 0, 1, 2 or 3, 4, … given as another number) copied first, here, above
    /// those numbers (close-on-exec); the copies are added to `copies`, to be closed once the
    /// child has started. Then the order of the file actions cannot matter.
    /// The corresponding C function is fcntl(F_DUPFD_CLOEXEC).
    private func arranged(copies: inout [Int32]) throws(SpawnError) -> Spawn {
        let replaced = Int32(0)..<Int32(3 + passing.count)
        func safe(_ fd: Int32, as target: Int32) throws(SpawnError) -> Int32 {
            guard fd != target && replaced.contains(fd) else { return fd }
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, replaced.upperBound)
            guard copy >= 0 else { throw SpawnError(program: program, call: "fcntl", code: errno) }
            copies.append(copy)
            return copy
        }
        var result = self
        for (index, fd) in passing.enumerated() { result.passing[index] = try safe(fd, as: Int32(3 + index)) }
        if case .descriptor(let fd) = standardInput { result.standardInput = .descriptor(try safe(fd, as: 0)) }
        if case .descriptor(let fd) = standardOutput { result.standardOutput = .descriptor(try safe(fd, as: 1)) }
        if case .descriptor(let fd) = standardError { result.standardError = .descriptor(try safe(fd, as: 2)) }
        return result
    }

    /// The file actions, once `arranged`: this process's descriptors duplicated first, then files
    /// opened, then `2>&1`, then the rest closed, then the working folder changed.
    private func addFileActions(_ actions: inout posix_spawn_file_actions_t) throws(SpawnError) {
        for (index, fd) in passing.enumerated() {
            // dup2 clears close-on-exec on the copy; glibc does so even for dup2(3, 3).
            try check(posix_spawn_file_actions_adddup2(&actions, fd, Int32(3 + index)), "posix_spawn_file_actions_adddup2")
        }
        let streams: [(Int32, Stream)] = [(0, standardInput), (1, standardOutput), (2, standardError)]
        for (target, stream) in streams {
            if case .descriptor(let fd) = stream {
                try check(posix_spawn_file_actions_adddup2(&actions, fd, target), "posix_spawn_file_actions_adddup2")
            }
        }
        for (target, stream) in streams {
            let writing = O_WRONLY | O_CREAT
            switch stream {
            case .null:
                try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0),
                          "posix_spawn_file_actions_addopen")
            case .file(let path):
                try check(posix_spawn_file_actions_addopen(&actions, target, path, target == 0 ? O_RDONLY : writing | O_TRUNC, 0o644),
                          "posix_spawn_file_actions_addopen")
            case .appending(let path):
                try check(posix_spawn_file_actions_addopen(&actions, target, path, target == 0 ? O_RDONLY : writing | O_APPEND, 0o644),
                          "posix_spawn_file_actions_addopen")
            case .inherited, .descriptor, .standardOutput:
                break
            }
        }
        if standardError == .standardOutput {
            try check(posix_spawn_file_actions_adddup2(&actions, 1, 2), "posix_spawn_file_actions_adddup2")
        }
        if closesOtherDescriptors {
            try check(cspawn_addclosefrom(&actions, Int32(3 + passing.count)), "posix_spawn_file_actions_addclosefrom_np")
        }
        if let workingDirectory {
            try check(cspawn_addchdir(&actions, workingDirectory), "posix_spawn_file_actions_addchdir_np")
        }
    }

    private func setAttributes(_ attributes: inout posix_spawnattr_t) throws(SpawnError) {
        var flags: Int32 = 0
        if unblocksAllSignals {
            var none = sigset_t()
            sigemptyset(&none)
            try check(posix_spawnattr_setsigmask(&attributes, &none), "posix_spawnattr_setsigmask")
            flags |= POSIX_SPAWN_SETSIGMASK
        }
        if !defaultSignals.isEmpty {
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for number in defaultSignals { sigaddset(&defaults, number) }
            try check(posix_spawnattr_setsigdefault(&attributes, &defaults), "posix_spawnattr_setsigdefault")
            flags |= POSIX_SPAWN_SETSIGDEF
        }
        switch grouping {
        case .inherited:
            break
        case .newProcessGroup:
            try check(posix_spawnattr_setpgroup(&attributes, 0), "posix_spawnattr_setpgroup")
            flags |= POSIX_SPAWN_SETPGROUP
        case .newSession:
            flags |= Int32(CSPAWN_POSIX_SPAWN_SETSID)
        }
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "posix_spawnattr_setflags")
    }

    /// The one checker of the posix_spawn family's results (an errno, 0 for success).
    private func check(_ result: Int32, _ call: String) throws(SpawnError) {
        guard result == 0 else { throw SpawnError(program: program, call: call, code: result) }
    }
}

/// Why a child could not be started: the call of the posix_spawn family that failed and its error.
public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program that was to run.
    public let program: String
    /// The call that failed (`posix_spawn`, `posix_spawn_file_actions_addopen`, …).
    public let call: String
    /// Its errno: from posix_spawn, ENOENT or EACCES for the program, or the error of a file
    /// action in the child (a stream's file that cannot be opened, a working folder missing).
    public let code: Int32

    public var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
}

/// How a child process ended, from its wait status.
public enum ProcessExit: Equatable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal of this number ended it.
    case signalled(Int32)

    /// Decodes a status from waitpid (WIFEXITED, WEXITSTATUS, WTERMSIG, which Swift cannot import).
    public init(waitStatus status: Int32) {
        self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }

    /// Waits for the child `pid` to end and reaps it, retrying when a signal interrupts the wait.
    /// - Returns: how it ended; nil if it is not a child of this process (or was reaped already).
    /// The corresponding C function is waitpid.
    public static func wait(for pid: pid_t) -> ProcessExit? {
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, 0) == pid { return ProcessExit(waitStatus: status) }
            if errno != EINTR { return nil }
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signalled(let number): "killed by signal \(number)"
        }
    }
}
