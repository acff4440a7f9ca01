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

    /// Checks the storyboard of `film` (a mounted media folder) against its `source`; prints one
    /// JSON line of findings.
    static let check = #"""
    import json, mmap, os, re, subprocess, sys
    from PIL import Image
    film, source = sys.argv[1:3]
    board = film + "/storyboard"
    names = sorted(n for n in os.listdir(board) if not n.startswith("."))
    report = {"names": names, "problems": []}
    def problem(text): report["problems"].append(text)
    # Keyframes of the source, by the ffmpeg tools: their times.
    # (from the decoded frames: an MPEG program stream's keyframe packet may carry no time),
    # counted from the first frame (MPEG program and transport streams start later than 0).
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "frame=key_frame,best_effort_timestamp_time", "-of", "csv=p=0", source],
                           capture_output=True, text=True, check=True).stdout
    frames = [(int(k), float(t)) for k, t in (line.split(",")[:2] for line in probe.split()) if t != "N/A"]
    first = min(t for k, t in frames)
    keyframes = sorted(t - first for k, t in frames if k == 1)
    duration = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", source],
                                    capture_output=True, text=True, check=True).stdout)
    def seconds(text):
        h, m, s = text.split(":")
        return int(h) * 3600 + int(m) * 60 + float(s)
    vtt = open(board + "/storyboard.vtt", encoding="utf-8").read()
    if not vtt.startswith("WEBVTT\n\n"): problem("no WEBVTT header")
    cues = re.findall(r"(\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)\n", vtt)
    report["cues"] = len(cues)
    previous_end = 0.0
    sheets = {}
    for i, (start, end, sheet, x, y, w, h) in enumerate(cues):
        start, end, x, y, w, h = seconds(start), seconds(end), int(x), int(y), int(w), int(h)
        if abs(start - previous_end) > 0.0005: problem(f"cue {i} starts at {start}, the last ended at {previous_end}")
        if not end > start: problem(f"cue {i} is empty")
        previous_end = end
        if sheet not in sheets: sheets[sheet] = Image.open(board + "/" + sheet).convert("L")
        image = sheets[sheet]
        if x + w > image.width or y + h > image.height: problem(f"cue {i}: {x},{y},{w},{h} outside {sheet} {image.size}")
        tile = image.crop((x, y, x + w, y + h))
        index = 0
        for bit in range(16):
            px = int((bit + 0.5) / 16 * w)
            py = h - 1 - h // 32
            index = index << 1 | (1 if tile.getpixel((px, py)) > 128 else 0)
        nearest = min(keyframes, key=lambda k: (abs(k - start), k))
        if index != round(nearest * 25): problem(f"cue {i} at {start}: frame {index}, the nearest keyframe is {round(nearest * 25)}")
    if abs(previous_end - duration) > 0.05: problem(f"the cues end at {previous_end}, the film at {duration}")
    report["sheets_in_vtt"] = sorted(sheets)
    m3u8 = open(board + "/storyboard.m3u8", encoding="utf-8").read()
    report["sheets_in_m3u8"] = [l for l in m3u8.splitlines() if l and not l.startswith("#")]
    for tag in ["#EXTM3U", "#EXT-X-IMAGES-ONLY", "#EXT-X-TILES:", "#EXT-X-ENDLIST"]:
        if tag not in m3u8: problem(f"no {tag} in the playlist")
    for name in names:
        path = board + "/" + name
        size = os.stat(path).st_size
        data = open(path, "rb").read()
        if len(data) != size: problem(f"{name}: stat {size}, read {len(data)}")
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            if m[:] != data: problem(f"{name}: mmap differs")
        if name.endswith(".jpg"):
            with Image.open(path) as image:
                image.load()
                if image.format != "JPEG": problem(f"{name} is {image.format}")
    for name in ["contact-sheet.jpg", "contact-sheet.png"]:
        path = film + "/" + name
        size = os.stat(path).st_size
        data = open(path, "rb").read()
        if len(data) != size: problem(f"{name}: stat {size}, read {len(data)}")
        with Image.open(path) as image:
            image.load()
            report[name] = [image.format, image.width, image.height]
    report["listed"] = sorted(os.listdir(film))
    print(json.dumps(report))
    """#

    private func report(_ result: CommandResult) throws -> [String: Any] {
        expectSuccess(result, "the check")
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }

    @Test func cuesSheetsAndContactSheetShowTheRightFrames() throws {
        let folder = try TempFolder("storyboard")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try Self.makeClip(source + "/clip.mp4")
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), arguments: Self.arguments) { mount in
            let film = mount.path("clip.mp4")
            let found = try report(try Command.python(Self.check, [film, source + "/clip.mp4"], timeout: 120))
            #expect(found["problems"] as? [String] == [], "\(found)")
            // 30 s every 2 s: 15 tiles, 12 to a sheet.
            #expect(found["names"] as? [String] == ["0001.jpg", "0002.jpg", "storyboard.m3u8", "storyboard.vtt"])
            #expect(found["cues"] as? Int == 15)
            #expect(found["sheets_in_vtt"] as? [String] == ["0001.jpg", "0002.jpg"])
            #expect(found["sheets_in_m3u8"] as? [String] == ["0001.jpg", "0002.jpg"])
            #expect((found["contact-sheet.jpg"] as? [Any])?.first as? String == "JPEG")
            #expect((found["contact-sheet.png"] as? [Any])?.first as? String == "PNG")
            #expect(found["listed"] as? [String] == [".directory", "chapters", "clip.mp4", "contact-sheet.jpg", "folder.jpg", "info.json",
                                                     "storyboard", "thumbs"]
                    || found["listed"] as? [String] == [".directory", "clip.mp4", "contact-sheet.jpg", "folder.jpg", "info.json",
                                                        "storyboard", "thumbs"], "\(found)")

            // cp -r and rsync copy every file whole: the same bytes as read directly.
            let copies = try folder.makeFolder("copies")
            expectSuccess(try Command.run(["cp", "-r", film + "/storyboard", copies + "/cp"]))
            expectSuccess(try Command.run(["rsync", "-a", film + "/storyboard/", copies + "/rsync/"]))
            expectSuccess(try Command.run(["diff", "-r", film + "/storyboard", copies + "/cp"]))
            expectSuccess(try Command.run(["diff", "-r", film + "/storyboard", copies + "/rsync"]))

            // A changed source: new sheets, still right.
            let before = FileManager.default.contents(atPath: film + "/storyboard/0001.jpg")
            try Self.makeClip(folder.path("other.mp4"), color: "0x806040", seconds: 20)
            expectSuccess(try Command.run(["cp", folder.path("other.mp4"), source + "/clip.mp4"]))
            var after: Data?
            let start = Date()
            repeat {
                usleep(200_000)
                after = FileManager.default.contents(atPath: film + "/storyboard/0001.jpg")
            } while after == before && Date().timeIntervalSince(start) < 5
            #expect(after != nil && after != before, "a changed source gives new sheets")
            let again = try report(try Command.python(Self.check, [film, source + "/clip.mp4"], timeout: 120))
            #expect(again["problems"] as? [String] == [], "\(again)")
            #expect(again["cues"] as? Int == 10)
        }
    }

    /// An MPEG program stream (MPEG-2 with B-frames, starting at 0.5 s, small frames sharing
    /// packs) and an MPEG transport stream remuxed from an MP4 with `-c copy` (starting at 1.4 s):
    /// every cue points at the keyframe ffprobe lists nearest its start, counted from the first
    /// frame, as for MP4.
    @Test func programAndTransportStreams() throws {
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
                let found = try report(try Command.python(Self.check, [mount.path(name), source + "/" + name], timeout: 120))
                #expect(found["problems"] as? [String] == [], "\(name): \(found)")
                #expect(found["cues"] as? Int == 6, "\(name)")
            }
        }
    }

    /// Reads the frame index from the strip of each tile of a contact sheet, at the rectangles
    /// given as JSON; prints them as a JSON list.
    static let tileIndices = #"""
    import json, sys
    from PIL import Image
    sheet = Image.open(sys.argv[1]).convert("L")
    found = []
    for x, y, w, h in json.loads(sys.argv[2]):
        tile = sheet.crop((x, y, x + w, y + h))
        index = 0
        for bit in range(16):
            index = index << 1 | (1 if tile.getpixel((int((bit + 0.5) / 16 * w), h - 1 - h // 32)) > 128 else 0)
        found.append(index)
    print(json.dumps(found))
    """#

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
        let rectangles = (0..<layout.tileCount).map { k -> [Int] in
            let origin = layout.tileOrigin(k)
            return [origin.x, origin.y, request.tileWidth, request.tileHeight]
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: rectangles), as: UTF8.self)
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { mount in
            let result = try Command.python(Self.tileIndices, [mount.path("two.mp4") + "/contact-sheet.png", json], timeout: 120)
            expectSuccess(result, "the check")
            let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Int])
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
