import Foundation
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// The probe against media made with the ffmpeg command (see scripts/make-media.sh).
@Suite struct ProberTests {
    let media = LocalMediaService(probeTimeout: 20)

    func probe(_ relativePath: String) throws -> MediaInfo {
        let url = try TestMedia.file(relativePath)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! NSNumber
        return try media.probe(path: FilePath(url.path), size: size.int64Value)
    }

    @Test func mp4WithChaptersTwoAudioLanguagesAndASubtitle() throws {
        let info = try probe("feature-1080p.mp4")
        #expect(info.container.format.contains("mp4"))
        #expect(abs((info.container.duration ?? 0) - 30) < 0.2)
        let video = try #require(info.streams.first { $0.isMovingVideo })
        #expect(video.codec == "h264" && video.profile == "High")
        #expect(video.width == 640 && video.height == 360)
        #expect(video.frameRate == "25/1")
        let audio = info.streams.filter { $0.kind == .audio }
        #expect(audio.map(\.language) == ["eng", "spa"])
        #expect(audio.allSatisfy { $0.codec == "aac" && $0.channels == 2 && $0.sampleRate != nil })
        let subtitles = info.streams.filter { $0.kind == .subtitle }
        #expect(subtitles.map(\.codec) == ["mov_text"])
        #expect(info.chapters.count == 6)
        #expect(info.chapters.first?.title == "Opening")
        #expect(info.chapters.map(\.start) == info.chapters.map(\.start).sorted())
        #expect(info.isBrowsable)
    }

    @Test func matroskaWithSeveralAudioAndSubtitleLanguages() throws {
        let info = try probe("movie-1080p.mkv")
        let audio = info.streams.filter { $0.kind == .audio }
        #expect(audio.map(\.language) == ["eng", "fra", "deu"])
        #expect(audio.map(\.codec) == ["aac", "ac3", "opus"])
        #expect(audio[0].channels == 6 && audio[0].channelLayout == "5.1")
        #expect(audio[1].disposition.contains("default"))
        let subtitles = info.streams.filter { $0.kind == .subtitle }
        #expect(subtitles.count == 3)
        #expect(subtitles.contains { $0.codec == "ass" && $0.disposition.contains("forced") })
        #expect(subtitles.contains { $0.disposition.contains("hearing_impaired") })
        #expect(info.chapters.count == 8)
        // libavformat shows an image attachment (the cover) as an attached-picture video stream.
        #expect(info.streams.contains { $0.isAttachedPicture && $0.tags["filename"] == "cover.jpg" })
        // Stream indexes are the container's, in order.
        #expect(info.streams.map(\.index) == Array(0..<info.streams.count))
    }

    @Test func anamorphicRotatedAndTenBitVideo() throws {
        let pal = try #require(try probe("clips/anamorphic-pal.mpg").streams.first { $0.isMovingVideo })
        #expect(pal.sampleAspectRatio == "64:45")
        #expect(pal.displayAspectRatio == "16:9")
        let phone = try #require(try probe("clips/portrait-rotated.mp4").streams.first { $0.isMovingVideo })
        #expect(abs(abs(phone.rotation ?? 0) - 90) < 0.01)
        let hevc = try #require(try probe("clips/clip-hevc10.mkv").streams.first { $0.isMovingVideo })
        #expect(hevc.codec == "hevc" && hevc.pixelFormat == "yuv420p10le" && hevc.profile == "Main 10")
    }

    @Test func audioIsBrowsableOnlyWithChaptersOrCoverArt() throws {
        let book = try probe("audio/audiobook.m4a")
        #expect(!book.chapters.isEmpty)
        #expect(book.streams.contains { $0.isAttachedPicture })
        #expect(!book.streams.contains { $0.isMovingVideo })
        #expect(book.isBrowsable)
        #expect(try !probe("audio/song.mp3").isBrowsable)
        let poster = try probe("poster.jpg")
        #expect(poster.isStillImage && !poster.isBrowsable)
    }

    @Test(arguments: ["broken/empty.mp4", "broken/not-a-video.mkv", "broken/cut-header.mp4", "notes.txt"])
    func unreadableFilesAreNotMedia(_ path: String) throws {
        #expect {
            try probe(path)
        } throws: { error in
            guard case MediaError.notMedia = error else { return false }
            return true
        }
    }

    /// A JPEG chapter image track that ffmpeg wrote and the video track's `tref`/`chap` names after
    /// the chapter text track: libavformat shows it as a plain video stream; the probe marks it.
    @Test func chapterImageTracksAreMarkedAndAreNoVideoTracks() throws {
        let url = try ChapterMedia.file("jpeg-chapter-track.mp4")
        let size = try TrackExtractionTests.size(url.path)
        let info = try media.probe(path: FilePath(url.path), size: size)
        #expect(info.streams.map(\.codec) == ["h264", "aac", "mjpeg", "bin_data"])
        let pictures = info.streams[2]
        #expect(pictures.kind == .video && pictures.disposition == ["timed_thumbnails"], "\(pictures.disposition)")
        #expect(pictures.isChapterImageTrack && !pictures.isMovingVideo && !pictures.isCoverArt)
        #expect(info.streams.filter(\.isMovingVideo).map(\.index) == [0])
        #expect(!info.streams[0].isChapterImageTrack)
        #expect(info.coverStream == nil)
        let jobs = TestJobs.jobs(for: info, into: "/tracks")
        #expect(!jobs.contains { $0.output == .videoMatroska }, "\(jobs.map(\.path))")
        #expect(jobs.filter { $0.output == .audioMatroska }.count == 1)

        // Marked by libavformat already (the PNG track is in the only chap list it read): kept as is.
        let png = try ChapterMedia.file("two-languages.mp4")
        let twoLanguages = try media.probe(path: FilePath(png.path), size: try TrackExtractionTests.size(png.path))
        #expect(twoLanguages.streams.filter { $0.kind == .video }.map(\.disposition) == [["default"], ["attached_pic", "timed_thumbnails"]])
        #expect(!TestJobs.jobs(for: twoLanguages, into: "/tracks").contains { $0.output == .videoMatroska })
        // MP4s without a JPEG or PNG video stream: nothing marked.
        for name in ["feature-1080p.mp4", "clips/Holiday Café 2021.mp4"] {
            #expect(try probe(name).streams.allSatisfy { !$0.isChapterImageTrack }, "\(name)")
        }
    }

    @Test func probeTimesAreRoundedToTheMicrosecond() throws {
        let info = try probe("movie-1080p.mkv")
        let times = [info.container.duration] + info.streams.map(\.duration) + info.chapters.map { Optional($0.end) }
        for case let time? in times {
            #expect(abs(time * 1_000_000 - (time * 1_000_000).rounded()) < 1e-3)
        }
    }
}
