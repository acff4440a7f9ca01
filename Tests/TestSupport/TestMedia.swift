import Foundation

/// The media library the tests use, made with the ffmpeg command by `scripts/make-media.sh --small`
/// the first time a test asks for it, and kept in `.build/test-media` for later runs (the script
/// keeps files that are already there and rebuilds all when it changes).
public enum TestMedia {
    /// The package's root folder (where Package.swift is).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let made = Result { try make() }

    /// The folder holding the small library. Made once per test process.
    /// - Throws: `TestMediaError` when the ffmpeg command is missing or the script fails.
    public static func library() throws -> URL {
        try made.get()
    }

    /// A file of the library by its relative path, e.g. `"movie-1080p.mkv"`.
    public static func file(_ relativePath: String) throws -> URL {
        try library().appendingPathComponent(relativePath)
    }

    private static func make() throws -> URL {
        let folder = packageRoot.appendingPathComponent(".build/test-media/small")
        try runScript("make-media.sh", arguments: ["--small", folder.path],
                      log: folder.deletingLastPathComponent().appendingPathComponent("make-media.log"))
        return folder
    }

    /// Runs `scripts/SCRIPT` with bash, its output in `log` (never a pipe), for at most half an
    /// hour (the first run on a loaded machine makes every file).
    /// - Throws: `TestMediaError` naming the log when the script fails.
    static func runScript(_ script: String, arguments: [String], log: URL) throws {
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let child = try ChildProcess(["/bin/bash", packageRoot.appendingPathComponent("scripts/" + script).path] + arguments,
                                     stdout: .appending(log.path), stderr: .appending(log.path))
        let status = child.wait(timeout: 1800)
        child.kill9()
        guard status == .exited(0) else {
            throw TestMediaError(message: "scripts/\(script) \(status.map { "ended with \($0)" } ?? "did not end within 30 minutes"); see \(log.path)")
        }
    }
}

public struct TestMediaError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
