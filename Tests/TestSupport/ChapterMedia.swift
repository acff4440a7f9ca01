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
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try TestMedia.runScript("make-chapter-media.sh", arguments: [folder.path],
                                log: root.appendingPathComponent(".build/test-media/make-chapter-media.log"))
        return folder
    }
}
