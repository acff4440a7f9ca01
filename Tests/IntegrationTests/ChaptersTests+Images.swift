import Foundation
import Glibc
import Testing
import TestSupport

/// The chapter images and covers of the shared mount of `ChaptersTests`.
extension ChaptersTests {
    /// Frames a little after each chapter's start (start + min(1 s, 10% of the chapter)), and past
    /// a black fade-in.
    @Test func framesAreTakenJustAfterEachStart() throws {
        let mount = try LibraryMount.shared.client
        let chapters = try #require(try mount.json("feature-1080p.mp4/info.json")["chapters"] as? [[String: Any]])
        let images = try Self.images(mount, "feature-1080p.mp4")
        #expect(images.count == 6)
        for (chapter, name) in zip(chapters, images) {
            let start = chapter["start"] as? Double ?? 0, end = chapter["end"] as? Double ?? 0
            let expected = Int((start + min(1, 0.1 * (end - start))) * 25 + 1e-6)  // 25 fps: the frame shown then
            let path = "feature-1080p.mp4/chapters/" + name
            let png = try StoredPNG(try mount.read(path))
            #expect(FrameIndexStrip.read(png) == expected, "\(name)")
            #expect(png.width == 320 && png.height == 180, "\(name)")
            let time = Double(try mount.attributeText("user.mediafs.time", of: path)) ?? -1
            #expect(abs(time - Double(expected) / 25) < 1e-6, "\(name): \(time)")
        }

        // fade.mp4 starts with 1.5 s of black: the first try (0.6 s) is black, the next (1.67 s) is not.
        let fade = "extra/fade.mp4/chapters/01 00h00m00s Fade in.png"
        let png = try StoredPNG(try mount.read(fade))
        var luma = 0
        for y in 0..<png.height {
            for x in 0..<png.width {
                let p = png.pixel(x, y)
                luma += (77 * p.r + 150 * p.g + 29 * p.b) >> 8
            }
        }
        #expect(luma / (png.width * png.height) > 16, "mean luma \(luma / (png.width * png.height))")
        #expect(try mount.attributeText("user.mediafs.time", of: fade) == "1.64")
    }

