import Foundation
import MediaTree
import Testing

/// The scenario suites, each written once against `TreeClient` and run twice (rclone's
/// `vfs/vfstest`): directly against a `MediaTree` (MediaTreeTests/ScenarioTests.swift) and through
/// a real mount (IntegrationTests/MountedScenarioTests.swift). A group is the settings its tree or
/// mount is made with and its scenarios. Each side has a parameterized test per group whose
/// arguments are the group's scenarios, one test case each (rclone's `t.Run` per case), run one at
/// a time over one source and one tree or mount (`ScenarioScope`).
///
/// What a scenario expects is what the suites written for one side alone expect (MediaTreeTests,
/// BrowsingTests, ThumbsTests, ChaptersTests, TracksTests); what only one side can see (how many
/// probes or passes a request makes, the daemon's log, several readers at once) stays there. A
/// scenario must hold whichever of its group's scenarios ran before it on the same tree, and
/// alone: what it counts, it counts from before to after.
public struct ScenarioGroup: Sendable, CustomTestStringConvertible {
    public let name: String
    /// The reader's languages (`TreeSettings.preferredLanguages`, `--languages`); empty: none.
    public let languages: [String]
    /// The scenarios, in the order they run, each knowing its group's name.
    public let scenarios: [Scenario]
    /// The layout the tree or mount shows (`--layout`).
    public var layout: TreeLayout
    /// Makes the source the scenarios read, in a new folder at the path given.
    public var makeSource: @Sendable (String) throws -> Void

    public var testDescription: String { name }

    init(name: String, languages: [String], scenarios: [Scenario], layout: TreeLayout = .folders,
         makeSource: @escaping @Sendable (String) throws -> Void = ScenarioSource.make) {
        self.name = name
        self.languages = languages
        self.scenarios = scenarios.map { $0.placed(in: name) }
        self.layout = layout
        self.makeSource = makeSource
    }

    /// Every group, in the order they run.
    public static let all: [ScenarioGroup] = [browsing, thumbs, chapters, tracks, server]

    /// The settings of a tree for this group, with its cache in `cacheDirectory` (as a mount's is
    /// in a folder of the test's own).
    public func treeSettings(cacheDirectory: String) -> TreeSettings {
        var settings = TreeSettings()
        settings.preferredLanguages = languages
        settings.cacheDirectory = cacheDirectory
        settings.layout = layout
        return settings
    }

    /// The arguments of `mediafs mount` for this group: the same languages, always said (without
    /// the option the daemon takes the environment's), and the layout.
    public var mountArguments: [String] { ["--languages", languages.joined(separator: ","), "--layout", layout.rawValue] }
}

/// One scenario: a name and checks made through a `TreeClient`. Write its body `{ c throws in … }`:
/// a `try` inside `#expect` alone does not make a closure throwing (the macro is expanded after the
/// closure's type is inferred), and the expansion then fails to build.
///
/// A test case of its group's test, shown by its name; its `id`, `GROUP/NAME`, is what
/// `MEDIAFS_SCENARIO` selects by (`ScenarioGroup.selected`) and makes the case's identity stable
/// from run to run, for tools that run one case again.
public struct Scenario: Sendable, Identifiable, CustomTestStringConvertible {
    public let name: String
    /// The name of its group (`ScenarioGroup.init` sets it).
    public private(set) var group = ""
    let body: @Sendable (ScenarioContext) throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (ScenarioContext) throws -> Void) {
        self.name = name
        self.body = body
    }

    public var id: String { group + "/" + name }
    public var testDescription: String { name }

    func placed(in group: String) -> Scenario {
        var placed = self
        placed.group = group
        return placed
    }

    /// Runs the scenario against the client and source of its group's scope (`ScenarioScope`).
    /// - Throws: what a check throws, or `HarnessError` outside a test with that scope.
    public func run() throws {
        guard let context = ScenarioContext.current else {
            throw HarnessError("scenario \(id) run outside its group's scope (a test without .scenarios(…))")
        }
        try body(context)
    }
}

/// What a scenario runs with: the client, and the source folder it reads.
public struct ScenarioContext: Sendable {
    public let client: any TreeClient
    /// The source folder (made by `ScenarioSource.make(at:)`).
    public let source: String

    /// The context of the group whose test is running (`ScenarioScope`).
    @TaskLocal static var current: ScenarioContext?

