import MediaKit
import SystemPackage

/// `cover.png` and the chapter images: how each is made (decided without decoding, so that `stat`
/// knows its size), and making it at open on the generation pool, once, kept in the memory cache.
extension MediaTree {
    /// How `cover.png` is made, or nil for a file without usable cover art. A PNG cover is served
    /// as stored, so its length is read from the file (the header's `attached_pic`, no decoding);
    /// any other picture is converted at the probe's width and height.
    func coverPlan(rel: String, stat: SourceStat, info: MediaInfo) -> ImagePlan? {
        guard let cover = info.coverStream else { return nil }
        let path = absolute(rel)
        return (try? imagePlans.value(for: PlanKey(identity: stat.identity, chapter: nil)) { [media, logger] in
            if cover.codec == "png" {
                do {
                    guard let art = try media.coverArt(path: FilePath(path), size: stat.identity.size),
                          art.streamIndex == cover.index, !art.bytes.isEmpty else { return nil }
                    return .stored(.cover, byteCount: art.bytes.count)
                } catch {
                    logger.notice("no cover.png for \(path): \(error)")
                    return nil
                }
            }
            guard let codec = cover.codec, let width = cover.width, let height = cover.height,
                  Self.isConvertible(width: width, height: height) else { return nil }
            return .converted(.cover, codec: codec, width: width, height: height)
        }) ?? nil
    }

    /// How the image of a listed chapter is made, or nil when it has none: its own artwork (an
    /// MP4 chapter image; a PNG as stored, a JPEG converted at the size its header gives), else
    /// for a file without video the cover, else a frame near its start at the mount's default
    /// thumbnail size. Artwork that cannot be read is replaced by the cover or a frame (logged).
    func chapterImagePlan(rel: String, stat: SourceStat, info: MediaInfo, entry: ChapterFolder.Entry) -> ImagePlan? {
        let path = absolute(rel)
        let key = PlanKey(identity: stat.identity, chapter: entry.index)
        return (try? imagePlans.value(for: key) { [media, logger] in
            if entry.chapter.artwork != nil {
                do {
                    if let image = try media.chapterImage(path: FilePath(path), size: stat.identity.size, index: entry.index) {
                        if image.codec == "png" && !image.bytes.isEmpty {
                            return .stored(.chapterArtwork(index: entry.index), byteCount: image.bytes.count)
                        }
                        if let (width, height) = JPEGHeader.dimensions(image.bytes), Self.isConvertible(width: width, height: height) {
                            return .converted(.chapterArtwork(index: entry.index), codec: image.codec, width: width, height: height)
                        }
                        logger.notice("\(path): the image of chapter \(entry.number) is not a usable \(image.codec) picture")
                    }
                } catch {
                    logger.notice("\(path): cannot read the image of chapter \(entry.number): \(error)")
                }
            }
            if let stream = thumbnailStream(of: info) {
                let duration = thumbnailDuration(of: stream, info: info)
                guard duration > 0, let size = ThumbnailGeometry.outputSize(of: stream, box: settings.thumbnailBox) else {
                    return nil
                }
                let times = ChapterFrameTimes.times(start: entry.chapter.start, end: entry.chapter.end, duration: duration)
                return .frame(FramePlan(streamIndex: stream.index, times: times, width: size.width, height: size.height))
            }
            return coverPlan(rel: rel, stat: stat, info: info)
        }) ?? nil
    }

    /// The plan behind a `cover` or `chapterImage` node; nil where it has no image.
    func picturePlan(of node: Node, stat: SourceStat) throws -> ImagePlan? {
        switch node {
        case .cover(let rel):
            return coverPlan(rel: rel, stat: stat, info: try probe(rel: rel, stat: stat))
        case .chapterImage(let rel, let name):
            let entry = try chapterEntry(rel: rel, name: name, stat: stat)
            return chapterImagePlan(rel: rel, stat: stat, info: try probe(rel: rel, stat: stat), entry: entry)
        default:
            return nil
        }
    }

