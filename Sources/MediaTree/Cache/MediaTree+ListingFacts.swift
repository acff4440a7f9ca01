import Dispatch
import Foundation
import MediaKit

/// The listing facts of each version (`ListingFacts`): read from the probe database at first use
/// in a mount, learnt as listings are made, written back in batches.
extension MediaTree {
    /// The facts of `version`, read from the probe database the first time a mount asks.
    func listingFacts(of version: MediaVersion) -> ListingFacts {
        let identity = version.identity
        return (try? listingFactsByVersion.value(for: identity) { [probeDatabase, listingFactsKind] in
            ListingFacts(probeDatabase?.value(ListingFacts.Stored.self, kind: listingFactsKind, for: identity) ?? .init())
        }) ?? ListingFacts()
    }

    /// Takes the chapter list and the listing facts of the file at `identity`, read from the probe
    /// database with its probe (`ProbeDatabase.kept(_:with:)`), as read: its media folder then
    /// lists from memory (`listsFromMemory`).
    func seedListing(of identity: FileIdentity, from kept: [String: Data]) {
        let decoder = JSONDecoder()
        if let data = kept[Self.chapterListKind], let list = try? decoder.decode(ChapterList.self, from: data) {
            let preferred = settings.preferredLanguages
            _ = try? chapterListings.value(for: identity) { ChapterListing(list: list, preferred: preferred) }
        }
        if let data = kept[listingFactsKind], let stored = try? decoder.decode(ListingFacts.Stored.self, from: data) {
            _ = try? listingFactsByVersion.value(for: identity) { ListingFacts(stored) }
        }
    }

    /// Whether the media folder of `version` (and its `chapters/`) lists from memory: its chapter
    /// list and listing facts are read, and the facts say how each chapter's artwork is made.
    /// Otherwise its listing may read the file or the database (a first mount), on a worker.
    func listsFromMemory(_ version: MediaVersion) -> Bool {
        let identity = version.identity
        guard case .success(let chapters)? = chapterListings.cached(identity),
              case .success(let facts)? = listingFactsByVersion.cached(identity) else { return false }
        guard let chapters, chapters.entries.contains(where: { $0.chapter.artwork != nil }) else { return true }
        let known = facts.snapshot.chapterArtwork
        return chapters.entries.allSatisfy { entry in
            entry.chapter.artwork == nil || known[ListingFacts.artworkKey(chapter: entry.index, format: settings.imageFormat)] != nil
        }
    }

    /// Adds to the facts of `version`; what is new is written to the database within a second
    /// (one transaction for everything learnt meanwhile) and at unmount (`flushCaches`). Nothing is
    /// learnt where something gave up rather than wait (`AtOnce`): the facts may be a stand-in for
    /// those not read, and would be written over them.
    func learn(of version: MediaVersion, _ learn: (inout ListingFacts.Stored) -> Void) {
        let facts = listingFacts(of: version)
        // Known already (a listing made again): nothing to write.
        guard !AtOnce.hasGivenUp, facts.learn(learn), probeDatabase != nil else { return }
        let isFirst = factsToWrite.withLock { pending -> Bool in
            pending[version.identity] = facts
            return pending.count == 1
        }
        if isFirst {
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 1) { [weak self] in self?.writeListingFacts() }
        }
    }

    /// Writes the facts learnt since the last write.
    func writeListingFacts() {
        let pending = factsToWrite.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        let changed = pending.compactMap { identity, facts in facts.takeChange() ? (identity, facts.snapshot) : nil }
        guard !changed.isEmpty else { return }
        probeDatabase?.store(changed, kind: listingFactsKind)
    }
}
