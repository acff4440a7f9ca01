import MediaKit

/// An image in `thumbs/`: the frame its name asks for (parsed once, at lookup), scaled, in the
/// format of its extension; its size is known from the probe alone (`ThumbnailRequest.encodedSize`).
final class ThumbnailFile: PictureFile, VersionNode {
    let spot: VersionSpot
    let recipe: ThumbnailRecipe

    static let kind = "thumbnail"

    /// The folder it is in, for log lines.
    let folderName: Name

    convenience init(folder: ThumbsFolder, name: Name, request: ThumbnailRequest) {
        self.init(spot: VersionSpot(madeFile: Self.kind, named: name, in: folder), folderName: ThumbsFolder.name, request: request)
    }

    /// A frame listed elsewhere than in `thumbs/` (`scenes/`).
    init(spot: VersionSpot, folderName: Name, request: ThumbnailRequest) {
        self.spot = spot
        self.folderName = folderName
        recipe = ThumbnailRecipe(request: request)
    }

    var shownAs: String { "\(version.shownAs)/\(folderName)/\(placement!.name)" }

    static let attributeNames = ["user.mediafs.time", "user.mediafs.requested", "user.mediafs.keyframe"]

    func extendedAttributeNames(in tree: MediaTree) throws -> [String] { Self.attributeNames }

    /// `requested` needs no image; `time` and `keyframe` are those of the frame made, so asking
    /// for them makes the image.
    func extendedAttribute(_ name: String, in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        if name == "user.mediafs.requested" { return reply(.success(Array(NameTime.decimalText(recipe.request.time).utf8))) }
        made(in: tree) { result in
            reply(result.map { made in
                Array((name == "user.mediafs.time" ? NameTime.decimalText(made.frame?.time ?? 0)
                    : (made.frame?.isKeyframe == true ? "true" : "false")).utf8)
            })
        }
    }
}
