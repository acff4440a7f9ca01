extension NodeTable {
    /// How many numbers the table holds, and how many folders' listings it keeps: for the root's
    /// statistics only, as it walks the whole table under its lock (counted in `walks`).
    var counts: (numbers: Int, listings: Int) {
        walks.add(1, ordering: .relaxed)
        var counts = (numbers: 0, listings: 0)
        forEach { _, entry in
            guard !entry.isTombstone else { return }
            counts.numbers += 1
            if entry.listing?.isLasting == true { counts.listings += 1 }
        }
        return counts
    }
}
