import MediaKit

/// The film's poster beside it: its embedded cover, byte for byte, under the names the servers
/// read for a movie in a shared folder: `Film.jpg` (Plex, Jellyfin) and `Film-poster.jpg` (Kodi,
/// Jellyfin), with the cover's own extension (`Film.png` for a PNG cover; a cover in another
/// format is converted to JPEG). A film without a cover has none: the servers' scrapers fetch one.
/// Made by `MediaService.coverArt` (the stored picture, as the other layout's `cover.jpg`).
final class PosterFile: PictureFile, ServerEntry, VersionNode {
    let spot: VersionSpot
    let recipe: PictureRecipe

    static let kind = "poster"
    static let madeKinds: [MadeKind] = [.covers]
    /// A cover is the stored picture, read in a moment when asked for: not worth making ahead.
    static let isWarmed = false

    private init(film: ServerFilm, suffix: String, plan: ImagePlan) {
        spot = film.spot(madeFile: Self.kind, suffix: suffix)
        recipe = PictureRecipe(plan: plan)
    }

    static func listed(beside film: ServerFilm, tree: MediaTree) -> [any ServerEntry] {
        guard let cover = film.version.info.coverStream else { return [] }
        let format = cover.codec.flatMap(ImageFormat.init(codec:)) ?? .jpeg
        guard let plan = tree.coverPlan(of: film.version, format: format) else { return [] }
        return ServerNames.posterSuffixes(fileExtension: format.fileExtension).map { PosterFile(film: film, suffix: $0, plan: plan) }
    }

    var shownAs: String { version.shownBeside(placement!.name) }
}
