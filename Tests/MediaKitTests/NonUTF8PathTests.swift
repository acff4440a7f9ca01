import Foundation
import Glibc
import MediaKit
import SystemPackage
import Testing
import TestSupport

/// A media file whose name is not UTF-8 (Linux names are bytes: `bad\xff.mp4`, as copied from an
/// old Windows or Samba share) is probed, thumbnailed, chaptered and its tracks extracted, into
/// files whose names are not UTF-8 either: MediaKit opens every file by its path's bytes.
@Suite struct NonUTF8PathTests {
    let media = LocalMediaService(probeTimeout: 20)

    /// `folder/` followed by `name`'s bytes, as a path.
    static func path(_ folder: FilePath, _ name: [UInt8]) -> FilePath {
        folder.withPlatformString { base in
            let bytes = UnsafeBufferPointer(start: base, count: strlen(base)).map { UInt8(bitPattern: $0) }
            return FilePath(platformString: (bytes + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) })
        }
    }

    /// `rename(2)` with raw bytes. The corresponding C function is `rename`.
    static func rename(_ from: FilePath, to: FilePath) -> Bool {
        from.withPlatformString { old in to.withPlatformString { new in Glibc.rename(old, new) == 0 } }
    }

    /// A 3 s clip with video, an audio track, a subtitle track and two chapters, made with the
    /// ffmpeg command, renamed to `bad\xff.mp4`.
    static func makeClip(in folder: TempFolder) throws -> FilePath {
        let subtitles = folder.path("clip.srt"), metadata = folder.path("chapters.txt"), clip = folder.path("clip.mp4")
        try "1\n00:00:00,500 --> 00:00:01,500\nHello\n\n2\n00:00:02,000 --> 00:00:02,800\nBye\n\n"
            .write(toFile: subtitles, atomically: true, encoding: .utf8)
        try """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1500
            title=One
            [CHAPTER]
            TIMEBASE=1/1000
            START=1500
            END=3000
            title=Two

            """.write(toFile: metadata, atomically: true, encoding: .utf8)
        let made = try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=s=160x90:r=10:d=3",
            "-f", "lavfi", "-i", "sine=d=3", "-i", subtitles, "-i", metadata,
            "-map", "0:v", "-map", "1:a", "-map", "2:s", "-map_metadata", "3", "-map_chapters", "3",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "mov_text",
            "-metadata:s:a:0", "language=eng", "-metadata:s:s:0", "language=eng", clip,
        ], timeout: 60)
        try #require(made.succeeded, "\(made)")
        let bad = path(FilePath(folder.path), Array("bad".utf8) + [0xFF] + Array(".mp4".utf8))
        try #require(rename(FilePath(clip), to: bad), "rename: \(String(cString: strerror(errno)))")
        return bad
    }

    @Test func aFileWhoseNameIsNotUTF8IsProbedThumbnailedChapteredAndItsTracksExtracted() throws {
        let folder = try TempFolder("non-utf8")
        let source = try Self.makeClip(in: folder)
        let output = Self.path(FilePath(folder.path), Array("out".utf8) + [0xFF])
        let jobs = [
            TrackJob(streamIndex: 1, output: .audioMatroska,
                     path: Self.path(output, Array("audio".utf8) + [0xFF] + Array(".mka".utf8)), language: "eng"),
            TrackJob(streamIndex: 2, output: .subtitleSRT,
                     path: Self.path(output, Array("subtitle".utf8) + [0xFF] + Array(".srt".utf8)), language: "eng"),
        ]
        defer {
            // FileManager reads names as text: the byte names are removed here, then the folder.
            for job in jobs { _ = job.path.withPlatformString { unlink($0) } }
            _ = output.withPlatformString { rmdir($0) }
            _ = source.withPlatformString { unlink($0) }
            folder.remove()
        }
        #expect(String(validating: source) == nil, "the name is not UTF-8")
        let identity = try #require(FileIdentity(path: source), "stat by the name's bytes")

        // As text the name has U+FFFD for the byte, and names another file, which does not exist.
        #expect(throws: MediaError.self) { try media.probe(path: FilePath(source.string), size: identity.size) }

        let info = try media.probe(path: source, size: identity.size)
        #expect(Array(info.streams.map(\.kind).prefix(3)) == [.video, .audio, .subtitle])
        #expect(info.chapters.count == 2)

        let chapters = try media.chapters(path: source, size: identity.size)
        #expect(chapters.defaultEdition?.chapters.count == 2)

        let video = try #require(info.streams.first { $0.isMovingVideo })
        let file = MediaFile(path: source, size: identity.size, modificationNanoseconds: identity.modificationNanoseconds)
        let request = ThumbnailRequest(streamIndex: video.index, time: 1.0, pick: .exact, width: 160, height: 90)
        let thumbnail = try media.thumbnail(of: file, request: request)
        #expect(thumbnail.bytes.count == ImageEncoder.encodedSize(format: .png, width: 160, height: 90, source: .unknown))
        #expect(thumbnail.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        #expect(output.withPlatformString { mkdir($0, 0o755) } == 0)
        #expect(String(validating: jobs[0].path) == nil && String(validating: output) == nil)
        let results = try media.extractTracks(path: source, size: identity.size, jobs: jobs, timeout: 60)
        #expect(results.count == 2)
        for result in results {
            let track = try #require(result.track, "\(result.job.path): \(String(describing: result.error))")
            #expect(track.path == result.job.path)
            #expect(track.size > 0)
            #expect(FileIdentity(path: track.path)?.size == track.size, "written under its byte name")
        }
        let srt = try #require(results[1].track)
        let fd = srt.path.withPlatformString { open($0, O_RDONLY) }
        try #require(fd >= 0)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: Int(srt.size))
        #expect(read(fd, &buffer, buffer.count) == buffer.count)
        #expect(String(decoding: buffer, as: UTF8.self).contains("Hello"))
    }
}
