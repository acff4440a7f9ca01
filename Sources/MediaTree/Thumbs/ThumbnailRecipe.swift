import MediaKit

/// A thumbnail: the frame a name in `thumbs/` asks for (`ThumbnailRequest`), made by the media
/// layer at a size known from the probe alone.
struct ThumbnailRecipe: MediaRecipe, Codable {
    let request: ThumbnailRequest

    var kind: MadeKind { .thumbnails }

    var size: Int { request.encodedSize }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        let made = try media.thumbnail(of: file, request: request)
        return MadeBytes(bytes: made.bytes, frame: ShownFrame(time: made.frameTime, isKeyframe: made.isKeyframe))
    }
}

extension MadeKind {
    static let thumbnails = MadeKind(name: "thumbnails", revision: 3)
}
