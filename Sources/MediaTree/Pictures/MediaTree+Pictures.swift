import MediaKit
import SystemPackage

/// The cover and the chapter images: how each is made, decided without decoding, so that `stat`
/// knows its size (`PictureRecipe` makes them).
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
    /// mount's default thumbnail size. Artwork that cannot be read for good (damaged) is replaced
    /// by the cover or a frame (logged).
    /// - Throws: `TreeError.media` where reading the artwork failed in a way that may pass: neither
    ///   the plan nor the listing facts keep a stand-in for artwork that is there.
    func chapterImagePlan(of version: MediaVersion, entry: ChapterListing.Entry, format: ImageFormat) throws -> ImagePlan? {
        guard entry.chapter.artwork != nil else { return framePlan(of: version, entry: entry, format: format) }
        let artwork = try version.facts.artwork(chapter: entry.index, format: format).value {
            let fact = ListingFacts.artworkKey(chapter: entry.index, format: format)
            if let known = listingFacts(of: version).snapshot.chapterArtwork[fact] { return known }
            let artwork = try artworkPlan(of: version, entry: entry, format: format)
            learn(of: version) { $0.chapterArtwork[fact] = .some(artwork) }
            return artwork
        }
        return artwork ?? framePlan(of: version, entry: entry, format: format)
    }

    /// How the chapter's own artwork is made in `format`: as stored when in `format`, else
    /// converted at the size its header gives; nil where it cannot be read for good (logged).
    /// Reads the artwork from the media file.
    /// - Throws: `TreeError.media` where reading failed in a way that may pass.
    private func artworkPlan(of version: MediaVersion, entry: ChapterListing.Entry, format: ImageFormat) throws -> ImagePlan? {
        let shownAs = version.shownAs
        do {
            guard let image = try media.chapterImage(path: shownAs.filePath, size: version.identity.size,
                                                     index: entry.index) else { return nil }
            if image.format == format && !image.bytes.isEmpty {
                return .stored(.chapterArtwork(index: entry.index), byteCount: image.bytes.count, format: format)
            }
            if let (width, height) = image.format?.dimensions(of: image.bytes),
               Self.isConvertible(width: width, height: height) {
                return .converted(.chapterArtwork(index: entry.index), codec: image.codec,
                                  width: width, height: height, format: format)
            }
            logger.notice("\(shownAs): the image of chapter \(entry.number) is not a usable \(image.codec) picture")
        } catch let failure as MediaError where failure.mayPass {
            throw TreeError.media(path: "\(shownAs)/\(MediaFolderNames.chapters)", failure: failure)
        } catch {
            logger.notice("\(shownAs): cannot read the image of chapter \(entry.number): \(error)")
        }
        return nil
    }

    /// A frame near the chapter's start at the mount's default thumbnail size, or for a file
    /// without video the cover. Nothing is read.
    private func framePlan(of version: MediaVersion, entry: ChapterListing.Entry, format: ImageFormat) -> ImagePlan? {
        guard let stream = Thumbnails.stream(of: version.info) else {
            return coverPlan(of: version, format: format)
        }
        let duration = Thumbnails.duration(of: stream, info: version.info)
        guard duration > 0, let size = ThumbnailGeometry.outputSize(of: stream, box: settings.thumbs.box) else {
            return nil
        }
        let times = ChapterFrameTimes.times(start: entry.chapter.start, end: entry.chapter.end, duration: duration)
        return .frame(FramePlan(streamIndex: stream.index, times: times, width: size.width, height: size.height,
                                format: format, source: version.info.pictureSource(of: stream)))
    }

    /// Whether a stored picture of this size can be decoded and written again.
    static func isConvertible(width: Int, height: Int) -> Bool {
        width >= 1 && height >= 1 && width <= ImageEncoder.maximumSide && height <= ImageEncoder.maximumSide
            && width * height <= StillImage.maximumPixels
    }
}
