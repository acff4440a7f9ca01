import MediaKit

/// The cover or a chapter's image, made as its `ImagePlan` says. The plan is the whole recipe, so
/// chapters that show the cover share the cover's picture (and count as covers).
struct PictureRecipe: MediaRecipe, Codable {
    let plan: ImagePlan

    var kind: MadeKind { plan.shows == .cover ? .covers : .chapterImages }

    var size: Int { plan.size }

    /// A stored picture is as quick to read from the media file again as from the disk cache.
    var keptOnDisk: Bool {
        if case .stored = plan { return false }
        return true
    }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        switch plan {
        case .stored(let picture, let byteCount, _):
            let bytes = try Self.storedBytes(picture, of: file, media: media)
            guard bytes.count == byteCount else {
                throw MediaError.damaged(reason: "the stored picture has \(bytes.count) bytes where \(byteCount) were read before")
            }
            return MadeBytes(bytes: bytes)
        case .converted(let picture, let codec, let width, let height, let format):
            let bytes = try Self.storedBytes(picture, of: file, media: media)
            return MadeBytes(bytes: try media.stillImage(bytes: bytes, codec: codec, width: width, height: height, format: format))
        case .frame(let frame):
            return try Self.firstLitFrame(frame, of: file, media: media)
        }
    }

    /// The first of the plan's frames that is not almost black, else the first
    /// (`ChapterFrameTimes`). A later try that fails (a truncated file) leaves the first as the answer.
    private static func firstLitFrame(_ frame: FramePlan, of file: MediaFile, media: any MediaService) throws -> MadeBytes {
        var first: Thumbnail?
        for time in frame.times {
            let request = ThumbnailRequest(streamIndex: frame.streamIndex, time: time, pick: .exact,
                                           width: frame.width, height: frame.height, format: frame.format,
                                           source: frame.source)
            let made: Thumbnail
            do {
                made = try media.thumbnail(of: file, request: request)
            } catch {
                guard first == nil else { break }
                throw error
            }
            if made.meanLuma >= ChapterFrameTimes.darkLuma {
                return MadeBytes(bytes: made.bytes, frame: ShownFrame(time: made.frameTime, isKeyframe: made.isKeyframe))
            }
            if first == nil { first = made }
        }
        guard let chosen = first else { throw MediaError.noFrame(time: 0, reason: "no time to take a chapter's frame at") }
        return MadeBytes(bytes: chosen.bytes, frame: ShownFrame(time: chosen.frameTime, isKeyframe: chosen.isKeyframe))
    }

    /// The stored bytes of a picture of the file.
    private static func storedBytes(_ picture: StoredPicture, of file: MediaFile, media: any MediaService) throws -> [UInt8] {
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
}

extension MadeKind {
    static let covers = MadeKind(name: "covers", revision: 2)
    static let chapterImages = MadeKind(name: "chapter_images", revision: 2)
}
