import MediaKit

/// What a media folder holds, decided from the probe, the chapter list and at most the headers of
/// stored pictures: no image is made to list or stat.
extension MediaTree {
    /// The entries of a media folder or of one of its sub-folders, in listing order.
    func mediaChildren(of folder: Node, info: MediaInfo, stat: SourceStat) -> [(name: String, node: Node)] {
        switch folder {
        case .mediaFolder(let rel):
            var children: [(name: String, node: Node)] = [
                (RelPath.lastComponent(rel), .original(rel: rel)), ("info.json", .info(rel: rel)),
            ]
            if coverPlan(rel: rel, stat: stat, info: info) != nil { children.append(("cover.png", .cover(rel: rel))) }
            if chapterFolder(rel: rel, stat: stat) != nil { children.append(("chapters", .chaptersFolder(rel: rel))) }
            if thumbnailStream(of: info) != nil { children.append(("thumbs", .thumbsFolder(rel: rel))) }
            if !trackPlan(info, stat: stat).isEmpty { children.append(("tracks", .tracksFolder(rel: rel))) }
            return children
        case .chaptersFolder(let rel):
            guard let folder = chapterFolder(rel: rel, stat: stat) else { return [] }
            let images = folder.entries.filter { chapterImagePlan(rel: rel, stat: stat, info: info, entry: $0) != nil }
            return images.map { ($0.fileName, .chapterImage(rel: rel, name: $0.fileName)) }
                + [(ChapterFolder.jsonName, .chaptersJSON(rel: rel)), (ChapterFolder.textName, .chaptersText(rel: rel))]
        case .thumbsFolder(let rel):
            guard let stream = thumbnailStream(of: info) else { return [] }
            return ThumbnailListing.names(duration: thumbnailDuration(of: stream, info: info),
                                          interval: settings.thumbnailInterval)
                .map { ($0, .thumbnail(rel: rel, name: $0)) }
        case .tracksFolder, .trackGroup:
            return trackChildren(of: folder, info: info, stat: stat)
        case .sourceFolder, .plainFile, .original, .info, .cover, .chapterImage, .chaptersJSON, .chaptersText, .thumbnail,
             .track:
            return []
        }
    }

    /// The node named `name` in a media folder or one of its sub-folders. In `thumbs/`, any valid
    /// name resolves, listed or not. Only what the name needs is read: looking up the original or
    /// `info.json` reads no chapters.
    func mediaChild(named name: String, of folder: Node, info: MediaInfo, stat: SourceStat) -> Node? {
        let candidate: Node
        switch folder {
        case .thumbsFolder(let rel):
            return thumbnailRequest(name: name, info: info) == nil ? nil : .thumbnail(rel: rel, name: name)
        case .mediaFolder(let rel):
            switch name {
            case RelPath.lastComponent(rel): candidate = .original(rel: rel)
            case "info.json": candidate = .info(rel: rel)
            case "cover.png": candidate = .cover(rel: rel)
            case "chapters": candidate = .chaptersFolder(rel: rel)
            case "thumbs": candidate = .thumbsFolder(rel: rel)
            case "tracks": candidate = .tracksFolder(rel: rel)
            default: return nil
            }
        case .chaptersFolder(let rel):
            switch name {
            case ChapterFolder.jsonName: candidate = .chaptersJSON(rel: rel)
            case ChapterFolder.textName: candidate = .chaptersText(rel: rel)
            default: candidate = .chapterImage(rel: rel, name: name)
            }
        case .tracksFolder, .trackGroup:
            return trackChildren(of: folder, info: info, stat: stat).first { $0.name == name }?.node
        case .sourceFolder, .plainFile, .original, .info, .cover, .chapterImage, .chaptersJSON, .chaptersText, .thumbnail,
             .track:
            return nil
        }
        return exists(candidate, info: info, stat: stat) ? candidate : nil
    }

    /// Whether `node`, inside a media folder, is still there for this version of its source.
    func exists(_ node: Node, info: MediaInfo, stat: SourceStat) -> Bool {
        switch node {
        case .original, .info: return true
        case .cover(let rel): return coverPlan(rel: rel, stat: stat, info: info) != nil
        case .chaptersFolder(let rel), .chaptersJSON(let rel), .chaptersText(let rel):
            return chapterFolder(rel: rel, stat: stat) != nil
        case .chapterImage(let rel, let name):
            guard let entry = chapterFolder(rel: rel, stat: stat)?.entry(named: name) else { return false }
            return chapterImagePlan(rel: rel, stat: stat, info: info, entry: entry) != nil
        case .thumbsFolder: return thumbnailStream(of: info) != nil
        case .thumbnail(_, let name): return thumbnailRequest(name: name, info: info) != nil
        case .tracksFolder, .trackGroup, .track: return trackExists(node, info: info, stat: stat)
        case .sourceFolder, .plainFile, .mediaFolder: return false
        }
    }

    /// The video stream thumbnails are taken from: the default moving-picture stream with a size,
    /// else the first one. Cover art is not a video to take frames from.
    func thumbnailStream(of info: MediaInfo) -> MediaInfo.Stream? {
        let candidates = info.streams.filter { $0.isMovingVideo && ($0.width ?? 0) > 0 && ($0.height ?? 0) > 0 }
        return candidates.first { $0.disposition.contains("default") } ?? candidates.first
    }

    /// The seconds a thumbnail time may reach: the container's end, else the video stream's duration.
    /// Times count from the stream's first frame, so the file's end is taken from there: a WebM
    /// whose audio starts 7 ms before its video ends 7 ms sooner on the video's clock. The media
    /// layer answers with the last frame up to the container's end, and with nothing past it.
    func thumbnailDuration(of stream: MediaInfo.Stream, info: MediaInfo) -> Double {
        let containerStart = info.container.startTime ?? 0
        let fromContainer = info.container.duration.map { containerStart + $0 - (stream.startTime ?? containerStart) }
        let duration = fromContainer ?? stream.duration ?? 0
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
