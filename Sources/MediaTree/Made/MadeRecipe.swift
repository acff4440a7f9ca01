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
    /// Every stored field, by name (`StableHashEncoder`), so a field added to a recipe (or to a
    /// MediaKit request it holds) is part of the key without anyone listing it.
    func write(to hasher: inout StableHasher) {
        StableHashEncoder.write(self, into: &hasher)
    }
}
