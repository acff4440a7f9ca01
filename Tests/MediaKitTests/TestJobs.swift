import Foundation
import MediaKit
import SystemPackage

/// Track jobs for the MediaKit tests: one per file the tree makes from a probe (its `TrackPlan`, in
/// MediaTree, which also names them; `TrackNamingTests` there checks the names), here written as
/// `<folder>/<group>/<stream index> <output><extension>`.
///
/// Which outputs a stream gives follows the plan's rules: every audio stream as Matroska, text
/// subtitles as SubRip and WebVTT (ASS/SSA also as ASS), PGS as SUP, other picture subtitles as
/// Matroska, and moving video (not cover art, not chapter images, not stills) as Matroska only where
/// there are two or more.
enum TestJobs {
    /// The folder of a job's file in the tree: `audible`, `legible` or `visual`.
    static func group(of output: TrackOutput) -> String {
        switch output {
        case .audioMatroska: return "audible"
        case .videoMatroska: return "visual"
        case .subtitleSRT, .subtitleWebVTT, .subtitleASS, .bitmapSUP, .bitmapMatroska, .vobSubPictures, .vobSubIndex,
             .subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced:
            return "legible"
        }
    }

    /// The file name extension of an output, with its dot (as the tree names them).
    static func fileExtension(of output: TrackOutput) -> String {
        switch output {
        case .audioMatroska: return ".mka"
        case .videoMatroska: return ".mkv"
        case .subtitleSRT: return ".srt"
        case .subtitleSRTReadFromPictures: return ".read.srt"
        case .subtitleSRTReadFromPicturesForced: return ".forced.read.srt"
        case .subtitleWebVTT: return ".vtt"
        case .subtitleASS: return ".ass"
        case .bitmapSUP: return ".sup"
        case .bitmapMatroska: return ".mks"
        case .vobSubPictures: return ".sub"
        case .vobSubIndex: return ".idx"
        }
    }

    /// The outputs `stream` gives, in order; empty when it is not a track.
    static func outputs(for stream: MediaInfo.Stream, videoTracks: Int) -> [TrackOutput] {
        guard let codec = stream.codec else { return [] }
        switch stream.kind {
        case .audio:
            return [.audioMatroska]
        case .subtitle:
            if ["ass", "ssa"].contains(codec) { return [.subtitleSRT, .subtitleWebVTT, .subtitleASS] }
            if ["subrip", "srt", "mov_text", "webvtt", "text"].contains(codec) { return [.subtitleSRT, .subtitleWebVTT] }
            if codec == "hdmv_pgs_subtitle" { return [.bitmapSUP] }
            if ["dvd_subtitle", "dvb_subtitle", "xsub"].contains(codec) { return [.bitmapMatroska] }
            return []
        case .video:
            return videoTracks > 1 && isVideoTrack(stream) ? [.videoMatroska] : []
        default:
            return []
        }
    }

    static func isVideoTrack(_ stream: MediaInfo.Stream) -> Bool {
        stream.isMovingVideo && stream.codec != nil
            && !stream.disposition.contains("timed_thumbnails") && !stream.disposition.contains("still_image")
    }

    /// Every job of `info`, by group (audible, legible, visual), then stream, then output.
    static func jobs(for info: MediaInfo, into folder: String) -> [TrackJob] {
        let streams = info.streams.sorted { $0.index < $1.index }
        let videoTracks = streams.filter(isVideoTrack).count
        let jobs = streams.flatMap { stream in
            outputs(for: stream, videoTracks: videoTracks).map { output in
                TrackJob(streamIndex: stream.index, output: output,
                         path: FilePath("\(folder)/\(group(of: output))/\(stream.index) \(output.rawValue)\(fileExtension(of: output))"),
                         language: stream.language.flatMap { $0.isEmpty ? nil : $0 } ?? "und")
            }
        }
        let order = ["audible", "legible", "visual"]
        return jobs.enumerated().sorted {
            (order.firstIndex(of: group(of: $0.element.output))!, $0.offset)
                < (order.firstIndex(of: group(of: $1.element.output))!, $1.offset)
        }.map(\.element)
    }

    /// Makes the group folders of `jobs` (the tree's part: MediaKit writes into folders that exist).
    static func makeFolders(for jobs: [TrackJob]) throws {
        for job in jobs {
            try FileManager.default.createDirectory(atPath: job.path.removingLastComponent().string,
                                                    withIntermediateDirectories: true)
        }
    }
}

extension LocalMediaService {
    /// Extracts every job `TestJobs.jobs(for:into:)` gives for `info`, into `folder`.
    func extractAllTracks(path: String, size: Int64, info: MediaInfo, into folder: String,
                          timeout: Double = 60) throws -> [TrackResult] {
        let jobs = TestJobs.jobs(for: info, into: folder)
        try TestJobs.makeFolders(for: jobs)
        return try extractTracks(path: FilePath(path), size: size, jobs: jobs, timeout: timeout)
    }
}

extension TrackResult {
    /// The folder of the job's file: `audible`, `legible` or `visual`.
    var group: String { TestJobs.group(of: job.output) }
}
