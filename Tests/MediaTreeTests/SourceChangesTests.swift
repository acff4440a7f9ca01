@testable import FuseBridge
import Foundation
import Glibc
@testable import MediaTree
import Synchronization
import Testing
import TestSupport

/// From source changes to the names and nodes the kernel must forget, and the watcher behind them.
@Suite struct SourceChangesTests {
    /// The invalidations of `changes`, as readable text: `entry <parent path>/<name>`, `inode <path>`.
    private func described(_ fixture: TreeFixture, _ changes: SourceChanges) -> Set<String> {
        Set(fixture.numbered.invalidations(after: changes).map { invalidation in
            switch invalidation {
            case .entry(let parent, let name):
                let folder = path(of: parent, in: fixture)
                return "entry \(folder == "/" ? "" : folder)/\(name)"
            case .inode(let inode): return "inode \(path(of: inode, in: fixture))"
            }
        })
    }

    /// A number's path through the mount, from where the table says it was named.
    private func path(of inode: UInt64, in fixture: TreeFixture) -> String {
        var number = inode
        var names: [String] = []
        while let entry = fixture.numbered.table.entry(number) {
            switch entry.origin {
            case .lookedUp(let parent, let name, _):
                names.insert(name.escaped, at: 0)
                number = parent
            case .listed(let listing, let index):
                names.insert(listing.name(at: index).escaped, at: 0)
                number = listing.folder
            case .root, .tombstone:
                return "/" + names.joined(separator: "/")
            }
        }
        return "?/" + names.joined(separator: "/")
    }

    @Test func aChangedMediaFileMakesItsWholeFolderStale() throws {
        let fixture = try TreeFixture()
        let movie = "clips/clip-vp9.webm"
        let folder = try fixture.lookup(movie).inode
        let listing = try NumberedTree.wait { fixture.numbered.listing(of: folder, reply: $0) }
        // As readdirplus gives them: every entry numbered.
        for index in listing.entries.indices { _ = fixture.numbered.enter(listing, index: index) }
        _ = try fixture.lookup(movie + "/thumbs/at-1s.png")
        _ = try fixture.lookup("feature-1080p.mp4/info.json")  // another file: not touched
        let stale = described(fixture, SourceChanges(paths: [SourcePath(movie)]))
        for expected in ["entry /clips/clip-vp9.webm", "inode /clips", "inode /clips/clip-vp9.webm",
                         "entry /clips/clip-vp9.webm/info.json", "inode /clips/clip-vp9.webm/info.json",
                         "entry /clips/clip-vp9.webm/clip-vp9.webm", "inode /clips/clip-vp9.webm/clip-vp9.webm",
                         "entry /clips/clip-vp9.webm/thumbs", "inode /clips/clip-vp9.webm/thumbs",
                         "entry /clips/clip-vp9.webm/thumbs/at-1s.png", "inode /clips/clip-vp9.webm/thumbs/at-1s.png",
                         "entry /clips/clip-vp9.webm/tracks", "inode /clips/clip-vp9.webm/tracks"] {
            #expect(stale.contains(expected), "\(expected) not in \(stale.sorted())")
        }
        #expect(!stale.contains { $0.contains("feature-1080p") || $0 == "inode /" }, "\(stale.sorted())")
    }

