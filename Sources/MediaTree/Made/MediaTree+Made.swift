import MediaKit

/// The one way everything the tree makes from a media file is had (`MadeOnPool`): pictures from
/// memory, the disk cache or the generation pool; documents from memory or rendered on the asker's
/// thread. Both under one typed key (`MadeKey`) and counted per kind (`MadeCounters`).
extension MediaTree {
    /// Hands what `recipe` makes of `version` to `reply`: from memory at once, else from the disk
    /// cache, else made on the generation pool (once, however many ask meanwhile), and kept in
    /// both. What is made must be `recipe.size` bytes long.
    /// `TreeError.media` naming `shownAs` where it cannot be made.
    func made<Recipe: MediaRecipe>(_ recipe: Recipe, of version: MediaVersion, shownAs: String,
                                   reply: @escaping Reply<MadeBytes>) {
        let size = recipe.size
        let key = MadeKey(recipe, of: version.identity, size: size, keptOnDisk: recipe.keptOnDisk)
        let (file, media) = (version.file, media)
        made.request(key, make: {
            do {
                let made = try recipe.make(from: file, media: media)
                guard made.bytes.count == size else {
                    throw MediaError.imageFailed(reason: "made \(made.bytes.count) bytes where \(size) were announced")
                }
                return made
            } catch let failure as MediaError {
                throw TreeError.media(path: shownAs, failure: failure)
            } catch {
                throw TreeError.io(path: shownAs, reason: "\(error)")
            }
        }, completion: reply)
    }

    /// The bytes of a document of `version` (`recipe` says which), rendered by `render` on this
    /// thread unless kept in memory; a document is text from the probe, quicker to render again
    /// than to read back, so it is never kept on disk. Not kept where something gave up rather
    /// than wait (`AtOnce`): it may rest on a stand-in.
    func rendered(_ recipe: DocumentRecipe, of version: MediaVersion, render: () throws -> [UInt8]) throws -> [UInt8] {
        let key = MadeKey(recipe, of: version.identity)
        if let kept = made.fromMemory(key) { return kept.bytes }
        let bytes = try counted(recipe, render)
        guard !AtOnce.hasGivenUp else { return bytes }
        made.keep(MadeBytes(bytes: bytes), for: key)
        version.facts.noteDocumentSize(bytes.count, of: recipe)
        return bytes
    }

    /// The length of a document of `version`, kept in the version's record: for as many documents
    /// as there are records, many more than their bytes (a library of 10,000 films lists 50,000),
    /// so a document is rendered for its size only the first time it is listed; its bytes are
    /// kept only once it is read. Kept as `rendered` is.
    func renderedSize(_ recipe: DocumentRecipe, of version: MediaVersion, render: () throws -> [UInt8]) throws -> Int {
        if let size = version.facts.documentSize(recipe) { return size }
        if let kept = made.fromMemory(MadeKey(recipe, of: version.identity)) { return kept.bytes.count }
        let size = try counted(recipe, render).count
        if !AtOnce.hasGivenUp { version.facts.noteDocumentSize(size, of: recipe) }
        return size
    }

    /// `render`'s bytes, counted as made (or failed) for the recipe's kind.
    private func counted(_ recipe: DocumentRecipe, _ render: () throws -> [UInt8]) throws -> [UInt8] {
        let counters = statistics.counters(of: recipe.kind)
        do {
            let bytes = try render()
            counters?.made.add(1, ordering: .relaxed)
            return bytes
        } catch {
            counters?.failures.add(1, ordering: .relaxed)
            throw error
        }
    }
}

/// Which document of a media folder: its name there and, for a document that holds the
/// original's name (`info.json`, `chapters.json`), that name (a version may have several: hard
/// links); empty for one that does not.
struct DocumentRecipe: MadeRecipe {
    var document: Name
    var fileName: Name
    /// The stamp of the analysis it shows (`MediaVersion.analysisStamp`); zero for none.
    var analysis: UInt64 = 0

    var kind: MadeKind { .documents }

    func write(to hasher: inout StableHasher) {
        hasher.add(document.bytes)
        hasher.add(CollectionOfOne(0))
        hasher.add(fileName.bytes)
        if analysis != 0 { hasher.add(analysis) }
    }
}

extension MadeKind {
    /// `info.json`, `chapters.json`, `chapters.txt`, `storyboard.vtt`, `storyboard.m3u8`.
    static let documents = MadeKind(name: "documents", revision: 1)
}