    /// Hands the image of a `cover` or `chapterImage` node to `completion`: from the memory cache at
    /// once, or from the disk cache or made on the generation pool (shared with everyone asking
    /// meanwhile).
    /// - Throws: `TreeError.notFound` at once where there is no such image; the completion gets
    ///   `TreeError.io` where it cannot be made.
    func picture(of node: Node, stat: SourceStat, completion: @escaping @Sendable (Result<MadeImage, Error>) -> Void) throws {
        guard let plan = try picturePlan(of: node, stat: stat) else { throw TreeError.notFound }
        let rel = node.rel
        let file = MediaFile(path: FilePath(absolute(rel)), size: stat.identity.size,
                             modificationNanoseconds: stat.identity.modificationNanoseconds)
        let shownAs: String
        switch node {
        case .chapterImage(_, let name): shownAs = absolute(rel) + "/chapters/" + name
        default: shownAs = absolute(rel) + "/cover.png"
        }
        // Frames and converted artwork are kept on disk; a stored PNG is as quick to read again.
        let diskKey = Self.diskKey(identity: stat.identity, plan: plan)
        images.request(.picture(stat.identity, plan), work: { [media, statistics, diskCache] in
            if let diskCache, let diskKey, let kept = Self.image(from: diskCache, key: diskKey, size: plan.size) {
                TreeStatistics.count(statistics.picturesFromDisk)
                return kept
            }
            do {
                let made = try Self.make(plan, of: file, media: media)
                if let diskCache, let diskKey { Self.store(made, in: diskCache, key: diskKey) }
                if plan.kind == "cover" {
                    TreeStatistics.count(statistics.coversMade)
                } else {
                    TreeStatistics.count(statistics.chapterImagesMade)
                }
                return made
            } catch {
                TreeStatistics.count(statistics.chapterImageFailures)
                throw TreeError.io(path: shownAs, reason: "\(error)")
            }
        }, completion: completion)
    }

    /// Makes the image `plan` describes. Runs on the generation pool.
    static func make(_ plan: ImagePlan, of file: MediaFile, media: MediaService) throws -> MadeImage {
        switch plan {
        case .stored(let picture, let byteCount):
            let bytes = try storedBytes(picture, of: file, media: media)
            guard bytes.count == byteCount else {
                throw MediaError.damaged(reason: "the stored picture has \(bytes.count) bytes where \(byteCount) were read before")
            }
            return MadeImage(png: bytes)
        case .converted(let picture, let codec, let width, let height):
            let bytes = try storedBytes(picture, of: file, media: media)
            return MadeImage(png: try media.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: .png))
        case .frame(let frame):
            var first: Thumbnail?
            for time in frame.times {
                let request = ThumbnailRequest(streamIndex: frame.streamIndex, time: time, pick: .exact,
                                               width: frame.width, height: frame.height)
                let made: Thumbnail
                do {
                    made = try media.thumbnail(of: file, request: request)
                } catch {
                    // A later try that fails (a truncated file) leaves the first frame as the answer.
                    guard first == nil else { break }
                    throw error
                }
                if made.meanLuma >= ChapterFrameTimes.darkLuma {
                    return MadeImage(png: made.bytes, frameTime: made.frameTime, isKeyframe: made.isKeyframe)
                }
                if first == nil { first = made }
            }
            let chosen = first!
            return MadeImage(png: chosen.bytes, frameTime: chosen.frameTime, isKeyframe: chosen.isKeyframe)
        }
    }

    /// The stored bytes of a picture of the file.
    static func storedBytes(_ picture: StoredPicture, of file: MediaFile, media: MediaService) throws -> [UInt8] {
        switch picture {
        case .cover:
            guard let art = try media.coverArt(path: file.path, size: file.size) else {
                throw MediaError.damaged(reason: "the cover art is gone")
            }
            return art.bytes
        case .chapterArtwork(let index):
            guard let image = try media.chapterImage(path: file.path, size: file.size, index: index) else {
                throw MediaError.damaged(reason: "the image of chapter index \(index) is gone")
            }
            return image.bytes
        }
    }

    /// Whether a stored picture of this size can be decoded and written as a PNG.
    static func isConvertible(width: Int, height: Int) -> Bool {
        width >= 1 && height >= 1 && width <= PNGEncoder.maximumSide && height <= PNGEncoder.maximumSide
            && width * height <= StillImage.maximumPixels
    }
}

extension MadeImage {
    init(png: [UInt8]) { self.init(png: png, frameTime: nil, isKeyframe: nil) }
}