    /// Stored pictures byte for byte, listed in their own format (a JPEG cover as `cover.jpg`,
    /// the bytes `ffmpeg -map 0:v:N -c copy -f image2` gives); the other extension converted, as a
    /// valid PNG of the picture's size.
    @Test func embeddedPicturesAreServed() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        #expect(try mount.read("extra/png-cover.m4a/cover.png")
                == Array(try Data(contentsOf: URL(fileURLWithPath: try ChapterTreeMedia.folder() + "/cover.png"))))
        for relative in ["audio/audiobook.m4a", "movie-1080p.mkv"] {
            let streams = try #require(try mount.json(relative + "/info.json")["streams"] as? [[String: Any]])
            let cover = try #require(streams.first { ($0["disposition"] as? [String])?.contains("attached_pic") == true })
            let png = try StoredPNG(try mount.read(relative + "/cover.png"))
            #expect(png.width == 600 && png.height == 900, "\(relative)")
            #expect(png.width == cover["width"] as? Int && png.height == cover["height"] as? Int, "\(relative): \(cover)")
        }
        // cover.jpg is the stored picture byte for byte, as the ffmpeg command copies it out.
        let book = "audio/audiobook.m4a"
        let streams = try #require(try mount.json(book + "/info.json")["streams"] as? [[String: Any]])
        let videos = streams.filter { $0["kind"] as? String == "video" }
        let n = try #require(videos.firstIndex { ($0["disposition"] as? [String])?.contains("attached_pic") == true })
        let copy = library.folder.path("cover-copy.jpg")
        expectSuccess(try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", library.source + "/" + book,
                                       "-map", "0:v:\(n)", "-c", "copy", "-f", "image2", copy]))
        #expect(try mount.read(book + "/cover.jpg") == Array(try Data(contentsOf: URL(fileURLWithPath: copy))))
        #expect(try mount.names(book).contains("cover.jpg"))
    }

    /// A JPEG chapter image track written by ffmpeg and named by the video track's `tref`/`chap`
    /// after the chapter text track (libavformat shows it as a second video stream): its pictures
    /// are the chapter images, and it is neither a track in tracks/visual/ nor the video of thumbs/.
    @Test func aJPEGChapterImageTrackIsNoVideoTrack() throws {
        let mount = try LibraryMount.shared.client
        let film = "chapter-media/jpeg-chapter-track.mp4"
        #expect(try mount.names(film) == ChapterMedia.folderNames("jpeg-chapter-track.mp4"))
        #expect(try mount.names(film + "/tracks") == MediaFolderLayout.markers + ["audible"])
        #expect(mount.failure { () throws(CallError) in try mount.stat(film + "/tracks/visual") } == ENOENT)
        let names = try mount.sortedNames(film + "/chapters").filter { $0.hasSuffix(".jpg") }
        #expect(names == ["01 00h00m00s Navy.jpg", "02 00h00m04s Dark red.jpg", "03 00h00m08s Dark green.jpg"])
        // navy (0, 0, 128), dark red (139, 0, 0), dark green (0, 100, 0), through JPEG; the .png of
        // each name converted.
        for (name, expected) in zip(names, [(0, 0, 128), (139, 0, 0), (0, 100, 0)]) {
            let path = film + "/chapters/" + name.dropLast(4) + ".png"
            let png = try StoredPNG(try mount.read(path))
            #expect(png.width == 64 && png.height == 36, "\(name)")
            var sums = (0, 0, 0)
            for y in 0..<png.height {
                for x in 0..<png.width {
                    let p = png.pixel(x, y)
                    sums = (sums.0 + p.r, sums.1 + p.g, sums.2 + p.b)
                }
            }
            let count = png.width * png.height
            let mean = (sums.0 / count, sums.1 / count, sums.2 / count)
            #expect(abs(mean.0 - expected.0) <= 8 && abs(mean.1 - expected.1) <= 8 && abs(mean.2 - expected.2) <= 8, "\(name): \(mean)")
            #expect(try mount.attributeText("user.mediafs.chapter.image", of: path) == "artwork")
        }
        let thumbnail = try StoredPNG(try mount.read(film + "/thumbs/at-5s.png"))
        #expect(thumbnail.width == 160 && thumbnail.height == 90)
        let streams = try #require(try mount.json(film + "/info.json")["streams"] as? [[String: Any]])
        let videos = streams.filter { $0["kind"] as? String == "video" }
        #expect(videos.map { $0["codec"] as? String } == ["h264", "mjpeg"])
        #expect(videos.map { $0["disposition"] as? [String] } == [["default"], ["timed_thumbnails"]])
    }

    /// stat's size is what read, mmap and `cp -r` give, for every chapter image, document and cover.
    @Test func sizesAreExactForEveryClient() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        var folders = [""], count = 0
        while let folder = folders.popLast() {
            for entry in try mount.list(folder) {
                let path = mount.join(folder, entry.name)
                let status = try mount.stat(path)
                #expect(status.type == entry.type, "type: \(path)")
                if status.type == .directory {
                    // thumbs/ (ThumbsTests), storyboard/ and tracks/ hold no chapter image; the cut
                    // film's chapters past its cut give EIO (below).
                    if !["thumbs", "storyboard", "tracks"].contains(entry.name) && path != "broken/feature-truncated.mp4/chapters" {
                        folders.append(path)
                    }
                    continue
                }
                guard folder.hasSuffix("/chapters") || entry.name == "cover.png" else { continue }
                count += 1
                let bytes = try mount.read(path)
                #expect(Int64(bytes.count) == status.size, "size: \(path): stat \(status.size), read \(bytes.count)")
                #expect(try mount.mapped(path) == bytes, "mmap: \(path)")
            }
        }
        #expect(count > 130)

        // cp -r of whole chapter folders: the same names and bytes.
        let target = try library.folder.makeFolder("copied")
        for relative in ["movie-1080p.mkv", "audio/audiobook.m4a", "chapter-media/multilingual.mkv", "extra/awkward.mkv"] {
            let copy = target + "/" + Library.fileName(relative)
            expectSuccess(try Command.run(["cp", "-r", "--", library.path(relative + "/chapters"), copy], timeout: 120), relative)
            expectSuccess(try Command.run(["diff", "-r", "-q", library.path(relative + "/chapters"), copy], timeout: 120), relative)
        }
        expectSuccess(try Command.run(["cp", "--", library.path("audio/audiobook.m4a/cover.png"), target + "/cover.png"]))
        expectSuccess(try Command.run(["cmp", "--", library.path("audio/audiobook.m4a/cover.png"), target + "/cover.png"]))

        // A chapter past the cut of a truncated film: EIO within the bound, the mount stays up.
        let started = Date()
        let credits = "broken/feature-truncated.mp4/chapters/06 00h00m28s Credits.png"
        #expect(mount.failure { () throws(CallError) in try mount.read(credits) } == EIO)
        #expect(Date().timeIntervalSince(started) < 30)
        expectSuccess(try Command.run(["ls", library.path("broken/feature-truncated.mp4/chapters")]))
    }
}
