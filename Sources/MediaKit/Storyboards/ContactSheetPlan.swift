/// Which frame each tile of a contact sheet shows, so that no two tiles show the same one.
///
/// A tile shows the keyframe nearest its time (as a storyboard's tiles) when it is the tile
/// nearest that keyframe; the other tiles nearest the same keyframe (a film with fewer keyframes
/// than tiles, or keyframes far apart) show the exact frame at their own times instead: decoded
/// further, but distinct. Made from the keyframe index alone, so the tile count (and so the
/// sheet's size) stays what the layout says.
struct ContactSheetPlan: Equatable {
    /// What one tile shows.
    enum Source: Equatable {
        /// The keyframe presented at this time of the index.
        case keyframe(Int64)
        /// The frame a player shows at this time (`DecodeSession.exactFrame(at:)`).
        case exact(Int64)
    }

    /// One source per tile, in tile order.
    let sources: [Source]

    /// The plan for tiles at `times` (stream time base, ascending) over the keyframes of `index`.
    /// Of the tiles nearest one keyframe, the nearest to it shows it (of two as near, the earlier).
    init(times: [Int64], index: KeyframeIndex) {
        let nearest = times.map { index.nearest(to: $0) }
        var owner: [Int64: Int] = [:]
        for (tile, keyframe) in nearest.enumerated() {
            guard let keyframe else { continue }
            if let other = owner[keyframe], abs(times[other] - keyframe) <= abs(times[tile] - keyframe) { continue }
            owner[keyframe] = tile
        }
        sources = times.indices.map { tile in
            guard let keyframe = nearest[tile], owner[keyframe] == tile else { return .exact(times[tile]) }
            return .keyframe(keyframe)
        }
    }

    /// The keyframes some tile shows, ascending.
    var keyframes: [Int64] {
        sources.compactMap { if case .keyframe(let time) = $0 { time } else { nil } }.sorted()
    }
}
