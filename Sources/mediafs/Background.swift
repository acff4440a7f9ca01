import Foundation
import MountLifecycle
import Glibc

/// Starts the daemon in the background: this program again, with `--foreground`, in its own
/// session, its output going to the log file, and waits until it says the mount is ready.
enum Background {
    /// Starts the daemon and returns once the mount answers.
    /// - Throws: `CLIError`: of the kind the daemon says when it fails (it runs the same checks and
    ///   then mounts), `.daemonEnded` when it ends without saying, `.noAnswer` when the mount does not
    ///   answer in time, `.system` when it cannot be started.
    static func start(_ command: MountCommand) throws {
        let logPath = command.logFile ?? defaultLogPath()
        try? FileManager.default.createDirectory(
            atPath: (logPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)

        // The user's own arguments again: the daemon inherits this process's folder and environment,
        // so relative paths and the language preferences mean the same to it, and every option
        // reaches it without being listed here.
        let arguments = ["mount", "--foreground", "--ready-fd", "3"] + Self.mountArguments()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CLIError(.system, "cannot make a pipe: \(String(cString: strerror(errno)))") }
        // Neither end goes to the daemon as it is: spawning dup2s the write end to fd 3 only.
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let pid: pid_t
        do {
            pid = try spawnSelf(arguments, readyWriteEnd: fds[1], logPath: logPath)
        } catch {
            close(fds[0]); close(fds[1])
            throw CLIError(.system, "cannot start the daemon: \(error)")
        }
        close(fds[1])
        defer { close(fds[0]) }

        switch readLine(fds[0], within: command.mountTimeout) {
        case .some(let line) where line.hasPrefix("ready"):
            return
        case .some(let line):
            let failure = CLIError(readyLine: line) ?? CLIError(.failed, line)
            // A daemon whose mount does not answer still serves it: it is stopped, not waited for.
            if failure.kind == .noAnswer { kill(pid, SIGTERM) }
            reap(pid)
            throw CLIError(failure.kind, "\(failure.message)\n\(tail(of: logPath))(log: \(logPath))")
        case .none where isAlive(pid):
            kill(pid, SIGTERM)
            throw CLIError(.noAnswer, "the mount did not answer within \(command.mountTimeout) s; stopped the daemon (log: \(logPath))")
        case .none:
            let status = reap(pid)
            throw CLIError(.daemonEnded, "the daemon exited (status \(status)) before the mount was ready\n\(tail(of: logPath))(log: \(logPath))")
        }
    }

    /// The arguments this process was given after `mount`.
    private static func mountArguments() -> [String] {
        let given = Array(CommandLine.arguments.dropFirst())
        guard let start = given.firstIndex(of: "mount") else { return given }
        return Array(given[(start + 1)...])
    }

    /// `$XDG_STATE_HOME/mediafs/mediafs.log`, or `~/.local/state/mediafs/mediafs.log`.
    static func defaultLogPath() -> String {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/mediafs/mediafs.log"
    }

    /// This program again (/proc/self/exe, shown as mediafs) with `arguments`: /dev/null as its
    /// standard input, the log file (created, appended to) as its standard output and error, and
    /// the pipe's write end as its descriptor 3. It inherits the rest from this process (its
    /// session too: the daemon calls setsid itself once it has the ready pipe).
    private static func spawnSelf(_ arguments: [String], readyWriteEnd: Int32, logPath: String) throws -> pid_t {
        var spawn = Spawn("/proc/self/exe", arguments, argv0: "mediafs")
        spawn.standardInput = .null
        spawn.standardOutput = .appending(logPath)
        spawn.standardError = .standardOutput
        spawn.passing = [readyWriteEnd]
        do throws(SpawnError) {
            return try spawn.start()
        } catch {
            throw CLIError(.system, String(cString: strerror(error.code)))
        }
    }

    /// One line from `fd`, or nil at end of file or when `seconds` pass first.
    private static func readLine(_ fd: Int32, within seconds: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000, 60_000)) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    private static func isAlive(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Waits for the daemon to end; its exit status (128 + the signal's number if one ended it).
    @discardableResult
    private static func reap(_ pid: pid_t) -> Int32 {
        switch ProcessExit.wait(for: pid) {
        case .exited(let code)?: code
        case .signalled(let number)?: 128 + number
        case nil: 0
        }
    }

    /// The last lines of the log, where libfuse and fusermount3 say why a mount failed.
    private static func tail(of path: String, lines: Int = 5) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        let last = text.split(separator: "\n").suffix(lines)
        return last.isEmpty ? "" : last.map { "  " + $0 }.joined(separator: "\n") + "\n"
    }
}