    /// The bytes of the source file at `relative`.
    func sourceBytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/" + relative)))
    }

    /// "through the tree" or "through the mount", with `what`, for the messages of checks.
    func at(_ what: String) -> Comment {
        Comment(rawValue: "\(what) (through the \(client.kind))")
    }
}

/// The source every scenario group reads: a few files of the test library (`TestMedia`) and of
/// the chapter media (`ChapterMedia`, in `chapters/`), copied into a folder of the test's own.
public enum ScenarioSource {
    /// Files of the test library, by relative path.
    public static let libraryFiles = [
        "feature-1080p.mp4", "movie-1080p.mkv", "notes.txt", "broken/empty.mp4", "clips/clip-vp9.webm",
        "audio/song.mp3", "audio/audiobook.m4a",
    ]
    /// Files of the chapter media, copied into `chapters/`.
    public static let chapterFiles = ["multilingual.mkv", "two-languages.mp4"]

    /// The files that are media folders in the tree, by relative path, and what each has.
    public static let media: [String: MediaFacts] = Dictionary(uniqueKeysWithValues:
        libraryFiles.compactMap { relative in Library.media[relative].map { (relative, $0) } }
            + chapterFiles.map { ("chapters/" + $0, ChapterMedia.media[$0]!) })

    /// The files that are media folders in the tree, by relative path.
    public static var mediaFiles: Set<String> { Set(media.keys) }

    /// The names the media folder of `relative` lists, in the tree's order.
    public static func folderNames(_ relative: String) -> [String] {
        MediaFolderLayout.names(Library.fileName(relative), media[relative]!)
    }

    /// Copies the files into a new folder `path`.
    /// - Throws: `TestMediaError` when the media cannot be made, or a copying error.
    public static func make(at path: String) throws {
        let copies = try libraryFiles.map { ($0, try TestMedia.file($0)) }
            + chapterFiles.map { ("chapters/" + $0, try ChapterMedia.file($0)) }
        for (relative, origin) in copies {
            let target = URL(fileURLWithPath: path).appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: origin, to: target)
        }
    }
}

// MARK: Checks the scenarios share

/// The signatures the scenarios check images by.
enum Signature {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
}

extension ScenarioContext {
    /// The listing of `path` with each entry stat'ed: the type and inode number `stat` gives are
    /// those listed, and so is the size where the listing tells one.
    @discardableResult
    func listAndStat(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [(ListedEntry, EntryStatus)] {
        try client.list(path).map { entry in
            let status = try client.stat(client.join(path, entry.name))
            let what = at(client.join(path, entry.name))
            #expect(status.type == entry.type, what, sourceLocation: sourceLocation)
            #expect(status.inode == entry.inode, what, sourceLocation: sourceLocation)
            if let size = entry.size { #expect(status.size == size, what, sourceLocation: sourceLocation) }
            return (entry, status)
        }
    }

    /// Reads the file at `path` whole: as many bytes as `stat` says; the bytes.
    @discardableResult
    func readWhole(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let size = try client.stat(path).size
        let bytes = try client.read(path)
        #expect(Int64(bytes.count) == size, at("\(path): stat \(size), read \(bytes.count)"), sourceLocation: sourceLocation)
        return bytes
    }

    /// The errno a `stat` of `path` fails with (nil when it does not).
    func statFailure(_ path: String) -> Int32? {
        client.failure { () throws(CallError) in try client.stat(path) }
    }

    /// An extended attribute as text.
    func attributeText(_ name: String, of path: String) throws -> String {
        String(decoding: try client.extendedAttribute(name, of: path), as: UTF8.self)
    }

    /// `user.mediafs.stats` of the root, by field.
    func statistics() throws -> [String: Int] {
        let bytes = try client.extendedAttribute("user.mediafs.stats", of: "")
        return (try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Int]) ?? [:]
    }

    /// How many of each kind the tree has made so far: the `KIND_made` fields of `statistics()`.
    func made() throws -> [String: Int] {
        try statistics().filter { $0.key.hasSuffix("_made") }
    }

    /// The kinds made since `before` (a `made()`), with how many more; without `tracks`, not the
    /// track files and passes, which a `stat` of a track runs (its size is known only then).
    func made(since before: [String: Int], tracks: Bool = true) throws -> [String: Int] {
        var more: [String: Int] = [:]
        for (kind, count) in try made() where count != before[kind, default: 0] {
            if tracks || (kind != "tracks_made" && !kind.hasSuffix("_sets_made")) { more[kind] = count - before[kind, default: 0] }
        }
        return more
    }
}
