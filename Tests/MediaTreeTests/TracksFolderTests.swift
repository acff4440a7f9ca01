import FuseBridge
import Dispatch
import Foundation
import Logging
import MediaKit
@testable import MediaTree
import Synchronization
import Testing
import TestSupport

/// tracks/ in the tree: listed from the probe alone, one pass per file version for every size and
/// read, files kept in the cache folder and found there again.
@Suite struct TracksFolderTests {
    /// A settings value with a cache folder of the test's own.
    static func settings(cache: TempFolder, languages: [String] = []) -> TreeSettings {
        var settings = TreeSettings()
        settings.cacheDirectory = cache.path("cache")
        settings.preferredLanguages = languages
        return settings
    }

    @Test func listingRunsNoPassAndGivesNamesAndTypesOnly() throws {
        let cache = try TempFolder("tracks-list")
        defer { cache.remove() }
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"], settings: Self.settings(cache: cache))
        // Without a preferred language: stream order (the groups, and the names in the reader's
        // language first, are the tracks scenarios').
        let audible = try fixture.numbered.list(try fixture.lookup("movie-1080p.mkv/tracks/audible").inode)
        #expect(audible.map(\.name) == ["eng English AAC 5.1 [English 5.1].mka", "fra French AC-3 stereo (default) [Français].mka",
                                        "deu German Opus stereo [Deutsch].mka"])
        #expect(audible.allSatisfy { $0.nameAndTypeOnly && $0.type == .regular })
        let legible = try fixture.numbered.list(try fixture.lookup("movie-1080p.mkv/tracks/legible").inode)
        #expect(legible.count == 7 && legible.allSatisfy(\.nameAndTypeOnly))
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 0)
        // The inode numbers listed are those a lookup gives.
        for entry in audible {
            let attributes = try fixture.lookup("movie-1080p.mkv/tracks/audible/" + entry.name.escaped)
            #expect(attributes.inode == entry.inode && attributes.type == .regular && attributes.permissions == 0o444)
        }
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 1)
        // Once its pass is remembered, a listing carries each file's exact size: `ls -l` of the
        // folder then needs no lookup per file.
        let again = try fixture.numbered.list(try fixture.lookup("movie-1080p.mkv/tracks/audible").inode)
        for entry in again {
            let attributes = try fixture.lookup("movie-1080p.mkv/tracks/audible/" + entry.name.escaped)
            #expect(!entry.nameAndTypeOnly && entry.attributes == attributes)
        }
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 1)
    }

    @Test func preferredLanguagesComeFirstInTheListing() throws {
        let cache = try TempFolder("tracks-order")
        defer { cache.remove() }
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"], settings: Self.settings(cache: cache, languages: ["de-AT", "fr"]))
        let audible = try fixture.numbered.list(try fixture.lookup("movie-1080p.mkv/tracks/audible").inode).names
        #expect(audible.map { String($0.prefix(3)) } == ["deu", "fra", "eng"])
        let legible = try fixture.numbered.list(try fixture.lookup("movie-1080p.mkv/tracks/legible").inode).names
        #expect(legible.map { String($0.prefix(3)) } == ["fra", "fra", "fra", "eng", "eng", "eng", "eng"])
        #expect(legible[0].hasSuffix(".srt") && legible[3] == "eng English SRT.srt", "stream order kept within a language")
    }

    @Test func manyAskersShareOnePassAndSizesAreExact() throws {
        let cache = try TempFolder("tracks-share")
        defer { cache.remove() }
        let fixture = try TreeFixture(files: ["movie-1080p.mkv"], settings: Self.settings(cache: cache))
        let folder = "movie-1080p.mkv/tracks/"
        let names = try ["audible", "legible"].flatMap { group in
            try fixture.numbered.list(try fixture.lookup(folder + group).inode).map { group + "/" + $0.name.escaped }
        }
        let sizes = Mutex<[String: Int64]>([:])
        let tree = fixture.numbered
        let group = try fixture.lookup(folder + "audible").inode
        let legible = try fixture.lookup(folder + "legible").inode
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            let name = names[i % names.count]
            let parent = name.hasPrefix("audible/") ? group : legible
            if let size = try? tree.lookup(parent: parent, name: String(name.split(separator: "/")[1])).size {
                sizes.withLock { $0[name] = size }
            }
        }
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 1)
        for name in names {
            let bytes = try fixture.read(folder + name)
            #expect(Int64(bytes.count) == sizes.withLock { $0[name] }, "\(name)")
        }
        #expect(fixture.media.trackPasses(of: fixture.path("movie-1080p.mkv")) == 1)
    }

    /// A second tree on the same cache folder (a remount) finds the files and runs no pass; a file
    /// removed from the cache is made again when it is opened.
    @Test func theCacheFolderServesALaterMount() throws {
        let cache = try TempFolder("tracks-remount")
        defer { cache.remove() }
        let settings = Self.settings(cache: cache)
        let fixture = try TreeFixture(files: ["clips/clip-vp9.webm"], settings: settings)
        let name = "clips/clip-vp9.webm/tracks/legible/eng English WebVTT.vtt"
        let first = try fixture.read(name)
        #expect(fixture.media.trackPasses(of: fixture.path("clips/clip-vp9.webm")) == 1)
        // The set is kept (checksummed, described, indexed) after the answer, on the pass's thread:
        // a remount comes after it (an unmount waits for it), so the second tree does too.
        Wait.until(30) {
            ((try? FileManager.default.subpathsOfDirectory(atPath: cache.path("cache/tracks"))) ?? []).contains { $0.hasSuffix("manifest.json") }
        }

        let media = CountingMediaService()
        let tree = MediaTree(sourceRoot: fixture.source.path, media: media, logger: Logger(label: "test"), settings: settings)
        defer { tree.close() }
        let again = NumberedTree(tree: tree)
        var attributes = try again.attributes(of: NodeKey.rootNumber)
        for part in name.split(separator: "/") { attributes = try again.lookup(parent: attributes.inode, name: String(part)) }
        #expect(attributes.size == Int64(first.count))
        #expect(media.trackPasses(of: fixture.path("clips/clip-vp9.webm")) == 0)
        #expect(tree.statisticsDocument().contains("\"track_sets_from_disk\":1"))

        // Removed from the cache behind the tree's back: opening it makes it again, same bytes.
        let manifests = try FileManager.default.subpathsOfDirectory(atPath: cache.path("cache/tracks"))
            .filter { $0.hasSuffix("/legible/eng English WebVTT.vtt") }
        #expect(manifests.count == 1)
        try FileManager.default.removeItem(atPath: cache.path("cache/tracks/") + manifests[0])
        let content = try again.open(attributes.inode)
        let reread = try content.read(offset: 0, count: first.count + 10)
        #expect(reread == first)
        #expect(media.trackPasses(of: fixture.path("clips/clip-vp9.webm")) == 1)
    }

    /// A changed source is a new version: a new pass, in a folder of its own; nothing stale.
    @Test func aChangedSourceRunsANewPass() throws {
        let cache = try TempFolder("tracks-changed")
        defer { cache.remove() }
        let fixture = try TreeFixture(files: ["clips/clip-vp9.webm"], settings: Self.settings(cache: cache))
        let name = "clips/clip-vp9.webm/tracks/audible/eng English Opus mono.mka"
        let before = try fixture.read(name)
        try fixture.touch("clips/clip-vp9.webm")
        #expect(try fixture.read(name) == before, "the same bytes: only the time changed")
        #expect(fixture.media.trackPasses(of: fixture.path("clips/clip-vp9.webm")) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path("cache/tracks")).count == 2)
    }

    @Test func anUnwritableCacheFolderFallsBackToAPrivateFolder() throws {
        var settings = TreeSettings()
        settings.cacheDirectory = "/proc/mediafs-cannot-be-here"
        let fixture = try TreeFixture(files: ["clips/clip-vp9.webm"], settings: settings)
        let root = try fixture.tree.tracks.root()
        #expect(root.hasPrefix("/tmp/mediafs-tracks-"))
        let track = try fixture.lookup("clips/clip-vp9.webm/tracks/audible/eng English Opus mono.mka")
        #expect(track.size > 0)
        fixture.tree.close()
        #expect(!FileManager.default.fileExists(atPath: root), "removed at unmount")
    }

    /// Without a cache folder the private folder is bounded by `--cache-size` too: the least
    /// recently used set goes, and is made again when asked for.
    @Test func thePrivateFolderIsBoundedByTheCacheSize() throws {
        var settings = TreeSettings()
        settings.cacheDirectory = "/proc/mediafs-cannot-be-here"
        settings.diskCacheBytes = 1
        let fixture = try TreeFixture(files: ["clips/clip-vp9.webm"], settings: settings)
        try FileManager.default.copyItem(atPath: fixture.path("clips/clip-vp9.webm"), toPath: fixture.path("clips/copy.webm"))
        let root = try fixture.tree.tracks.root()
        let sets = { try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") } }
        let name = "tracks/audible/eng English Opus mono.mka"
        let first = try fixture.read("clips/clip-vp9.webm/" + name)
        #expect(try sets().count == 1)
        _ = try fixture.read("clips/copy.webm/" + name)
        #expect(try sets().count == 1, "the older set was removed: both do not fit")
        #expect(fixture.tree.tracks.privateBytes > 0)
        #expect(try fixture.read("clips/clip-vp9.webm/" + name) == first, "made again, the same bytes")
        #expect(fixture.media.trackPasses(of: fixture.path("clips/clip-vp9.webm")) == 2)
        #expect(try sets().count == 1)
    }

    @Test func filesWithoutAudioOrSubtitlesHaveNoTracks() throws {
        let fixture = try TreeFixture(files: ["clips/clip-vp9.webm"])
        let silent = fixture.path("clips/silent.webm")
        let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", fixture.path("clips/clip-vp9.webm"),
                                    "-map", "0:v", "-c", "copy", silent])
        #expect(made.succeeded, "\(made)")
        let folder = try fixture.lookup("clips/silent.webm")
        #expect(try fixture.numbered.list(folder.inode).names == MediaFolderLayout.names("silent.webm", MediaFacts(tracks: false)))
        #expect(throws: TreeError.notFound) { try fixture.numbered.lookup(parent: folder.inode, name: "tracks") }
        // The WebM clip's groups, and nothing visual with one video stream, are the tracks scenarios'.
    }

    @Test func languageOrderIsStableAndRanksExactMatchesFirst() {
        func entry(_ language: String, _ stream: Int) -> TrackPlan.Entry {
            TrackPlan.Entry(group: .audible, name: "\(language) \(stream).mka", streamIndex: stream,
                            output: .audioMatroska, language: language)
        }
        let entries = [entry("eng", 1), entry("fre", 2), entry("und", 3), entry("fr-CA", 4), entry("deu", 5)]
        #expect(TrackOrder.ordered(entries, preferred: []) == entries)
        #expect(TrackOrder.ordered(entries, preferred: ["fr-CA"]).map(\.streamIndex) == [4, 2, 1, 3, 5])
        #expect(TrackOrder.ordered(entries, preferred: ["de", "en"]).map(\.streamIndex) == [5, 1, 2, 3, 4])
        #expect(TrackOrder.ordered(entries, preferred: ["C", "ja"]).map(\.streamIndex) == [1, 2, 3, 4, 5])
    }
}
