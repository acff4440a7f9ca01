/// Making text that comes from a media file (a stream's title) safe inside a file name.
enum FileNameText {
    /// `text` with `/` replaced by `-`, NUL and other control characters (C0, DEL, C1, line and
    /// paragraph separators) turned into spaces, runs of white space collapsed to one space, trimmed,
    /// and cut on a character boundary to at most `maxBytes` bytes of UTF-8.
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
        return prefix(cleaned, maxBytes: maxBytes)
    }

    /// The longest prefix of `text` made of whole characters that fits in `maxBytes` bytes of UTF-8,
    /// without trailing spaces.
    static func prefix(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > maxBytes { break }
            result.append(character)
            bytes += size
        }
        while result.last == " " { result.removeLast() }
        return result
    }
}
