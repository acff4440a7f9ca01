import Foundation
import Glibc

/// What a command did: its status (nil when it outlived its bound and was killed), its output.
public struct CommandResult: Sendable, CustomStringConvertible {
    public let arguments: [String]
    public let status: ExitStatus?
    public let stdout: String
    public let stderr: String
    public let seconds: Double

    /// Exit status 0.
    public var succeeded: Bool { status == .exited(0) }

    /// The exit code when the command exited (124 when `timeout` stopped it), else nil.
    public var exitCode: Int32? {
        if case .exited(let code)? = status { return code }
        return nil
    }

    public var description: String {
        let shown = arguments.map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " ")
        let what = status.map(\.description) ?? "did not end within its bound"
        func clip(_ text: String) -> String { text.count > 3000 ? String(text.prefix(3000)) + "…" : text }
        return "`\(shown.count > 400 ? String(shown.prefix(400)) + "…" : shown)` → \(what) after \(String(format: "%.2f", seconds)) s"
            + (stdout.isEmpty ? "" : "\nstdout: \(clip(stdout))")
            + (stderr.isEmpty ? "" : "\nstderr: \(clip(stderr))")
    }
}

/// Runs commands to completion with a bound, capturing their output in files (never pipes).
public enum Command {
    /// Runs `arguments` under `timeout -k 5 SECONDS`, so that even a command stuck on a mount
    /// ends, and waits at most `seconds + 15` before SIGKILLing its process group. Returns once
    /// every process of that group has ended: what the command left running there is killed.
    /// - Throws: `HarnessError` when the program cannot be started.
    public static func run(_ arguments: [String], timeout seconds: Double = 60, directory: String? = nil,
                           environment: [String: String]? = nil, stdin: ChildStream = .null) throws -> CommandResult {
        let started = Date()
        let out = try scratchFile("out")
        let err = try scratchFile("err")
        defer {
            unlink(out)
            unlink(err)
        }
        let bounded = ["/usr/bin/timeout", "-k", "5", String(format: "%.1f", seconds)] + arguments
        let child = try ChildProcess(bounded, stdin: stdin, stdout: .file(out), stderr: .file(err),
                                     directory: directory, environment: environment)
        let status = child.wait(timeout: seconds + 15)
        child.kill9()
        return CommandResult(arguments: arguments, status: status,
                             stdout: read(out), stderr: read(err), seconds: Date().timeIntervalSince(started))
    }

    /// `sh -c SCRIPT` with `$1…` set to `arguments`.
    public static func shell(_ script: String, _ arguments: [String] = [], timeout: Double = 60,
                             directory: String? = nil) throws -> CommandResult {
        try run(["/bin/sh", "-c", script, "sh"] + arguments, timeout: timeout, directory: directory)
    }

    /// /usr/bin/python3 if present, else python3 from PATH: Python as a real client (its
    /// `shutil.copytree` copying a mount, say), not as a language for checks.
    public static let pythonPath: String = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"

    public static func scratchFile(_ tag: String) throws -> String {
        var template = Array("/tmp/mediafs-it-\(tag).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw HarnessError("mkstemp: \(String(cString: strerror(errno)))") }
        close(fd)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static func read(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
