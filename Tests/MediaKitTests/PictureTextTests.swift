import Foundation
@testable import MediaKit
import SystemPackage
import Testing
import TestSupport

/// Picture subtitles read into text (`PictureTextSink`), scored against the text the pictures were
/// drawn from (`bench/picture_subs.py`, `bench/subtitle_score.py`): every variant within 1 % of
/// characters, every event with the picture's times, none lost or doubled, the forced events alone
/// in their own file, italics where the text slants.
@Suite(.serialized) struct PictureTextTests {
    let media = LocalMediaService(probeTimeout: 20)

    /// Reads every track of `film` in one pass; the SubRip of each (every event, forced events).
    private func read(_ film: PictureSubtitleFilms.Film, into folder: TempFolder)
        throws -> [(track: PictureSubtitleFilms.Track, all: TrackResult, forced: TrackResult)] {
        let path = PictureSubtitleFilms.path(film.file)
        let size = try TrackExtractionTests.size(path)
        var jobs: [TrackJob] = []
        for track in film.tracks {
            jobs.append(TrackJob(streamIndex: track.index, output: .subtitleSRTReadFromPictures,
                                 path: FilePath(folder.path("\(track.index).srt")), language: track.language))
            jobs.append(TrackJob(streamIndex: track.index, output: .subtitleSRTReadFromPicturesForced,
                                 path: FilePath(folder.path("\(track.index).forced.srt")), language: track.language))
        }
        let results = try media.extractTracks(path: FilePath(path), size: size, jobs: jobs, timeout: 600, reading: AnalysisRequest(threads: 2))
        return film.tracks.enumerated().map { ($1, results[2 * $0], results[2 * $0 + 1]) }
    }

    @Test(arguments: ["english.mkv", "deutsch.mkv", "francais.mkv"])
    func everyVariantReadWithinOnePercent(_ file: String) throws {
        let film = try #require(try PictureSubtitleFilms.truth().films.first { $0.file == file })
        let folder = try TempFolder("picture-text")
        defer { if ProcessInfo.processInfo.environment["KEEP_PICTURE_TEXT"] == nil { folder.remove() } }
        for (track, all, forced) in try read(film, into: folder) {
            let made = try #require(all.track, "\(track.variant): \(String(describing: all.error))")
            let score = try PictureSubtitleFilms.score(film: film, track: track, srt: made.path.string)
            print("\(file) \(track.variant) \(track.language): CER \(score.cer), events \(score.events_found)/\(score.events_expected), italic \(score.italic)")
            #expect(score.cer <= 0.01, "\(track.variant): CER \(score.cer)")
            #expect(score.lost == 0 && score.doubled == 0 && score.extra == 0 && score.time_mismatches.count == 0,
                    "\(track.variant): \(score.lost) lost, \(score.doubled) doubled, \(score.extra) extra, \(score.time_mismatches.count) times off")
            #expect(made.units == track.events.count)
            let forcedEvents = track.events.filter(\.forced).count
            if forcedEvents > 0 {
                let forcedFile = try #require(forced.track, "\(track.variant): \(String(describing: forced.error))")
                let forcedScore = try PictureSubtitleFilms.score(film: film, track: track, srt: forcedFile.path.string, forced: true)
                #expect(forcedScore.events_found == forcedEvents && forcedScore.lost == 0 && forcedScore.cer <= 0.01)
            } else {
                #expect(forced.track == nil)
            }
        }
    }

    /// DVB subtitles (`dvb_subtitle`, made by the ffmpeg command from the English DVD track: its
    /// pictures re-encoded as DVB regions, each event followed by a clearing display set) read as
    /// the DVD track they were made from: the same text, the same times.
    @Test func dvbSubtitlesReadAsTheTrackTheyWereMadeFrom() throws {
        let film = try #require(try PictureSubtitleFilms.truth().films.first { $0.file == "english.mkv" })
        let dvd = try #require(film.tracks.first { $0.variant == "dvd-white" })
        let folder = try TempFolder("picture-text-dvb")
        defer { folder.remove() }
        let dvb = folder.path("english.mkv")
        let made = try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-i", PictureSubtitleFilms.path(film.file),
                                    "-map", "0:v", "-map", "0:\(dvd.index)", "-c:v", "copy", "-c:s", "dvbsub", dvb], timeout: 120)
        try #require(made.succeeded, "\(made)")
        let size = try TrackExtractionTests.size(dvb)
        let info = try media.probe(path: FilePath(dvb), size: size)
        let stream = try #require(info.streams.first { $0.kind == .subtitle })
        #expect(stream.codec == "dvb_subtitle")
        let results = try media.extractTracks(path: FilePath(dvb), size: size, jobs: [
            TrackJob(streamIndex: stream.index, output: .subtitleSRTReadFromPictures, path: FilePath(folder.path("dvb.srt")),
                     language: dvd.language),
        ], timeout: 600, reading: AnalysisRequest(threads: 2))
        let track = try #require(results[0].track, "\(String(describing: results[0].error))")
        let score = try PictureSubtitleFilms.score(film: film, track: dvd, srt: track.path.string)
        #expect(score.cer <= 0.01, "CER \(score.cer)")
        #expect(score.lost == 0 && score.doubled == 0 && score.extra == 0 && score.time_mismatches.count == 0,
                "\(score.lost) lost, \(score.doubled) doubled, \(score.extra) extra, \(score.time_mismatches.count) times off")
    }
}
