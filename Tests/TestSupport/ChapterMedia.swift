import Foundation

/// Small files with rich chapters (several languages, editions, chapter tracks and images), made by
/// `scripts/make-chapter-media.sh` the first time a test asks for them and kept in
/// `.build/test-media/chapters` until the script changes.
public enum ChapterMedia {
    private static let made = Result { try make() }

    /// The folder holding the files. Made once per test process.
    /// - Throws: `TestMediaError` when a tool is missing or the script fails.
    public static func folder() throws -> URL { try made.get() }

    /// A file of the folder by name, e.g. `"multilingual.mkv"`.
    public static func file(_ name: String) throws -> URL {
        try folder().appendingPathComponent(name)
    }

    private static func make() throws -> URL {
        let root = TestMedia.packageRoot
        let folder = root.appendingPathComponent(".build/test-media/chapters")
        let log = root.appendingPathComponent(".build/test-media/make-chapter-media.log")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("scripts/make-chapter-media.sh").path, folder.path]
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestMediaError(message: "scripts/make-chapter-media.sh failed with status \(process.terminationStatus); see \(log.path)")
        }
        return folder
    }
}
