import Synchronization

/// What working out source changes has cost since mount (`NumberedTree.invalidations(after:)`),
/// for the root's statistics: the batches of changes, the node table's entries looked at for them,
/// and the time taken. The bench reads them through a mount, where nothing else shows that work.
final class ChangeStatistics: Sendable {
    private let batches = Atomic(0)
    private let entries = Atomic(0)
    private let nanoseconds = Atomic(0)

    /// One batch, which looked at `entries` entries of the table, begun at `start`.
    func record(entries looked: Int, since start: ContinuousClock.Instant) {
        let taken = (ContinuousClock.now - start).components
        entries.add(looked, ordering: .relaxed)
        nanoseconds.add(Int(taken.seconds) * 1_000_000_000 + Int(taken.attoseconds / 1_000_000_000), ordering: .relaxed)
        // Last: a reader that sees the batch counted sees its figures.
        batches.add(1, ordering: .releasing)
    }

    /// `source_changes`, `source_change_entries`, `source_change_microseconds`.
    var fields: [(String, Int)] {
        let batches = batches.load(ordering: .acquiring)
        return [("source_changes", batches), ("source_change_entries", entries.load(ordering: .relaxed)),
                ("source_change_microseconds", nanoseconds.load(ordering: .relaxed) / 1000)]
    }

    /// The batches recorded.
    var count: Int { batches.load(ordering: .acquiring) }
    /// The entries looked at, in all batches.
    var entriesLookedAt: Int { entries.load(ordering: .relaxed) }
}
