/// Finds the longest stretch two raw Chromaprint fingerprints share, as Jellyfin's intro-skipper
/// does: offsets between them voted for by items found in both, and at each offset voted for, the
/// items that differ in few bits, in runs whose gaps are short.
enum FingerprintMatcher {
    /// Bits two items may differ in and still match: an item sums about 2.6 s of chroma, and the
    /// same sound encoded twice, or cut at another point of an item's step, changes a few of them.
    static let maxBitErrors = 6
    /// Seconds of items that do not match a run bridges (a louder effect over the shared music).
    static let maxGapSeconds = 3.5
    /// Offsets tried, the most voted for (each with its neighbours: an item's step may cut the two
    /// films at offsets half a step apart).
    static let triedOffsets = 6
    /// Items at most this far apart belong to one cluster, and a cluster has at least this many
    /// (three quarters of a second).
    static let clusterGap = 2
    static let clusterItems = 6
    /// Items whose value is this common in a fingerprint vote for no offset: silence or a steady
    /// tone, which match anywhere.
    static let commonValue = 40
    /// The share of a run's items that must match, and of its matching items that must differ
    /// from one another (silence, or a steady tone, gives the same item over and over).
    static let density = 0.5
    static let variety = 0.25

    /// Seconds of audio an item sums (Chromaprint's delay, 2.6 s at its default settings).
    static let itemSpan: Double = (try? Chromaprinter())?.spanSeconds ?? 2.6

    /// The stretch `a` and `b` share with the most items matching (the longest, bar its gaps) whose length is within `lasting`, on `a`'s clock, or nil.
    /// Its ends are placed to about a second: from the first matching item's start plus a quarter
    /// of what an item sums, to the last one's start plus three quarters of it (an item still
    /// matches while most of what it sums is shared).
    static func longestRun(_ a: AudioFingerprint, _ b: AudioFingerprint, lasting: ClosedRange<Double>) -> SharedRun? {
        let step = a.itemSeconds
        guard step > 0, !a.items.isEmpty, !b.items.isEmpty, abs(b.itemSeconds - step) < 1e-9 else { return nil }
        let gap = Int((maxGapSeconds / step).rounded())
        var best: SharedRun?
        var bestMatched = 0
        for offset in offsets(a.items, b.items) {
            let lag = b.start + Double(offset) * step - a.start
            for (first, last, matched, distinct) in runs(a.items, b.items, offset: offset, gap: gap) {
                let items = last - first + 1
                guard Double(matched) >= density * Double(items), Double(distinct) >= variety * Double(matched) else { continue }
                let run = SharedRun(start: a.start + Double(first) * step + itemSpan / 4,
                                    end: a.start + Double(last) * step + itemSpan * 3 / 4,
                                    lag: lag, density: Double(matched) / Double(items))
                // Of runs at neighbouring offsets over the same stretch, the densest is the offset
                // nearest the true lag: the most items matched wins.
                guard lasting.contains(run.seconds), matched > bestMatched else { continue }
                best = run
                bestMatched = matched
            }
        }
        return best
    }

    /// The offsets (an index of `b` less one of `a`) most voted for by items the two share, with
    /// their neighbours.
    static func offsets(_ a: [UInt32], _ b: [UInt32]) -> [Int] {
        var places: [UInt32: [Int]] = [:]
        for (j, item) in b.enumerated() { places[item, default: []].append(j) }
        var votes: [Int: Int] = [:]
        for (i, item) in a.enumerated() {
            guard let found = places[item], found.count < commonValue else { continue }
            for j in found { votes[j - i, default: 0] += 1 }
        }
        let top = votes.filter { $0.value >= 2 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(triedOffsets)
        var tried: [Int] = []
        for (offset, _) in top {
            for near in [offset, offset - 1, offset + 1] where !tried.contains(near) { tried.append(near) }
        }
        return tried
    }

    /// The runs of matching items at `offset`: clusters (items matching with at most
    /// `clusterGap` between them, at least `clusterItems` of them), joined where at most `gap`
    /// items lie between two. A lone item that matches by chance (the same notes played) is no
    /// cluster, so it draws no run's end a gap away from the shared sound. Each run as its first
    /// and last item of `a`, the items matched, and the distinct values among them.
    static func runs(_ a: [UInt32], _ b: [UInt32], offset: Int, gap: Int) -> [(Int, Int, Int, Int)] {
        let from = max(0, -offset), to = min(a.count, b.count - offset)
        guard from < to else { return [] }
        var hits: [Int] = []
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in from..<to where (a[i] ^ b[i + offset]).nonzeroBitCount <= maxBitErrors { hits.append(i) }
            }
        }
        var clusters: [ArraySlice<Int>] = []
        var first = 0
        for k in hits.indices where k == hits.count - 1 || hits[k + 1] - hits[k] > clusterGap + 1 {
            if k - first + 1 >= clusterItems { clusters.append(hits[first...k]) }
            first = k + 1
        }
        var runs: [(Int, Int, Int, Int)] = []
        var run: [Int] = []
        func close() {
            if let head = run.first, let tail = run.last { runs.append((head, tail, run.count, Set(run.map { a[$0] }).count)) }
            run.removeAll()
        }
        for cluster in clusters {
            if let last = run.last, cluster.first! - last > gap + 1 { close() }
            run.append(contentsOf: cluster)
        }
        close()
        return runs
    }
}
