import MediaKit

/// A chapter's image in `chapters/`, `NN HHhMMmSSs Title.png` (or `.jpg`): its artwork, the
/// cover, or a frame near its start (`ImagePlan`), with the chapter's times and title as
/// extended attributes.
final class ChapterImageFile: PictureFile, VersionNode {
    let spot: VersionSpot
    let entry: ChapterListing.Entry
    let recipe: PictureRecipe
    /// Where its chapter list came from (`found`: made from the analysis).
    let source: ChapterList.Source

    static let kind = "chapter-image"

    init?(folder: ChaptersFolder, entry: ChapterListing.Entry, format: ImageFormat, tree: MediaTree) throws {
        guard let plan = try tree.chapterImagePlan(of: folder.version, entry: entry, format: format) else { return nil }
        spot = VersionSpot(madeFile: Self.kind, named: entry.name(format), in: folder)
        source = folder.listing.list.source
        self.entry = entry
        recipe = PictureRecipe(plan: plan)
    }

    var shownAs: String { "\(version.shownAs)/\(MediaFolderNames.chapters)/\(placement!.name)" }

    /// What every chapter image carries; none of them needs the image.
    static let chapterAttributes = [
        "user.mediafs.chapter.start", "user.mediafs.chapter.end", "user.mediafs.chapter.title",
        "user.mediafs.chapter.language", "user.mediafs.chapter.image", "user.mediafs.chapter.source",
    ]

    /// A frame also tells which frame it is, as a thumbnail does (asking makes the image).
    func extendedAttributeNames(in tree: MediaTree) throws -> [String] {
        if case .frame = recipe.plan { return Self.chapterAttributes + ["user.mediafs.time"] }
        return Self.chapterAttributes
    }

    func extendedAttribute(_ name: String, in tree: MediaTree, reply: @escaping Reply<[UInt8]>) {
        if name == "user.mediafs.time" {
            return made(in: tree) { result in
                reply(result.map { Array(NameTime.decimalText($0.frame?.time ?? 0).utf8) })
            }
        }
        let value: String
        switch name {
        case "user.mediafs.chapter.start": value = NameTime.decimalText(entry.chapter.start)
        case "user.mediafs.chapter.end": value = NameTime.decimalText(entry.chapter.end)
        case "user.mediafs.chapter.title": value = entry.title?.text ?? ""
        case "user.mediafs.chapter.language": value = entry.title?.language ?? "und"
        case "user.mediafs.chapter.source": value = ChapterDocuments.sourceName(source)
        default: value = recipe.plan.shows.rawValue
        }
        reply(.success(Array(value.utf8)))
    }
}
