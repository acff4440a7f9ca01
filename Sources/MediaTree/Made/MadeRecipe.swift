import Foundation
import MediaKit

/// What one made thing is made from besides its source version: equal recipes of one version
/// give the same bytes. The recipe is the typed half of its `MadeKey`.
protocol MadeRecipe: Hashable, Sendable {
    var kind: MadeKind { get }
    /// Writes every field the bytes depend on, in a fixed order: the key's stable hash, which
    /// names the thing in the disk cache across mounts.
    func write(to hasher: inout StableHasher)
}

/// A recipe made from the media file through the media service, on the generation pool: a
/// picture (thumbnail, chapter image, cover, storyboard sheet, contact sheet).
protocol MediaRecipe: MadeRecipe {
    /// The exact length of what `make` makes, known without making it (`stat` gives it).
    var size: Int { get }
    /// Whether what is made is kept in the disk cache: false for what is as quick to make again
    /// as to read back (a picture stored in the file, served as it is).
    var keptOnDisk: Bool { get }
    /// Makes it. Runs on the generation pool.
    /// - Throws: `MediaError`.
    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes
}

extension MadeRecipe {
    /// Whether `other` is a recipe of this type equal to this one.
    func isEqual(to other: any MadeRecipe) -> Bool {
        (other as? Self) == self
    }
}

extension MediaRecipe {
    var keptOnDisk: Bool { true }
}

extension MadeRecipe where Self: Encodable {
    /// The recipe as JSON with sorted keys: every stored field, by name, so a field added to a
    /// recipe (or to a MediaKit request it holds) is part of the key without anyone listing it.
    func write(to hasher: inout StableHasher) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding fails only for a number JSON cannot hold (NaN, infinity): then its description.
        if let json = try? encoder.encode(self) {
            hasher.add(json)
        } else {
            hasher.add(String(describing: self))
        }
    }
}
