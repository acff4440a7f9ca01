import Foundation
import Glibc
import Testing
import TestSupport

/// The server layout through a real mount (`--layout server`), read by the clients that read it:
/// mpv loads the sidecars by itself (asked through its JSON IPC socket); the trickplay sheets and
/// the BIF (read by Roku's format, `BIFReader`) show the keyframes nearest their times; `cp -r`,
/// `rsync -a` and Samba copy every file whole; `find` makes nothing; `mediafs warm` makes it all.
/// (Names, bytes against the ffmpeg command and sizes are the server scenarios'.)
@Suite(.mounts) struct ServerMountTests {
    /// Mounts a folder holding the server test film (`ServerMedia`) in the server layout.
    static func withServerFilm<T>(_ name: String, arguments: [String] = [],
                                  _ body: (TempFolder, Mount) throws -> T) throws -> T {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try ServerMedia.film().path, toPath: source + "/subtitled.mkv")
        return try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                              arguments: ["--layout", "server"] + arguments) { mount in try body(folder, mount) }
    }

    // MARK: mpv

    /// mpv (`--sub-auto=fuzzy`) attaches every sidecar, and each without a flag in its name with its
    /// language; with its default (`exact`) one per language of a track without flags.
    @Test(.enabled(if: MpvPlayer.program != nil, "mpv is not installed (Debian: apt-get install mpv)"))
    func mpvAttachesTheSidecars() throws {
        try Self.withServerFilm("server-mpv") { folder, mount in
            let film = mount.path("subtitled.mkv")
            let fuzzy = try MpvPlayer(file: film, options: ["--sub-auto=fuzzy"], folder: folder.path)
            let attached = try fuzzy.tracks().filter { $0.type == "sub" && $0.external }
            fuzzy.quit()
            // mpv takes the language from the last dot-part of two or three letters (a VobSub's from
            // its .idx: `it`), and reads no flag: a flagged name has none, or the flag (`sdh`).
            let expected: [String: String?] = [
                "subtitled.eng.srt": "eng", "subtitled.ger.srt": "ger", "subtitled.Kommentar.ger.srt": "ger",
                "subtitled.fre.ass": "fre", "subtitled.spa.sup": "spa", "subtitled.ita.idx": "it",
                "subtitled.eng.forced.srt": nil, "subtitled.eng.sdh.srt": "sdh",
            ]
            #expect(Set(attached.compactMap(\.file)) == Set(expected.keys), "\(attached)")
            for track in attached {
                #expect(track.language == expected[track.file ?? ""] ?? nil, "\(track)")
            }
            let exact = try MpvPlayer(file: film, folder: folder.path)
            let loaded = try exact.tracks().filter { $0.type == "sub" && $0.external }
            exact.quit()
            #expect(Set(loaded.compactMap(\.file)) == ["subtitled.eng.srt", "subtitled.ger.srt", "subtitled.fre.ass", "subtitled.spa.sup",
                                                       "subtitled.ita.idx"], "\(loaded)")
            #expect(Set(loaded.compactMap(\.language)) == ["eng", "ger", "fre", "spa", "it"], "\(loaded)")
        }
    }

    // MARK: trickplay and BIF

    /// On a clip whose every frame carries its index (`StoryboardTests.makeClip`: 30 s, a keyframe
    /// every 1.2 s), a tile every 2 s in sheets of 4 × 3: each tile of the trickplay's sheets and each
    /// frame of the BIF is the keyframe nearest its time (ffprobe's list), and the last sheet is the
    /// full grid, black after its last tile.
    @Test func trickplayAndBIFShowTheKeyframesNearestTheirTimes() throws {
        let folder = try TempFolder("server-keyframes")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try StoryboardTests.makeClip(source + "/clip.mp4")
        let keyframes = try Self.keyframeIndices(source + "/clip.mp4")
        func nearest(_ seconds: Double) -> Int {
            keyframes.min { (abs(Double($0) / 25 - seconds), $0) < (abs(Double($1) / 25 - seconds), $1) }!
        }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: ["--layout", "server", "--storyboard-interval", "2", "--storyboard-grid", "4x3"]) { mount in
            let grid = mount.path("clip.trickplay/320 - 4x3")
            let client = MountedTreeClient(point: mount.point)
            #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path("clip.trickplay")) == ["320 - 4x3"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: grid).sorted() == ["0.jpg", "1.jpg"])
            // 15 tiles: 12 on sheet 0, 3 on sheet 1, whose other 9 are black.
            for sheet in 0..<2 {
                let image = try StoredPNG(decodingJPEG: try client.read("clip.trickplay/320 - 4x3/\(sheet).jpg"), width: 1280, height: 540)
                for place in 0..<12 {
                    let tile = image.region(x: place % 4 * 320, y: place / 4 * 180, width: 320, height: 180)
                    let index = sheet * 12 + place
                    if index < 15 {
                        #expect(FrameIndexStrip.read(tile) == nearest(Double(index) * 2), "sheet \(sheet) tile \(place)")
                    } else {
                        #expect(tile.meanBrightness < 16, "sheet \(sheet) tile \(place) is not black")
                    }
                }
            }
            let bif = try BIFReader(try client.read("clip-320-2.bif"))
            #expect(bif.imageCount == 15 && bif.multiplier == 2000)
            for (index, frame) in bif.frames.enumerated() {
                let image = try StoredPNG(decodingJPEG: frame.jpeg, width: 320, height: 180)
                #expect(frame.milliseconds == index * 2000)
                #expect(FrameIndexStrip.read(image) == nearest(Double(index) * 2), "BIF frame \(index)")
            }
        }
    }

    /// The frame indices of the keyframes of `file`'s video, counted from its first frame, by ffprobe.
    static func keyframeIndices(_ file: String) throws -> [Int] {
        let probe = try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                     "frame=key_frame,best_effort_timestamp_time", "-of", "csv=p=0", file], timeout: 60)
        let frames = probe.stdout.split(separator: "\n").compactMap { line -> (Bool, Double)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[1]) else { return nil }
            return (fields[0] == "1", time)
        }
        let first = frames.map(\.1).min() ?? 0
        return frames.filter(\.0).map { Int((($0.1 - first) * 25).rounded()) }.sorted()
    }

    // MARK: copies, find, warm

    /// `find` of the whole layout makes nothing; `cp -r` and `rsync -a` then copy every file whole,
    /// each as long as `stat` said before it was read.
    @Test func findMakesNothingAndCopiesAreWhole() throws {
        try Self.withServerFilm("server-copies") { folder, mount in
            expectSuccess(try Command.run(["find", mount.point], timeout: 60))
            let afterFind = try MountedTreeClient(point: mount.point).statistics()
            #expect(afterFind.filter { $0.key.hasSuffix("_made") && $0.value != 0 }.isEmpty, "\(afterFind)")
            let sizes = try Self.sizes(under: mount.point)
            #expect(sizes.count == 13 + 1, "\(sizes.keys.sorted())")  // the film, 12 made files, a sheet
            expectSuccess(try Command.run(["cp", "-r", mount.point, folder.path("cp")], timeout: 120))
            expectSuccess(try Command.run(["rsync", "-a", mount.point + "/", folder.path("rsync/")], timeout: 120))
            for copy in ["cp", "rsync"] {
                #expect(try Self.sizes(under: folder.path(copy)) == sizes, "\(copy)")
                expectSuccess(try Command.run(["diff", "-r", mount.point, folder.path(copy)], timeout: 60), copy)
            }
        }
    }

    /// Every file under `root` by relative path, with its size as `stat` gives it.
    static func sizes(under root: String) throws -> [String: Int] {
        let listing = try Command.shell(#"cd "$1" && find . -type f -printf '%s %P\n'"#, [root], timeout: 60)
        return Dictionary(uniqueKeysWithValues: listing.stdout.split(separator: "\n").map { line in
            let space = line.firstIndex(of: " ")!
            return (String(line[line.index(after: space)...]), Int(line[..<space])!)
        })
    }

    /// Every file fetched over SMB (smbclient's `mget` of the whole share) is the file read through
    /// the mount, as long as `stat` says.
    @Test(.needsRoot(for: "smbd, which switches to the guest user, and a mount that lets it in (allow_other)"),
          .enabled(if: SambaServer.program != nil, "smbd is not installed (Debian: apt-get install samba)"),
          .enabled(if: SambaServer.client != nil, "smbclient is not installed (Debian: apt-get install smbclient)"))
    func filesFetchedOverSMBAreWhole() throws {
        try Self.withServerFilm("server-samba", arguments: ["-o", "allow_other"]) { folder, mount in
            #expect(chmod(folder.path, 0o711) == 0)
            let server = try SambaServer.startedOrCancelled(folder: try folder.makeFolder("smb"), share: mount.point)
            defer { server.stop() }
            let fetched = try folder.makeFolder("fetched")
            let fetch = expectSuccess(try server.client("prompt; recurse; mget *", directory: fetched))
            #expect(!(fetch.stdout + fetch.stderr).contains("NT_STATUS"), "\(fetch)")
            let sizes = try Self.sizes(under: mount.point)
            #expect(try Self.sizes(under: fetched) == sizes)
            expectSuccess(try Command.run(["diff", "-r", mount.point, fetched], timeout: 60))
        }
    }

    /// `mediafs warm` makes a film's sidecars, trickplay, BIF and representative frame ahead of time:
    /// reading them afterwards makes nothing.
    @Test func warmMakesWhatIsBesideTheFilms() throws {
        try Self.withServerFilm("server-warm") { _, mount in
            expectSuccess(try Command.run([Mount.binary, "warm", mount.point], timeout: 120))
            let warmed = try MountedTreeClient(point: mount.point).statistics()
            for kind in ["sidecar_sets", "trickplay_sheets", "bif_frames", "representative_frames"] {
                #expect(warmed[kind + "_made"] == 1, "\(kind): \(warmed)")
            }
            expectSuccess(try Command.shell(#"cd "$1" && find . -type f -exec cat {} + > /dev/null"#, [mount.point], timeout: 60))
            let read = try MountedTreeClient(point: mount.point).statistics()
            #expect(read.filter { $0.key.hasSuffix("_made") } == warmed.filter { $0.key.hasSuffix("_made") }, "\(read)")
        }
    }
}
