import MediaKit
import Synchronization

/// What the listings of one version of a media file need beyond its probe, learnt as they are
/// made and kept in the probe database with it: the lengths of its documents, how its chapter
/// images are made, the sizes of its track files. With them a remount lists a library it listed
/// before without rendering a document or opening a media file (`MediaTree.listingFacts(of:)`).
///
/// Kept per version (in its record, `VersionFacts.listing`) and per the settings listings depend
/// on (`ListingFacts.kind`): a changed file or another `--image-format` is a miss, as a changed
/// file is for its probe.
final class ListingFacts: Sendable {
    /// As kept in the database (JSON).
    struct Stored: Codable, Sendable, Equatable {
        /// Documents whose text is the same for every name of the version, by name: their length.
        var documents: [String: Int] = [:]
        /// Documents that hold the original's name, by name: their length less that name's JSON
        /// string (`NamelessDocument`).
        var namedDocuments: [String: Int] = [:]
        /// How the image of a chapter with artwork of its own is made (nil: it has none usable), by
        /// `"INDEX FORMAT"` (the plan reads the artwork's header in the media file).
        var chapterArtwork: [String: ImagePlan?] = [:]
        /// The length of each track file, by `TrackSet.id`, of each pass (by `TrackSetKey.Part`:
        /// the audio and subtitle pass, the alternative video pass, the text read from pictures,
        /// the server layout's sidecars) once made; a file that failed for good has none.
        var tracks: [String: [String: Int64]] = [:]
    }

    private let stored: Mutex<Stored>

    init(_ stored: Stored = Stored()) {
        self.stored = Mutex(stored)
    }

    var snapshot: Stored { stored.withLock { $0 } }

    /// Updates the facts with what `learn` adds.
    /// - Returns: whether it changed them (then they are to be written).
    @discardableResult
    func learn(_ learn: (inout Stored) -> Void) -> Bool {
        stored.withLock { facts -> Bool in
            let before = facts
            learn(&facts)
            return facts != before
        }
    }

    /// The key of a chapter's artwork plan in `Stored.chapterArtwork`.
    static func artworkKey(chapter index: Int, format: ImageFormat) -> String { "\(index) \(format.rawValue)" }

    /// The kind they are kept under in the probe database: the settings that change a listed size
    /// (`TreeSettings.listedSizes`, declared beside the settings), and a revision of what is
    /// recorded (raise a kind's when a length or a plan comes to be worked out otherwise: the JPEG
    /// budget, a document's text).
    static func kind(for settings: TreeSettings) -> String {
        let hash = StableHasher.hash { hasher in
            StableHashEncoder.write(settings.listedSizes, into: &hasher)
            for kind in [MadeKind.documents, .chapterImages, .covers, .trackSets, .sidecarSets, .readTextSets] { hasher.add(kind.revision) }
        }
        return "listing-3-" + String(hash, radix: 16)
    }
}
