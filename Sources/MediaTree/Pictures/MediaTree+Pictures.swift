import MediaKit
import SystemPackage

/// The cover and the chapter images: how each is made (decided without decoding, so that `stat`
/// knows its size), and making it at open on the generation pool, once, kept in the memory cache.
extension MediaTree {
    /// How the cover is made in `format`, or nil for a file without usable cover art. A cover
    /// stored in `format` is served as stored, its length from the probe (`attachedPictureSize`);
    /// any other is converted at its own size (the probe's width and height). Nothing is read.
    func coverPlan(of version: MediaVersion, format: ImageFormat) -> ImagePlan? {
        guard let cover = version.info.coverStream, let codec = cover.codec else { return nil }
        // Stored as wanted: its length is the probe's, nothing is read.
        if ImageFormat(codec: codec) == format, let size = cover.attachedPictureSize {
            return .stored(.cover, byteCount: size, format: format)
        }
        guard let width = cover.width, let height = cover.height, Self.isConvertible(width: width, height: height) else {
            return nil
        }
        return .converted(.cover, codec: codec, width: width, height: height, format: format)
    }

    /// How the image of a listed chapter is made in `format`, or nil when it has none: its own
    /// artwork (an MP4 chapter image; as stored when in `format`, else converted at the size its
    /// header gives), else for a file without video the cover, else a frame near its start at the
    /// mount's default thumbnail size. Artwork that cannot be read is replaced by the cover or a
    /// frame (logged).
    func chapterImagePlan(of version: MediaVersion, entry: ChapterListing.Entry, format: ImageFormat) -> ImagePlan? {
        let shownAs = version.shownAs
        let key = PlanKey(identity: version.identity, chapter: entry.index, format: format)
        return (try? imagePlans.value(for: key) { [media, logger] in
            if entry.chapter.artwork != nil {
                do {
                    if let image = try media.chapterImage(path: shownAs.filePath, size: version.identity.size, index: entry.index) {
                        if image.format == format && !image.bytes.isEmpty {
                            return .stored(.chapterArtwork(index: entry.index), byteCount: image.bytes.count, format: format)
                        }
                        if let (width, height) = image.format?.dimensions(of: image.bytes),
                           Self.isConvertible(width: width, height: height) {
                            return .converted(.chapterArtwork(index: entry.index), codec: image.codec,
                                              width: width, height: height, format: format)
                        }
                        logger.notice("\(shownAs): the image of chapter \(entry.number) is not a usable \(image.codec) picture")
                    }
                } catch {
                    logger.notice("\(shownAs): cannot read the image of chapter \(entry.number): \(error)")
                }
            }
            if let stream = Thumbnails.stream(of: version.info) {
                let duration = Thumbnails.duration(of: stream, info: version.info)
                guard duration > 0, let size = ThumbnailGeometry.outputSize(of: stream, box: settings.thumbnailBox) else {
                    return nil
                }
                let times = ChapterFrameTimes.times(start: entry.chapter.start, end: entry.chapter.end, duration: duration)
                return .frame(FramePlan(streamIndex: stream.index, times: times, width: size.width, height: size.height,
                                        format: format, source: version.info.pictureSource(of: stream)))
            }
            return coverPlan(of: version, format: format)
        }) ?? nil
    }

    /// Hands the image `plan` describes to `reply`: from the memory cache at once, or from the
    /// disk cache or made on the generation pool (shared with everyone asking meanwhile);
    /// `TreeError.io` where it cannot be made.
    func picture(_ plan: ImagePlan, of version: MediaVersion, shownAs: String, reply: @escaping Reply<MadeImage>) {
        let file = version.file
        // Frames and converted artwork are kept on disk; a stored picture is as quick to read again.
        let diskKey = Self.diskKey(identity: version.identity, plan: plan)
        images.request(ImageKey(identity: version.identity, what: diskKey ?? "stored \(plan)"), work: { [media, statistics, diskCache] in
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
        }, completion: reply)
    }

    /// Makes the image `plan` describes. Runs on the generation pool.
    static func make(_ plan: ImagePlan, of file: MediaFile, media: MediaService) throws -> MadeImage {
        switch plan {
        case .stored(let picture, let byteCount, _):
            let bytes = try storedBytes(picture, of: file, media: media)
            guard bytes.count == byteCount else {
                throw MediaError.damaged(reason: "the stored picture has \(bytes.count) bytes where \(byteCount) were read before")
            }
            return MadeImage(bytes: bytes)
        case .converted(let picture, let codec, let width, let height, let format):
            let bytes = try storedBytes(picture, of: file, media: media)
            return MadeImage(bytes: try media.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: format))
        case .frame(let frame):
            var first: Thumbnail?
            for time in frame.times {
                let request = ThumbnailRequest(streamIndex: frame.streamIndex, time: time, pick: .exact,
                                               width: frame.width, height: frame.height, format: frame.format,
                                               source: frame.source)
                let made: Thumbnail
                do {
                    made = try media.thumbnail(of: file, request: request)
                } catch {
                    // A later try that fails (a truncated file) leaves the first frame as the answer.
                    guard first == nil else { break }
                    throw error
                }
                if made.meanLuma >= ChapterFrameTimes.darkLuma {
                    return MadeImage(bytes: made.bytes, frameTime: made.frameTime, isKeyframe: made.isKeyframe)
                }
                if first == nil { first = made }
            }
            let chosen = first!
            return MadeImage(bytes: chosen.bytes, frameTime: chosen.frameTime, isKeyframe: chosen.isKeyframe)
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

    /// Whether a stored picture of this size can be decoded and written again.
    static func isConvertible(width: Int, height: Int) -> Bool {
        width >= 1 && height >= 1 && width <= ImageEncoder.maximumSide && height <= ImageEncoder.maximumSide
            && width * height <= StillImage.maximumPixels
    }
}
