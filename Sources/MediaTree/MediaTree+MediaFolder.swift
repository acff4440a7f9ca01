import MediaKit

/// What a media folder holds, decided from the probe alone (no image is made to list or stat).
extension MediaTree {
    /// The entries of a media folder or of one of its sub-folders, in listing order.
    func mediaChildren(of folder: Node, info: MediaInfo) -> [(name: String, node: Node)] {
        switch folder {
        case .mediaFolder(let rel):
            var children: [(name: String, node: Node)] = [
                (RelPath.lastComponent(rel), .original(rel: rel)), ("info.json", .info(rel: rel)),
            ]
            if thumbnailStream(of: info) != nil { children.append(("thumbs", .thumbsFolder(rel: rel))) }
            if !TrackPlan(info: info).isEmpty { children.append(("tracks", .tracksFolder(rel: rel))) }
            return children
        case .thumbsFolder(let rel):
            guard let stream = thumbnailStream(of: info) else { return [] }
            return ThumbnailListing.names(duration: thumbnailDuration(of: stream, info: info),
                                          interval: settings.thumbnailInterval)
                .map { ($0, .thumbnail(rel: rel, name: $0)) }
        case .tracksFolder, .trackGroup:
            return trackChildren(of: folder, info: info)
        case .sourceFolder, .plainFile, .original, .info, .thumbnail, .track:
            return []
        }
    }

    /// The node named `name` in a media folder or one of its sub-folders. In `thumbs/`, any valid
    /// name resolves, listed or not.
    func mediaChild(named name: String, of folder: Node, info: MediaInfo) -> Node? {
        switch folder {
        case .thumbsFolder(let rel):
            return thumbnailRequest(name: name, info: info) == nil ? nil : .thumbnail(rel: rel, name: name)
        default:
            return mediaChildren(of: folder, info: info).first { $0.name == name }?.node
        }
    }

    /// Whether `node`, inside a media folder, is still there for this probe of its source.
    func exists(_ node: Node, info: MediaInfo) -> Bool {
        switch node {
        case .original, .info: return true
        case .thumbsFolder: return thumbnailStream(of: info) != nil
        case .thumbnail(_, let name): return thumbnailRequest(name: name, info: info) != nil
        case .tracksFolder, .trackGroup, .track: return trackExists(node, info: info)
        case .sourceFolder, .plainFile, .mediaFolder: return false
        }
    }

    /// The video stream thumbnails are taken from: the default moving-picture stream with a size,
    /// else the first one. Cover art is not a video to take frames from.
    func thumbnailStream(of info: MediaInfo) -> MediaInfo.Stream? {
        let candidates = info.streams.filter { $0.isMovingVideo && ($0.width ?? 0) > 0 && ($0.height ?? 0) > 0 }
        return candidates.first { $0.disposition.contains("default") } ?? candidates.first
    }

    /// The seconds a thumbnail time may reach: the video stream's duration, else the container's.
    func thumbnailDuration(of stream: MediaInfo.Stream, info: MediaInfo) -> Double {
        let duration = stream.duration ?? info.container.duration ?? 0
        return duration.isFinite && duration > 0 ? duration : 0
    }

    /// What a name in `thumbs/` asks the media layer for, or nil: not a thumbnail name, a time past
    /// the end, no video stream.
    func thumbnailRequest(name: String, info: MediaInfo) -> ThumbnailRequest? {
        guard let parsed = ThumbnailName.parse(name), let stream = thumbnailStream(of: info) else { return nil }
        let duration = thumbnailDuration(of: stream, info: info)
        let time = parsed.time.seconds(duration: duration)
        guard time >= 0, time <= duration,
              let size = ThumbnailGeometry.outputSize(of: stream, box: parsed.box ?? settings.thumbnailBox) else { return nil }
        return ThumbnailRequest(streamIndex: stream.index, time: time, pick: parsed.pick,
                                width: size.width, height: size.height)
    }
}
