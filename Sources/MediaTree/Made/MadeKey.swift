import MediaKit

/// Which made thing of which source version: the one key of the memory cache, the disk cache and
/// the work under way. Its stable hash covers the kind, the version and every field of the recipe
/// (`MadeRecipe.write(to:)`), so it is also the disk cache's key across mounts.
struct MadeKey: Hashable, Sendable {
    let kind: MadeKind
    let identity: FileIdentity
    /// The recipe itself, compared where two keys' hashes meet.
    let recipe: any MadeRecipe
    /// The exact length of what is made, where it is known before: a kept file of another length
    /// (made by a build whose sizes differed) is never served.
    let size: Int?
    /// Whether what is made is kept in the disk cache (`MediaRecipe.keptOnDisk`); not hashed.
    let keptOnDisk: Bool
    let stableHash: UInt64

    init<Recipe: MadeRecipe>(_ recipe: Recipe, of identity: FileIdentity, size: Int? = nil, keptOnDisk: Bool = false) {
        kind = recipe.kind
        self.identity = identity
        self.recipe = recipe
        self.size = size
        self.keptOnDisk = keptOnDisk
        stableHash = StableHasher.hash { hasher in
            hasher.add(recipe.kind.name)
            hasher.add(recipe.kind.revision)
            hasher.add(identity)
            hasher.add(size ?? -1)
            recipe.write(to: &hasher)
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(stableHash) }

    static func == (a: MadeKey, b: MadeKey) -> Bool {
        a.stableHash == b.stableHash && a.kind == b.kind && a.identity == b.identity && a.recipe.isEqual(to: b.recipe)
    }

    /// The key in the disk cache's index: the kind's name, so `mediafs cache` can tell kinds
    /// apart, and the hash.
    var diskKey: String { kind.name + " " + String(stableHash, radix: 16) }
}
