import MediaKit

/// An image in `thumbs/`: the frame its name asks for (parsed once, at lookup), scaled, in the
/// format of its extension; its size is known from the probe alone (`ThumbnailRequest.encodedSize`).
final class ThumbnailFile: MadeFile {
    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let request: ThumbnailRequest

    static let kind = "thumbnail"

    init(folder: ThumbsFolder, name: Name, request: ThumbnailRequest) {
        version = folder.version
        placement = folder.placement(of: name)
        self.request = request
        key = NodeKey(madeFile: Self.kind, version: version, names: [name])
    }

    func size(in tree: MediaTree) throws -> Int { request.encodedSize }

    func bytes(in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        tree.thumbnail(request, of: version, shownAs: shownAs) { reply($0.map(\.bytes)) }
    }

    private var shownAs: String { "\(version.shownAs)/\(MediaFolderNames.thumbs)/\(placement!.name)" }

    static let attributeNames = ["user.mediafs.time", "user.mediafs.requested", "user.mediafs.keyframe"]

    func extendedAttributeNames(in tree: MediaTree) throws -> [String] { Self.attributeNames }

    /// `requested` needs no image; `time` and `keyframe` are those of the frame made, so asking
    /// for them makes the image.
    func extendedAttribute(_ name: String, in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        if name == "user.mediafs.requested" { return reply(.success(Array(TimeText.decimalText(request.time).utf8))) }
        tree.thumbnail(request, of: version, shownAs: shownAs) { result in
            reply(result.map { made in
                Array((name == "user.mediafs.time" ? TimeText.decimalText(made.frameTime ?? 0)
                    : (made.isKeyframe == true ? "true" : "false")).utf8)
            })
        }
    }
}
