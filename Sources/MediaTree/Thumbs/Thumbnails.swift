import MediaKit

/// What `thumbs/` asks of a probe: the stream frames are taken from, how far a time may reach,
/// and what a name asks the media layer for.
enum Thumbnails {
    /// The video stream thumbnails are taken from: the default moving-picture stream with a size,
    /// else the first one. Cover art is not a video to take frames from.
    static func stream(of info: MediaInfo) -> MediaInfo.Stream? {
        let candidates = info.streams.filter { $0.isMovingVideo && ($0.width ?? 0) > 0 && ($0.height ?? 0) > 0 }
        return candidates.first { $0.disposition.contains("default") } ?? candidates.first
    }

    /// The seconds a thumbnail time may reach: the container's end, else the video stream's duration.
    /// Times count from the stream's first frame, so the file's end is taken from there: a WebM
    /// whose audio starts 7 ms before its video ends 7 ms sooner on the video's clock. The media
    /// layer answers with the last frame up to the container's end, and with nothing past it.
    static func duration(of stream: MediaInfo.Stream, info: MediaInfo) -> Double {
        let containerStart = info.container.startTime ?? 0
        let fromContainer = info.container.duration.map { containerStart + $0 - (stream.startTime ?? containerStart) }
        let duration = fromContainer ?? stream.duration ?? 0
        return duration.isFinite && duration > 0 ? duration : 0
    }

    /// What `name` asks the media layer for, or nil: a time past the end, a size too large.
    static func request(for name: ThumbnailName, stream: MediaInfo.Stream, duration: Double,
                        settings: TreeSettings, source: PictureSource) -> ThumbnailRequest? {
        let time = name.time.seconds(duration: duration)
        guard time >= 0, time <= duration,
              let size = ThumbnailGeometry.outputSize(of: stream, box: name.box ?? settings.thumbs.box) else { return nil }
        return ThumbnailRequest(streamIndex: stream.index, time: time, pick: name.pick,
                                width: size.width, height: size.height, format: name.format, source: source)
    }
}
