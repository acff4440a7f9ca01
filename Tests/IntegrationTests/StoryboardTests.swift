import Foundation
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// `storyboard/` and `contact-sheet.jpg` through a real mount (issue 17), on a clip made at test
/// time whose every frame carries its index in a strip of 16 cells along its bottom: every cue of
/// the VTT covers its interval, in order, without gap, and points at a region showing the keyframe
/// nearest its time; the playlist names the same sheets; sizes are exact for `cp -r`, `rsync` and
/// mmap; a changed source gives new sheets.
@Suite(.mounts) struct StoryboardTests {
    /// 30 s at 25 fps, 640×360, a keyframe every 30 frames (1.2 s), the frame index drawn as in
    /// scripts/make-media.sh; H.264 with B-frames in MP4 unless `codec` and `format` say otherwise.
    static func makeClip(_ path: String, color: String = "0x406080", seconds: Int = 30,
                         codec: [String] = ["libx264", "-preset", "veryfast"], format: String = "mp4") throws {
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-filter_complex",
            "color=c=\(color):s=640x360:r=25:d=\(seconds)[base];"
                + "color=c=black:s=16x1:r=25:d=\(seconds),format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
                + "scale=640:23:flags=neighbor[bits];[base][bits]overlay=x=0:y=H-h:shortest=1,format=yuv420p[v]",
            "-map", "[v]", "-c:v"] + codec + ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
            "-f", format, path,
        ], timeout: 120), "ffmpeg \(path)")
    }

    static let arguments = ["--storyboard-interval", "2", "--storyboard-grid", "4x3", "--contact-sheet-grid", "3x2"]

    /// What `check` finds of a storyboard.
    struct Findings {
        var names: [String] = []
        var cues = 0
        var sheetsInVTT: [String] = []
        var sheetsInM3U8: [String] = []
        /// The formats PIL reads `contact-sheet.jpg` and `contact-sheet.png` in.
        var contactSheets: [String] = []
        var listed: [String] = []
        var problems: [String] = []
    }

    /// Checks the storyboard of the media folder `film` of `mount` against its `source`: every cue
    /// of the VTT covers its interval, in order, without gap, and points at a region (in a sheet
    /// PIL decodes, as a viewer would) showing the keyframe nearest its time; the playlist's tags;
    /// every file as long as stat says, by read and mmap.
    static func check(_ mount: MountedTreeClient, _ film: String, source: String) throws -> Findings {
        var found = Findings()
        let board = film + "/storyboard"
        found.names = try mount.sortedNames(board).filter { !MediaFolderLayout.isMarker($0) }
        // Keyframes of the source, by the ffmpeg tools: their times (from the decoded frames: an
        // MPEG program stream's keyframe packet may carry no time), counted from the first frame
        // (MPEG program and transport streams start later than 0).
        let probe = expectSuccess(try Command.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                                   "frame=key_frame,best_effort_timestamp_time", "-of", "csv=p=0", source], timeout: 120))
        let frames = probe.stdout.split(whereSeparator: \.isWhitespace).compactMap { line -> (Bool, Double)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[1]) else { return nil }
            return (fields[0] == "1", time)
        }
        let first = frames.map(\.1).min() ?? 0
        let keyframes = frames.filter(\.0).map { $0.1 - first }.sorted()
        let duration = Double(try FFprobe.format(source)["duration"] as? String ?? "") ?? -1

        let vtt = String(decoding: try mount.read(board + "/storyboard.vtt"), as: UTF8.self)
        if !vtt.hasPrefix("WEBVTT\n\n") { found.problems.append("no WEBVTT header") }
        let cue = #/(\d\d):(\d\d):(\d\d\.\d\d\d) --> (\d\d):(\d\d):(\d\d\.\d\d\d)\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)\n/#
        func seconds(_ h: Substring, _ m: Substring, _ s: Substring) -> Double { Double(Int(h)! * 3600 + Int(m)! * 60) + Double(s)! }
        var sheets: [String: StoredPNG] = [:]
        var previousEnd = 0.0
        for (i, match) in vtt.matches(of: cue).enumerated() {
            let o = match.output
            let (start, end) = (seconds(o.1, o.2, o.3), seconds(o.4, o.5, o.6))
            let (sheet, x, y, w, h) = (String(o.7), Int(o.8)!, Int(o.9)!, Int(o.10)!, Int(o.11)!)
            found.cues += 1
            if abs(start - previousEnd) > 0.0005 { found.problems.append("cue \(i) starts at \(start), the last ended at \(previousEnd)") }
            if !(end > start) { found.problems.append("cue \(i) is empty") }
            previousEnd = end
            if sheets[sheet] == nil {
                let picture = try PythonImaging.read([mount.path(board + "/" + sheet)])[0]
                if picture.format != "JPEG" { found.problems.append("\(sheet) is \(picture.format)") }
                sheets[sheet] = picture.picture
            }
            let image = sheets[sheet]!
            guard x + w <= image.width && y + h <= image.height else {
                found.problems.append("cue \(i): \(x),\(y),\(w),\(h) outside \(sheet) \(image.width)x\(image.height)")
                continue
            }
            let index = FrameIndexStrip.read(image.region(x: x, y: y, width: w, height: h))
            let nearest = keyframes.min { (abs($0 - start), $0) < (abs($1 - start), $1) } ?? -1
            if index != Int((nearest * 25).rounded()) {
                found.problems.append("cue \(i) at \(start): frame \(index), the nearest keyframe is \(Int((nearest * 25).rounded()))")
            }
        }
        if abs(previousEnd - duration) > 0.05 { found.problems.append("the cues end at \(previousEnd), the film at \(duration)") }
        found.sheetsInVTT = sheets.keys.sorted()
        let m3u8 = String(decoding: try mount.read(board + "/storyboard.m3u8"), as: UTF8.self)
        found.sheetsInM3U8 = m3u8.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        for tag in ["#EXTM3U", "#EXT-X-IMAGES-ONLY", "#EXT-X-TILES:", "#EXT-X-ENDLIST"] where !m3u8.contains(tag) {
            found.problems.append("no \(tag) in the playlist")
        }
        for path in found.names.map({ board + "/" + $0 }) + [film + "/contact-sheet.jpg", film + "/contact-sheet.png"] {
            let size = try mount.stat(path).size
            let bytes = try mount.read(path)
            if Int64(bytes.count) != size { found.problems.append("\(path): stat \(size), read \(bytes.count)") }
            if path.hasPrefix(board), try mount.mapped(path) != bytes { found.problems.append("\(path): mmap differs") }
        }
        found.contactSheets = try PythonImaging.read([film + "/contact-sheet.jpg", film + "/contact-sheet.png"].map(mount.path)).map(\.format)
        found.listed = try mount.names(film)
        return found
    }

    @Test(.enabled(if: PythonImaging.missing == nil, "Python PIL is not installed (apt-get install python3-pil, or pip install Pillow)"))
    func cuesSheetsAndContactSheetShowTheRightFrames() throws {
        let folder = try TempFolder("storyboard")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeClip(source + "/clip.mp4")
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: Self.arguments) { mount in
            let client = MountedTreeClient(point: mount.point)
            let found = try Self.check(client, "clip.mp4", source: source + "/clip.mp4")
            #expect(found.problems == [], "\(found)")
            // 30 s every 2 s: 15 tiles, 12 to a sheet.
            #expect(found.names == ["0001.jpg", "0002.jpg", "storyboard.m3u8", "storyboard.vtt"])
            #expect(found.cues == 15)
            #expect(found.sheetsInVTT == ["0001.jpg", "0002.jpg"] && found.sheetsInM3U8 == ["0001.jpg", "0002.jpg"], "\(found)")
            #expect(found.contactSheets == ["JPEG", "PNG"])
            // A video without audio, and without chapters unless the encoder wrote some.
            #expect(found.listed == MediaFolderLayout.names("clip.mp4", MediaFacts(tracks: false))
                    || found.listed == MediaFolderLayout.names("clip.mp4", MediaFacts(chapters: 0, tracks: false)), "\(found)")

            // cp -r and rsync copy every file whole: the same bytes as read directly.
            let film = mount.path("clip.mp4")
            let copies = try folder.makeFolder("copies")
            expectSuccess(try Command.run(["cp", "-r", film + "/storyboard", copies + "/cp"]))
            expectSuccess(try Command.run(["rsync", "-a", film + "/storyboard/", copies + "/rsync/"]))
            expectSuccess(try Command.run(["diff", "-r", film + "/storyboard", copies + "/cp"]))
            expectSuccess(try Command.run(["diff", "-r", film + "/storyboard", copies + "/rsync"]))

            // A changed source: new sheets, still right.
            let before = FileManager.default.contents(atPath: film + "/storyboard/0001.jpg")
            try Self.makeClip(folder.path("other.mp4"), color: "0x806040", seconds: 20)
            expectSuccess(try Command.run(["cp", folder.path("other.mp4"), source + "/clip.mp4"]))
            let changed = Wait.until(10) {
                let after = FileManager.default.contents(atPath: film + "/storyboard/0001.jpg")
                return after != nil && after != before
            }
            #expect(changed, "a changed source gives new sheets")
            let again = try Self.check(client, "clip.mp4", source: source + "/clip.mp4")
            #expect(again.problems == [], "\(again)")
            #expect(again.cues == 10)
        }
    }

    /// An MPEG program stream (MPEG-2 with B-frames, starting at 0.5 s, small frames sharing
    /// packs) and an MPEG transport stream remuxed from an MP4 with `-c copy` (starting at 1.4 s):
    /// every cue points at the keyframe ffprobe lists nearest its start, counted from the first
    /// frame, as for MP4.
    @Test(.enabled(if: PythonImaging.missing == nil, "Python PIL is not installed (apt-get install python3-pil, or pip install Pillow)"))
    func programAndTransportStreams() throws {
        let folder = try TempFolder("storyboard-mpeg")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeClip(source + "/clip.mpg", seconds: 12, codec: ["mpeg2video", "-bf", "2", "-b:v", "2M"], format: "vob")
        try Self.makeClip(folder.path("clip.mp4"), seconds: 12)
        expectSuccess(try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", folder.path("clip.mp4"),
                                       "-c", "copy", "-f", "mpegts", source + "/clip.ts"], timeout: 60), "remux")
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: Self.arguments) { mount in
            for name in ["clip.mpg", "clip.ts"] {
                let found = try Self.check(MountedTreeClient(point: mount.point), name, source: source + "/" + name)
                #expect(found.problems == [], "\(name): \(found)")
                #expect(found.cues == 6, "\(name)")
            }
        }
    }

    /// A 10 s film with two keyframes (0 and 5 s) under a 4×4 contact sheet: 16 different frames,
    /// each keyframe shown once, the other tiles the frame at their times.
    @Test func contactSheetWithFewerKeyframesThanTiles() throws {
        let folder = try TempFolder("contact-sheet")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let clip = source + "/two.mp4"
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-filter_complex",
            "testsrc2=s=640x360:r=25:d=10[base];"
                + "color=c=black:s=16x1:r=25:d=10,format=gray,geq=lum='255*mod(floor(N/pow(2\\,15-X))\\,2)',"
                + "scale=640:23:flags=neighbor[bits];[base][bits]overlay=x=0:y=H-h:shortest=1,format=yuv420p[v]",
            "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-g", "125", "-keyint_min", "125", "-sc_threshold", "0",
            clip,
        ], timeout: 120), "ffmpeg")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        let info = try Prober.probe(path: FilePath(clip), size: Int64(size))
        let request = try #require(ContactSheetRequest(info: info, fileName: "two.mp4"))
        let layout = try #require(ContactSheetLayout(request))
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { mount in
            // The PNG contact sheet, made by mediafs: read here without a decoder between.
            let sheet = try StoredPNG(try MountedTreeClient(point: mount.point).read("two.mp4/contact-sheet.png"))
            let shown = (0..<layout.tileCount).map { k -> Int in
                let origin = layout.tileOrigin(k)
                return FrameIndexStrip.read(sheet.region(x: origin.x, y: origin.y, width: request.tileWidth, height: request.tileHeight))
            }
            #expect(shown.count == 16 && Set(shown).count == 16, "\(shown)")
            // A keyframe (frame 0 or 125) or the frame at the tile's time.
            for (k, index) in shown.enumerated() {
                let exact = Int((layout.time(ofTile: k) * 25 + 1e-6).rounded(.down))
                #expect(index == exact || index == 0 || index == 125, "tile \(k): frame \(index), not \(exact)")
            }
            #expect(shown.filter { $0 == 0 || $0 == 125 }.count == 2, "\(shown)")
        }
    }
}
