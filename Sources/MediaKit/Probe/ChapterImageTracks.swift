import CAV

/// QuickTime chapter image tracks among a probe's streams, marked `timed_thumbnails` as libavformat
/// marks those it recognises.
///
/// libavformat's mov demuxer keeps the `tref`/`chap` list of the last track it reads (every track
/// ffmpeg writes has one, naming the chapter text track) and marks only the video tracks of that
/// list (`attached_pic` and `timed_thumbnails`); a chapter image track named by another track's
/// list is shown as one more video stream. mediafs's QuickTime reader follows every `chap`
/// reference (`QuickTimeMovie.chapterImageTrackIDs`), so the probe asks it. For mov, libavformat
/// sets `AVStream.id` to the track ID (`tkhd`), which ties the two together.
enum ChapterImageTracks {
    /// The codecs of the pictures in a chapter image track that the QuickTime reader knows
    /// (`QuickTimeTrack.imageCodec`).
    static let pictureCodecs: Set<String> = ["mjpeg", "png"]

    private static let timedThumbnails = av_disposition_from_string("timed_thumbnails")

    /// Adds `timed_thumbnails` to every stream of `file` that is a chapter image track libavformat
    /// left unmarked.
    ///
    /// The `moov` is read (one bounded read, usually from the page cache: libavformat has just
    /// parsed it) only for a QuickTime file with an unmarked video stream of JPEG or PNG pictures,
    /// so other files cost nothing more. A damaged `moov` leaves the streams as libavformat
    /// described them (the chapter reader reports the damage when chapters are read); one that
    /// cannot be read throws, as the probe must not be kept without what it would have found.
    /// - Parameter streams: `file`'s streams as described, in file order.
    /// - Throws: `MediaError.io` or `.unreadable` where reading fails.
    static func mark(_ streams: inout [MediaInfo.Stream], of file: InputFile, size: Int64) throws {
        guard let format = file.context.pointee.iformat, String(cString: format.pointee.name).hasPrefix("mov,") else { return }
        let avStreams = file.streams
        let candidates = streams.indices.filter { index in
            let stream = streams[index]
            return index < avStreams.count && stream.kind == .video && !stream.isChapterImageTrack
                && pictureCodecs.contains(stream.codec ?? "")
        }
        guard !candidates.isEmpty,
              let ids = try MediaError.unlessDamaged({ try QuickTimeMovie(FileReader(path: file.path, length: size)).chapterImageTrackIDs }),
              !ids.isEmpty else { return }
        for index in candidates {
            let stream = avStreams[index].pointee
            guard ids.contains(UInt32(truncatingIfNeeded: stream.id)) else { continue }
            streams[index].disposition = StreamDescriber.dispositionNames(stream.disposition | timedThumbnails)
        }
    }
}