    @Test func aChangedFolderMakesEverythingUnderItStale() throws {
        let fixture = try TreeFixture()
        _ = try fixture.lookup("clips/clip-vp9.webm/info.json")
        _ = try fixture.lookup("notes.txt")
        let stale = described(fixture, SourceChanges(paths: ["clips"]))
        #expect(stale.isSuperset(of: ["entry /clips", "inode /", "inode /clips", "entry /clips/clip-vp9.webm",
                                      "inode /clips/clip-vp9.webm", "inode /clips/clip-vp9.webm/info.json"]),
                "\(stale.sorted())")
        #expect(!stale.contains { $0.contains("notes.txt") }, "\(stale.sorted())")
    }

    @Test func aNewNameMakesOnlyItsFolderStale() throws {
        let fixture = try TreeFixture()
        _ = try fixture.lookup("clips/clip-vp9.webm")
        #expect(described(fixture, SourceChanges(paths: ["clips/new.mkv"])) == ["entry /clips/new.mkv", "inode /clips"])
        // Under a folder the tree never numbered, the kernel can hold nothing.
        #expect(described(fixture, SourceChanges(paths: ["unseen/new.mkv"])).isEmpty)
    }

    @Test func lostEventsMakeEveryNumberedNodeStale() throws {
        let fixture = try TreeFixture()
        _ = try fixture.lookup("clips/clip-vp9.webm/info.json")
        let stale = fixture.numbered.invalidations(after: SourceChanges(everything: true))
        let inodes = Set(stale.compactMap { if case .inode(let n) = $0 { n } else { nil } })
        #expect(inodes.count == fixture.numbered.count - 1, "every number but the root's")
    }

    @Test func aForgottenNumberNamesNothingUntilItsNodeIsSeenAgain() throws {
        let fixture = try TreeFixture()
        let movie = "clips/clip-vp9.webm"
        let thumbnail = try fixture.lookup(movie + "/thumbs/at-1s.png").inode
        let count = fixture.numbered.count
        fixture.numbered.forget(thumbnail, count: 1)
        #expect(!fixture.numbered.holds(thumbnail))
        #expect(fixture.numbered.count == count - 1)
        #expect(throws: TreeError.notFound) { try fixture.numbered.attributes(of: thumbnail) }
        // A change names only what the table holds: the kernel cannot hold the forgotten number.
        let stale = fixture.numbered.invalidations(after: SourceChanges(paths: [SourcePath(movie)]))
        let folder = try fixture.lookup(movie).inode
        #expect(!stale.contains(Invalidation.inode(thumbnail)) && stale.contains(Invalidation.inode(folder)))
        // Seen again, the node has its number again: numbers are hashes of what nodes stand for.
        let again = try fixture.lookup(movie + "/thumbs/at-1s.png").inode
        #expect(again == thumbnail)
        #expect(fixture.numbered.holds(thumbnail))
        fixture.numbered.forget(NodeKey.rootNumber, count: 100)
        #expect(fixture.numbered.holds(NodeKey.rootNumber))
    }

    @Test func numbersAreTheSameInEveryTreeOverTheSameFiles() throws {
        let first = try TreeFixture()
        let second = TreeFixture(source: first.source, settings: TreeSettings())
        // Different orders of first sight.
        let names = ["feature-1080p.mp4/info.json", "clips/clip-vp9.webm/thumbs/at-2s.png", "notes.txt",
                     "clips/clip-vp9.webm", "feature-1080p.mp4/thumbs"]
        let forward = try names.map { try first.lookup($0).inode }
        let backward = try names.reversed().map { try second.lookup($0).inode }
        #expect(forward == Array(backward.reversed()))
        #expect(Set(forward).count == names.count && forward.allSatisfy { $0 > 1 && $0 < 1 << 63 })
    }

    @Test func theBatcherCoalescesBurstsWithinABound() {
        var batcher = ChangeBatcher(quiet: 0.25, longest: 1.0)
        #expect(batcher.nextDue == nil)
        batcher.note("a.mkv", at: 10.0)
        batcher.note("b.txt", at: 10.1)
        #expect(batcher.nextDue == 10.25)
        #expect(batcher.take(at: 10.2).isEmpty)
        #expect(batcher.take(at: 10.3) == SourceChanges(paths: ["a.mkv"]))
        // A file written without pause is still reported every `longest` seconds.
        for tick in stride(from: 10.3, through: 11.1, by: 0.1) { batcher.note("b.txt", at: tick) }
        #expect(batcher.take(at: 11.05).isEmpty)
        #expect(batcher.take(at: 11.1) == SourceChanges(paths: ["b.txt"]))
        #expect(batcher.nextDue == nil)
        batcher.note("c", at: 20)
        batcher.noteEverything(at: 20.1)
        #expect(batcher.take(at: 20.4) == SourceChanges(everything: true))
        #expect(batcher.nextDue == nil)
    }

    /// The real watcher over a real folder: additions, removals, renames, writes and new folders
    /// are each reported within 2 s.
    @Test func theWatcherReportsEachKindOfChange() throws {
        let fixture = try TreeFixture(files: ["notes.txt"])
        let reported = Mutex<[SourceChanges]>([])
        let watcher = try SourceWatcher(root: fixture.source.path, logger: .init(label: "test")) { changes in
            reported.withLock { $0.append(changes) }
        }
        watcher.start()
        defer { watcher.stop() }
        #expect(watcher.waitUntilWatching(seconds: 10))
        func expectReported(_ rel: String, after change: () throws -> Void) rethrows {
            reported.withLock { $0 = [] }
            let start = Date()
            try change()
            let seen = Wait.until(10) { reported.withLock { $0.contains { $0.paths.contains(SourcePath(rel)) } } }
            #expect(seen, "\(rel) not reported within 10 s (\(Date().timeIntervalSince(start)) s)")
        }
        try expectReported("added.txt") { try "x".write(toFile: fixture.path("added.txt"), atomically: false, encoding: .utf8) }
        try expectReported("notes.txt") {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.path("notes.txt")))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more\n".utf8))
            try handle.close()
        }
        expectReported("renamed.txt") { #expect(rename(fixture.path("added.txt"), fixture.path("renamed.txt")) == 0) }
        try expectReported("new") { try FileManager.default.createDirectory(atPath: fixture.path("new"), withIntermediateDirectories: false) }
        // The new folder is watched too.
        try expectReported("new/inside.txt") { try "y".write(toFile: fixture.path("new/inside.txt"), atomically: false, encoding: .utf8) }
        expectReported("renamed.txt") { #expect(unlink(fixture.path("renamed.txt")) == 0) }
        #expect(watcher.watchesEverything)
    }
}
