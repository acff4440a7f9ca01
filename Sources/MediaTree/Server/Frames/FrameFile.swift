import MediaKit

/// The film's representative frame beside it (`RepresentativeFrameRecipe`): `Film-fanart.jpg`, the
/// backdrop Plex, Kodi and Jellyfin read, and `Film-thumb.jpg`, Jellyfin's landscape thumbnail.
/// Made by `MediaService.thumbnail` (keyframes). `user.mediafs.time` and `user.mediafs.keyframe`
/// tell which frame it shows (asking makes it).
final class FrameFile: PictureFile, ServerEntry, VersionNode {
    let spot: VersionSpot
    let recipe: RepresentativeFrameRecipe

    static let kind = "frame"
    static let madeKinds: [MadeKind] = [.representativeFrames]

    private init(film: ServerFilm, suffix: String, recipe: RepresentativeFrameRecipe) {
        spot = film.spot(madeFile: Self.kind, suffix: suffix)
        self.recipe = recipe
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        guard let recipe = RepresentativeFrameRecipe(info: film.version.info) else { return [] }
        return ServerNames.frameSuffixes.map { FrameFile(film: film, suffix: $0, recipe: recipe) }
    }

    static func hasShape(suffix: Name) -> Bool { ServerNames.frameSuffixes.contains { Name($0) == suffix } }

    var shownAs: String { version.shownBeside(placement!.name) }

    static let attributeNames = ["user.mediafs.time", "user.mediafs.keyframe"]

    func extendedAttributeNames(in tree: MediaTree) throws -> [String] { Self.attributeNames }

    func extendedAttribute(_ name: String, in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        made(in: tree) { result in
            reply(result.map { made in
                Array((name == "user.mediafs.time" ? NameTime.decimalText(made.frame?.time ?? 0)
                    : (made.frame?.isKeyframe == true ? "true" : "false")).utf8)
            })
        }
    }
}
