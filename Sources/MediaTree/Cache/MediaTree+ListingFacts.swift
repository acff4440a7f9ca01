import Dispatch
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

    /// Adds to the facts of `version`; what is new is written to the database within a second
    /// (one transaction for everything learnt meanwhile) and at unmount (`flushCaches`).
    func learn(of version: MediaVersion, _ learn: (inout ListingFacts.Stored) -> Void) {
        let facts = listingFacts(of: version)
        // Known already (a listing made again): nothing to write.
        guard facts.learn(learn), probeDatabase != nil else { return }
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
