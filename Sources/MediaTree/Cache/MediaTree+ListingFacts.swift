import MediaKit

/// The listing facts of each version (`ListingFacts`), in its record: read from the probe database
/// with its probe, learnt as listings are made, written back in batches.
extension MediaTree {
    /// The facts of `version`.
    func listingFacts(of version: MediaVersion) -> ListingFacts { version.facts.listing }

    /// Whether the media folder of `version` (and its `chapters/`) lists from memory: its chapter
    /// list is known (read with its probe, or before), and for each chapter with artwork of its
    /// own, how its image is made. Otherwise its listing may read the file, on a worker.
    func listsFromMemory(_ version: MediaVersion) -> Bool {
        guard let chapters = version.facts.chapters.known else { return false }
        guard let chapters, chapters.entries.contains(where: { $0.chapter.artwork != nil }) else { return true }
        let known = version.facts.listing.snapshot.chapterArtwork
        return chapters.entries.allSatisfy { entry in
            entry.chapter.artwork == nil || known[ListingFacts.artworkKey(chapter: entry.index, format: settings.imageFormat)] != nil
        }
    }

    /// Adds to the facts of `version`; what is new is written to the database within a second
    /// (one transaction for everything learnt meanwhile) and at unmount (`flushCaches`). Nothing is
    /// learnt where something gave up rather than wait (`AtOnce`): the facts may be a stand-in for
    /// those not read, and would be written over them.
    func learn(of version: MediaVersion, _ learn: (inout ListingFacts.Stored) -> Void) {
        self.learn(of: version.facts, learn)
    }

    /// Adds to the facts of the version of `record`, as `learn(of:_:)` does.
    func learn(of record: VersionFacts, _ learn: (inout ListingFacts.Stored) -> Void) {
        let facts = record.listing
        // Known already (a listing made again): nothing to write.
        guard !AtOnce.hasGivenUp, facts.learn(learn) else { return }
        probeDatabase?.store(listing: facts, kind: listingFactsKind, for: record.identity)
    }
}
