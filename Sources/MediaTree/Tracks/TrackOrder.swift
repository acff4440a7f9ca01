import MediaKit

/// The order of a group's folder: by stream, with the tracks in the reader's best matching
/// language moved first. (`ls` sorts by name anyway; the order shows in `ls -U`, `find`,
/// `os.listdir` and file managers that keep the folder's order.)
enum TrackOrder {
    /// `entries` in stream order, stably reordered by the first of `preferred` each matches: an
    /// exact match (language and region or script) before a language match, entries of the first
    /// preferred language before those of the second, entries matching none last.
    static func ordered(_ entries: [TrackPlan.Entry], preferred: [String]) -> [TrackPlan.Entry] {
        let wanted = preferred.compactMap(LanguageCode.init)
        guard !wanted.isEmpty else { return entries }
        func rank(_ entry: TrackPlan.Entry) -> Int {
            guard let code = LanguageCode(entry.language) else { return Int.max }
            for (index, language) in wanted.enumerated() {
                if language.matchesExactly(code) { return 2 * index }
                if language.matches(code) { return 2 * index + 1 }
            }
            return Int.max
        }
        return entries.enumerated()
            .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            .map(\.element)
    }
}
