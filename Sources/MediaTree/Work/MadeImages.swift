import MediaKit

extension MediaTree {
    /// Hands the image `what` of `version` (a stable text naming what it shows, e.g. a
    /// storyboard's request and sheet) to `reply`: from the memory cache at once, else from the
    /// disk cache, else made by `make` on the generation pool, once however many ask meanwhile, and
    /// kept in both caches. A kept image is served only when it is whole (`size` bytes).
    /// `TreeError.io` naming `shownAs` where it cannot be made.
    func madeImage(_ what: String, of version: MediaVersion, size: Int, shownAs: String,
                   make: @escaping @Sendable () throws -> MadeImage, reply: @escaping Reply<MadeImage>) {
        let identity = version.identity
        let diskKey = "\(what) \(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds)"
        images.request(ImageKey(identity: identity, what: what), work: { [diskCache, statistics] in
            if let diskCache, let kept = Self.image(from: diskCache, key: diskKey, size: size) {
                TreeStatistics.count(statistics.picturesFromDisk)
                return kept
            }
            do {
                let made = try make()
                guard made.bytes.count == size else {
                    throw MediaError.imageFailed(reason: "made \(made.bytes.count) bytes where \(size) were announced")
                }
                if let diskCache { Self.store(made, in: diskCache, key: diskKey) }
                return made
            } catch {
                throw TreeError.io(path: shownAs, reason: "\(error)")
            }
        }, completion: reply)
    }
}
