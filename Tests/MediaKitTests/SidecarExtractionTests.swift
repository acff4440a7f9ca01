import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// The outputs the server layout's sidecar subtitles are made with, on the server test film
/// (`ServerMedia`): each byte for byte what the tool people use makes of the same stream. SubRip
/// as `ffmpeg -map 0:s:N -c:s srt`, ASS and PGS as `-c:s copy` into `.ass` and `.sup`, and DVD
/// subtitles as mkvextract's VobSub pair (`mkvextract FILE tracks N:OUT.idx`).
@Suite struct SidecarExtractionTests {
    let media = LocalMediaService(probeTimeout: 20)

    /// The film is what its recipe says: every subtitle track with its codec, language, title
    /// and flags (the naming tests start from these).
    @Test func theTestFilm() throws {
        let film = try ServerMedia.film().path
        let info = try media.probe(path: FilePath(film), size: try TrackExtractionTests.size(film))
        let subtitles = info.streams.filter { $0.kind == .subtitle }
        #expect(subtitles.map(\.codec) == ServerMedia.subtitles.map(\.codec))
        #expect(subtitles.map(\.language) == ServerMedia.subtitles.map(\.language))
        #expect(subtitles.map(\.title) == ServerMedia.subtitles.map(\.title))
        for (stream, recipe) in zip(subtitles, ServerMedia.subtitles) {
            for flag in ["default", "forced", "hearing_impaired"] {
                #expect(stream.disposition.contains(flag) == recipe.disposition.contains(flag), "\(stream.index) \(flag)")
            }
        }
        let video = try #require(info.streams.first { $0.kind == .video })
        #expect(video.width == 320 && video.height == 180)
        #expect(abs((info.container.duration ?? 0) - Double(ServerMedia.duration)) < 0.5)
    }

    @Test func textAndStyledAndPGSAsTheFFmpegCommandMakesThem() throws {
        let film = try ServerMedia.film().path
        let size = try TrackExtractionTests.size(film)
        let info = try media.probe(path: FilePath(film), size: size)
        let folder = try TempFolder("sidecars")
        defer { folder.remove() }
        let subtitles = info.streams.filter { $0.kind == .subtitle }
        var jobs: [(job: TrackJob, n: Int, codec: String, fileExtension: String)] = []
        for (n, stream) in subtitles.enumerated() {
            let (output, codec, fileExtension): (TrackOutput, String, String)
            switch stream.codec {
            case "subrip": (output, codec, fileExtension) = (.subtitleSRT, "srt", ".srt")
            case "ass": (output, codec, fileExtension) = (.subtitleASS, "copy", ".ass")
            case "hdmv_pgs_subtitle": (output, codec, fileExtension) = (.bitmapSUP, "copy", ".sup")
            default: continue
            }
            jobs.append((TrackJob(streamIndex: stream.index, output: output, path: FilePath(folder.path("ours-\(n)\(fileExtension)")),
                                  language: stream.language ?? "und"), n, codec, fileExtension))
        }
        #expect(jobs.count == 7)
        let results = try media.extractTracks(path: FilePath(film), size: size, jobs: jobs.map(\.job), timeout: 60)
        for (result, job) in zip(results, jobs) {
            let track = try #require(result.track, "s:\(job.n): \(String(describing: result.error))")
            let theirs = try FFprobe.ffmpegSubtitles(film, subtitle: job.n, codec: job.codec,
                                                     output: folder.path("ffmpeg-\(job.n)\(job.fileExtension)"))
            let ours = try Data(contentsOf: URL(fileURLWithPath: track.path.string))
            #expect(ours == theirs, "s:\(job.n) \(job.fileExtension): \(ours.count) bytes, the ffmpeg command's \(theirs.count)")
            #expect(track.size == Int64(ours.count) && !ours.isEmpty)
        }
    }

    /// The DVD track as VobSub's `.idx` and `.sub`, each alone and both in one pass, byte for
    /// byte mkvextract's (its packs, its index with the track's ISO 639-1 language, and the
    /// packets' stop times set from Matroska's block durations).
    @Test func dvdSubtitlesAsMkvextractWritesThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mkvextract") else {
            Issue.record("mkvextract is missing (Debian package mkvtoolnix): the VobSub output is not compared")
            return
        }
        let film = try ServerMedia.film().path
        let size = try TrackExtractionTests.size(film)
        let info = try media.probe(path: FilePath(film), size: size)
        let dvd = try #require(info.streams.first { $0.codec == "dvd_subtitle" })
        let folder = try TempFolder("vobsub")
        defer { folder.remove() }
        let extract = try Command.run(["mkvextract", film, "tracks", "\(dvd.index):\(folder.path("theirs.idx"))"], timeout: 60)
        try #require(extract.succeeded, "\(extract)")
        let theirIndex = try Data(contentsOf: URL(fileURLWithPath: folder.path("theirs.idx")))
        let theirPictures = try Data(contentsOf: URL(fileURLWithPath: folder.path("theirs.sub")))

        func job(_ output: TrackOutput, _ name: String) -> TrackJob {
            TrackJob(streamIndex: dvd.index, output: output, path: FilePath(folder.path(name)), language: dvd.language ?? "und")
        }
        let both = [job(.vobSubIndex, "both.idx"), job(.vobSubPictures, "both.sub")]
        let alone = [job(.vobSubIndex, "alone.idx")]
        let picturesAlone = [job(.vobSubPictures, "alone.sub")]
        for jobs in [both, alone, picturesAlone] {
            let results = try media.extractTracks(path: FilePath(film), size: size, jobs: jobs, timeout: 60)
            for result in results {
                let track = try #require(result.track, "\(result.job.path): \(String(describing: result.error))")
                let ours = try Data(contentsOf: URL(fileURLWithPath: track.path.string))
                let theirs = result.job.output == .vobSubIndex ? theirIndex : theirPictures
                #expect(ours == theirs, """
                    \(result.job.path) differs from mkvextract's (\(ours.count) and \(theirs.count) bytes)
                    \(result.job.output == .vobSubIndex ? String(decoding: ours, as: UTF8.self) + "\n---\n" + String(decoding: theirs, as: UTF8.self) : "")
                    """)
                #expect(track.size == Int64(ours.count) && track.units == 3)
            }
        }
        #expect(theirPictures.count % 2048 == 0 && theirPictures.count > 3 * 2048, "a packet spans several packs")
        #expect(String(decoding: theirIndex, as: UTF8.self).contains("\nid: it, index: 0\n"))
    }

    /// Asking a VobSub output of another codec fails that job only.
    @Test func vobSubOfAnotherCodecFails() throws {
        let film = try ServerMedia.film().path
        let size = try TrackExtractionTests.size(film)
        let info = try media.probe(path: FilePath(film), size: size)
        let pgs = try #require(info.streams.first { $0.codec == "hdmv_pgs_subtitle" })
        let folder = try TempFolder("vobsub-wrong")
        defer { folder.remove() }
        let results = try media.extractTracks(path: FilePath(film), size: size, jobs: [
            TrackJob(streamIndex: pgs.index, output: .vobSubIndex, path: FilePath(folder.path("x.idx")), language: "spa"),
            TrackJob(streamIndex: pgs.index, output: .bitmapSUP, path: FilePath(folder.path("x.sup")), language: "spa"),
        ], timeout: 60)
        #expect(results[0].error != nil && results[1].track != nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.idx")))
    }
}
