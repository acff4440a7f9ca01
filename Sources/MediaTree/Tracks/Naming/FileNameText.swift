/// Text made fit for a file name: the one place where names are cut to a number of bytes, for the
/// track names (`TrackPlan`) and the chapter image names (`ChapterNames`).
enum FileNameText {
    /// `text` with `/` replaced by `-`, NUL and other control characters (C0, DEL, C1, line and
    /// paragraph separators) turned into spaces, runs of white space collapsed to one space, trimmed,
    /// and cut on a character boundary to at most `maxBytes` bytes of UTF-8 (`truncated`).
    static func safe(_ text: String, maxBytes: Int) -> String {
        var cleaned = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isBreak = scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
                || scalar.properties.isWhitespace
            if isBreak {
                pendingSpace = !cleaned.isEmpty
                continue
            }
            if pendingSpace {
                cleaned.unicodeScalars.append(" ")
                pendingSpace = false
            }
            cleaned.unicodeScalars.append(scalar == "/" ? "-" : scalar)
        }
        return truncated(cleaned, toBytes: maxBytes)
    }

    /// `text` when its UTF-8 is at most `limit` bytes; else its longest run of whole characters
    /// (grapheme clusters: an emoji or a letter with its accents is never split) that fits in
    /// `limit` bytes with `ellipsis` after it, the spaces it ends with dropped (before the
    /// ellipsis). Empty when not even `ellipsis` fits. Callers have made every run of white space
    /// in `text` one space (`safe`, `ChapterNames.safeTitle`).
    static func truncated(_ text: String, toBytes limit: Int, ellipsis: String = "") -> String {
        if text.utf8.count <= limit { return text }
        let room = limit - ellipsis.utf8.count
        guard room >= 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > room { break }
            kept.append(character)
            used += size
        }
        while kept.last == " " { kept.removeLast() }
        return kept + ellipsis
    }
}
