import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// tracks/ through mounts of their own, which count the passes they run: a listing runs none, a
/// file's pass makes all its tracks, once, kept on disk for the next mount; a cache folder that
/// cannot be written.
@Suite(.mounts) struct TrackPassesTests {
    /// The groups and names of files the scenarios do not have (`TrackChecks.addTestFiles`): audio
    /// alone, no track at all, two video streams; listing runs no pass, visual/ a pass of its own.
    @Test func namesFlagsAndGroups() throws {
        try LibraryMount.with("tracks-names", arguments: ["--languages", "fr"], prepare: TrackChecks.addTestFiles) { library in
            let mount = library.client
            // Audio without subtitles: audible/ alone. No audio and no subtitles: no tracks/.
            #expect(try mount.names("clips/Holiday Café 2021.mp4/tracks") == MediaFolderLayout.markers + ["audible"])
            #expect(try mount.names("clips/silent.mp4") == MediaFolderLayout.names("silent.mp4", MediaFacts(tracks: false)))
            #expect(mount.failure { () throws(CallError) in try mount.stat("clips/silent.mp4/tracks") } == ENOENT)
            // Two video streams: both are angles in visual/, made by a pass of their own.
            #expect(try mount.names("clips/angles.mkv/tracks") == MediaFolderLayout.markers + ["audible", "visual"])
            #expect(try mount.sortedNames("clips/angles.mkv/tracks/visual") == [
                "und Undetermined H.264 640x360 (default).mkv", "und Undetermined VP9 320x180.mkv",
            ])
            #expect(try library.statistics()["track_sets_made"] == 0, "listing runs no pass")
            expectSuccess(try Command.run(["ls", "-l", library.path("clips/angles.mkv/tracks/audible")]))
            #expect(try library.statistics()["track_sets_made"] == 1)
            for (name, codec, width) in [("und Undetermined H.264 640x360 (default).mkv", "h264", 640),
                                         ("und Undetermined VP9 320x180.mkv", "vp9", 320)] {
                let streams = try FFprobe.streams(library.path("clips/angles.mkv/tracks/visual/" + name))
                #expect(streams.map { [$0["codec_type"] as? String, $0["codec_name"] as? String] } == [["video", codec]], "\(name)")
                #expect(streams.map { $0["width"] as? Int } == [width], "\(name)")
            }
            #expect(try library.statistics()["track_sets_made"] == 2, "visual/ has a pass of its own")
        }
    }

    /// A plain listing runs no pass; sizes run one per file however many ask; a remount on the
    /// same cache folder runs none.
    @Test func onePassPerFileKeptOnDisk() throws {
        let folder = try TempFolder("tracks-passes")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let point = try folder.makeFolder("mnt")
        let arguments = TracksTests.plain + ["--cache-dir", folder.path("cache")]
        let media = ["feature-1080p.mp4", "movie-1080p.mkv", "clips/clip-vp9.webm"]
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: arguments) { mount in
            let client = MountedTreeClient(point: point)
            // Listing every tracks folder of the library, and find over the whole mount: no pass.
            expectSuccess(try Command.shell(#"cd "$1" && ls */tracks/*/ clips/*/tracks/*/ >/dev/null && find . >/dev/null"#, [point]))
            expectSuccess(try Command.run(["ls", "-R", point]))
            #expect(try client.statistics()["track_sets_made"] == 0)
            // Eight readers stat'ing every track of the MKV at once: one pass.
            let folder = "movie-1080p.mkv/tracks"
            let groups = try client.names(folder).filter { !MediaFolderLayout.isMarker($0) }
            let names = try groups.flatMap { group in try client.names(folder + "/" + group).map { "\(folder)/\(group)/\($0)" } }
            let seen = Mutex<(sizes: [String: Set<Int64>], errors: [String])>(([:], []))
            Threads.run(8) { k in
                for name in names[k...] + names[..<k] {
                    do {
                        let size = try client.stat(name).size
                        seen.withLock { _ = $0.sizes[name, default: []].insert(size) }
                    } catch {
                        seen.withLock { $0.errors.append("\(error)") }
                    }
                }
            }
            let (sizes, errors) = seen.withLock { ($0.sizes, $0.errors) }
            #expect(errors.isEmpty && sizes.count == 10 && sizes.values.allSatisfy { $0.count == 1 }, "\(errors) \(sizes)")
            #expect(try client.statistics()["track_sets_made"] == 1)
            for file in media { expectSuccess(try Command.run(["ls", "-l", mount.path(file + "/tracks/audible"), mount.path(file + "/tracks/legible")])) }
            #expect(try client.statistics()["track_sets_made"] == 3, "one pass per file")
            for file in media { expectSuccess(try Command.run(["ls", "-l", mount.path(file + "/tracks/audible"), mount.path(file + "/tracks/legible")])) }
            let stats = try client.statistics()
            #expect(stats["track_sets_made"] == 3 && stats["tracks_made"] == 4 + 10 + 3 && stats["track_failures"] == 0, "\(stats)")
        }
        // The same cache folder on the next mount: every size from the listing facts (no set is
        // loaded to list), the bytes of the track read from disk (its set only), nothing made.
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: arguments) { mount in
            for file in media { expectSuccess(try Command.run(["ls", "-l", mount.path(file + "/tracks/audible"), mount.path(file + "/tracks/legible")])) }
            let client = MountedTreeClient(point: point)
            #expect(try client.statistics()["track_sets_from_disk"] == 0)
            let track = "movie-1080p.mkv/tracks/audible/deu German Opus stereo [Deutsch].mka"
            #expect(try client.read(track).count == Int(try client.stat(track).size))
            let stats = try client.statistics()
            #expect(stats["track_sets_made"] == 0 && stats["track_sets_from_disk"] == 1, "\(stats)")
        }
    }

    /// A cache folder that cannot be written: a warning, the tracks in a private folder under
    /// /tmp, removed at unmount.
    @Test func anUnwritableCacheFolderFallsBackToAPrivateOne() throws {
        let folder = try TempFolder("tracks-unwritable")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try TestMedia.file("clips/clip-vp9.webm").path, toPath: source + "/clip-vp9.webm")
        let point = try folder.makeFolder("mnt")
        let mount = try Mount(source: source, point: point, log: folder.path("mediafs.log"),
                              arguments: TracksTests.plain + ["--cache-dir", "/proc/mediafs-cannot-be-here"])
        defer { mount.teardown() }
        let track = mount.path("clip-vp9.webm/tracks/legible/eng English WebVTT.srt")
        let text = expectSuccess(try Command.run(["cat", track])).stdout
        #expect(text.hasPrefix("1\n00:00:00,0") && text.contains("\neng #1: \(TracksTests.english)\n"), "\(text)")
        let line = mount.log.split(separator: "\n").first { $0.contains("tracks are kept in") }.map(String.init) ?? ""
        let privateFolder = line.components(separatedBy: "tracks are kept in ").last?.components(separatedBy: " until").first ?? ""
        #expect(privateFolder.hasPrefix("/tmp/mediafs-tracks-"), "\(mount.log)")
        #expect(FileManager.default.fileExists(atPath: privateFolder))
        try mount.finish()
        #expect(!privateFolder.isEmpty && !FileManager.default.fileExists(atPath: privateFolder), "removed at unmount")
    }
}
