import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// thumbs/ through a real mount, checked against the frame index every fixture frame carries
/// (`FrameIndexStrip`). The names that resolve, the sizes, PNG and JPEG and the extended
/// attributes are the thumbs scenarios (TestSupport/Scenarios).
@Suite(.mounts, .sharedLibraryMount("thumbs")) struct ThumbsTests {
    /// The frame index shown by the PNG at `relative`.
    static func frame(_ mount: MountedTreeClient, _ relative: String) throws -> Int {
        FrameIndexStrip.read(try StoredPNG(try mount.read(relative)))
    }

    /// feature-1080p.mp4 (small set): 25 fps, 750 frames, a keyframe every 50 frames.
    @Test func atNamesShowTheFrameAPlayerShows() throws {
        let mount = try LibraryMount.shared.client
        // (name, expected frame): on a boundary, between two, 1 ms before one, the start, the
        // last frame (29.96 s), the end of the file, the percentages.
        let cases: [(String, Int)] = [
            ("at-0s.png", 0), ("at-0.02s.png", 0), ("at-0.04s.png", 1), ("at-12.5s.png", 312),
            ("at-12.52s.png", 313), ("at-12.519s.png", 312), ("at-00:00:07.5.png", 187),
            ("at-2s.png", 50), ("at-1.999s.png", 49), ("at-29.96s.png", 749), ("at-29.99s.png", 749),
            ("at-30s.png", 749), ("at-100%.png", 749), ("at-50%.png", 375), ("at-25%@180h.png", 187),
            ("at-0m03.3s.png", 82),
        ]
        for (name, frame) in cases {
            #expect(try Self.frame(mount, "feature-1080p.mp4/thumbs/" + name) == frame, "\(name)")
        }
    }

    @Test func nearNamesAreTheNearestKeyframes() throws {
        let mount = try LibraryMount.shared.client
        for (name, frame) in [("near-0s.png", 0), ("near-2.2s.png", 50), ("near-3.6s.png", 100), ("near-29.9s.png", 700),
                              ("near-13s.png", 300)] {
            let path = "feature-1080p.mp4/thumbs/" + name
            #expect(try Self.frame(mount, path) == frame, "\(name)")
            #expect(try mount.attributeText("user.mediafs.keyframe", of: path) == "true", "\(name)")
        }
    }

    @Test func imagesLookAsAPlayerShowsThem() throws {
        let mount = try LibraryMount.shared.client
        let expected: [(String, Int, Int)] = [
            ("feature-1080p.mp4/thumbs/at-1s.png", 320, 180),
            ("feature-1080p.mp4/thumbs/at-1s@full.png", 640, 360),
            ("feature-1080p.mp4/thumbs/at-1s@100h.png", 178, 100),
            ("feature-1080p.mp4/thumbs/at-1s@200x200.png", 200, 113),
            ("feature-1080p.mp4/thumbs/at-1s@4000w.png", 640, 360),  // never enlarged
            ("clips/anamorphic-pal.mpg/thumbs/at-1s@full.png", 1024, 576),  // 720x576 at 64:45
            ("clips/anamorphic-pal.mpg/thumbs/at-1s.png", 320, 180),
            ("clips/portrait-rotated.mp4/thumbs/at-1s@full.png", 360, 640),  // 640x360 turned 90°
            ("clips/portrait-rotated.mp4/thumbs/at-1s.png", 320, 569),
            ("clips/clip-hevc10.mkv/thumbs/at-1s.png", 320, 180),
        ]
        for (path, width, height) in expected {
            let png = try StoredPNG(try mount.read(path))
            #expect(png.width == width && png.height == height, "\(path): \(png.width)x\(png.height)")
        }
        // 10-bit decoded and converted right enough to read the strip.
        #expect(try Self.frame(mount, "clips/clip-hevc10.mkv/thumbs/at-1s@full.png") == 25)
    }

    /// HDR through a real mount: the PQ and HLG clips' `at-1s.png` within
    /// `ToneMapReference.tolerance` (mean absolute difference per channel) of the frame the ffmpeg
    /// command's usual tone-mapping chain makes, far from its plain conversion; `info.json` says
    /// which HDR it is.
    @Test func hdrThumbnailsAreToneMapped() throws {
        let library = try LibraryMount.shared
        for clip in ["clips/hdr-pq.mkv", "clips/hdr-hlg.mkv"] {
            let png = try StoredPNG(try library.client.read(clip + "/thumbs/at-1s.png"))
            #expect(png.width == 320 && png.height == 180 && FrameIndexStrip.read(png) == 25, "\(clip)")
            let streams = try library.client.json(clip + "/info.json")["streams"] as? [[String: Any]]
            let video = try #require(streams?.first, "\(clip)")
            let (hdr, transfer) = clip.hasSuffix("pq.mkv") ? ("PQ", "smpte2084") : ("HLG", "arib-std-b67")
            #expect(video["hdr"] as? String == hdr && video["color_transfer"] as? String == transfer, "\(clip): \(video)")
            #expect(video["color_primaries"] as? String == "bt2020" && video["color_space"] as? String == "bt2020nc"
                    && video["color_range"] as? String == "tv", "\(clip): \(video)")

            let source = library.source + "/" + clip
            let reference = try ToneMapReference.frame(source, at: 1, width: 320, height: 180)
            let distance = ColorDistance(png.rgb, reference)
            #expect(distance.worstChannel <= ToneMapReference.tolerance, "\(clip): \(distance)")
            let plain = try ToneMapReference.frame(source, at: 1, width: 320, height: 180, toneMapped: false)
            let far = ColorDistance(png.rgb, plain)
            #expect(far.mean >= ToneMapReference.untoneMappedDistance, "\(clip): \(far)")
        }
    }

    /// A frame before the damage of a cut file is made; one past it gives EIO within the bound,
    /// the mount stays up, and the log names the file and the reason.
    @Test func aCutFileGivesEIOPastTheCut() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        let thumbs = "broken/feature-truncated.mp4/thumbs/"
        #expect(try mount.read(thumbs + "at-2s.png").starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let started = Date()
        #expect(mount.failure { () throws(CallError) in try mount.read(thumbs + "at-25s.png") } == EIO)
        #expect(Date().timeIntervalSince(started) < 30)
        expectSuccess(try Command.run(["ls", library.path("broken/feature-truncated.mp4/thumbs")]))
        #expect(library.mount.log.contains("feature-truncated.mp4/thumbs/at-25s.png"), "\(library.mount.log)")
    }

    /// Every listed thumbnail copies whole, in time order, with the sizes stat gave before any read.
    @Test func listedThumbsCopyWhole() throws {
        let library = try LibraryMount.shared
        let thumbs = library.path("movie-1080p.mkv/thumbs")
        let sizes = expectSuccess(try Command.shell(#"cd "$1" && stat -c '%s %n' -- *.png"#, [thumbs]))
        let target = try library.folder.makeFolder("copied")
        expectSuccess(try Command.shell(#"cp "$1"/*.png "$2"/"#, [thumbs, target], timeout: 180))
        let copied = expectSuccess(try Command.shell(#"cd "$1" && stat -c '%s %n' -- *.png"#, [target]))
        #expect(sizes.stdout == copied.stdout)
        // 30.03 s: a name every second from 0 to 30 s, and the three quarters.
        #expect(sizes.stdout.split(separator: "\n").count == 34)
        let periodic = try FileManager.default.contentsOfDirectory(atPath: target)
            .filter { $0.range(of: #"^at-\d\dm\d\ds\.png$"#, options: .regularExpression) != nil }.sorted()
        let frames = try periodic.map { FrameIndexStrip.read(try StoredPNG(Array(try Data(contentsOf: URL(fileURLWithPath: target + "/" + $0))))) }
        // 23.976 fps: the frames shown at 0 s, 1 s, 2 s are 0, 23, 47.
        #expect(frames.count == 31 && frames == frames.sorted() && frames.prefix(3) == [0, 23, 47], "\(frames)")
    }
}

/// 8 readers × 200 names drawn at random from 240, with `ls -lR` running meanwhile: every PNG
/// valid, and byte-identical to the same name read alone in a fresh mount (its own two mounts).
@Suite(.mounts) struct ConcurrentThumbsTests {
    @Test func concurrentReadersGetIdenticalImages() throws {
        let folder = try TempFolder("thumbs-concurrent")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let names = Self.randomNames(count: 240)
        let together = try Mount.with(source: source, point: try folder.makeFolder("mnt1"), log: folder.path("log1")) { mount in
            let lister = try ChildProcess(["/bin/sh", "-c", #"while :; do ls -lR "$1" >/dev/null; done"#, "sh", mount.point])
            defer { lister.kill9() }
            let read = Mutex<(images: [String: [UInt8]], errors: [String])>(([:], []))
            let client = MountedTreeClient(point: mount.point)
            Threads.run(8) { reader in
                var random = SeededGenerator(seed: UInt64(reader))
                for _ in 0..<200 {
                    let name = names.randomElement(using: &random)!
                    do {
                        let bytes = try client.read(name)
                        read.withLock { read in
                            if read.images[name, default: bytes] != bytes { read.errors.append("differs: \(name)") }
                            read.images[name] = bytes
                        }
                    } catch {
                        read.withLock { $0.errors.append("\(error)") }
                    }
                }
            }
            return read.withLock { $0 }
        }
        #expect(together.errors.isEmpty, "\(together.errors.prefix(10))")
        #expect(together.images.count > 150)
        for (name, bytes) in together.images {
            #expect(throws: Never.self, "\(name)") { try StoredPNG(bytes) }
        }
        try Mount.with(source: source, point: try folder.makeFolder("mnt2"), log: folder.path("log2")) { mount throws in
            let client = MountedTreeClient(point: mount.point)
            for (name, bytes) in together.images.sorted(by: { $0.key < $1.key }) {
                #expect(try client.read(name) == bytes, "differs alone: \(name)")
            }
        }
    }

    /// Names across two films, every form of the grammar, reproducible.
    static func randomNames(count: Int) -> [String] {
        var generator = SeededGenerator(seed: 42)
        let films = [("feature-1080p.mp4", 30.0), ("movie-1080p.mkv", 30.0)]
        return (0..<count).map { i in
            let (film, duration) = films[i % films.count]
            let t = Double(Int.random(in: 0..<Int(duration * 100), using: &generator)) / 100
            let form = Int.random(in: 0..<6, using: &generator)
            let name: String
            switch form {
            case 0: name = "at-\(t)s.png"
            case 1: name = "near-\(t)s.png"
            case 2: name = "at-\(t)s@180h.png"
            case 3: name = "at-\(Int(t) / 60)m\(Int(t) % 60)s.png"
            case 4: name = "at-\(Int(t * 100 / duration))%.png"
            default: name = "near-\(t)s@160x90.png"
            }
            return "\(film)/thumbs/\(name)"
        }
    }
}
