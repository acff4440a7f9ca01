/// The file names of chapter images: `NN HHhMMmSSs Title.png`, safe on any Linux file system and
/// for the tools that read them. The rules are in Docs/LAYOUT.md; this is their one implementation.
public enum ChapterNames {
    /// The most bytes a name may have.
    public static let maximumBytes = Name.maximumBytes
    /// What stands for `/` in a title: U+2215 DIVISION SLASH, which looks like it.
    public static let slashLookalike: Character = "\u{2215}"
    /// Put after a title that had to be cut.
    public static let ellipsis = "\u{2026}"

    /// The names of chapters numbered 1, 2, … in the order given, from each one's start (seconds)
    /// and title (as chosen; nil or unusable: no title in the name). The number is zero-padded to
    /// the width of the count (at least 2 digits), the start written `HHhMMmSSs` (whole seconds,
    /// hours padded alike for all), so that `ls` sorts the names in the order given. Every name is
    /// at most `maximumBytes` bytes of UTF-8 and differs from the others and from `reserved`.
    public static func names(starts: [Double], titles: [String?], reserved: Set<String> = []) -> [String] {
        precondition(starts.count == titles.count, "one title (or nil) per start")
        let count = starts.count
        let numberWidth = max(2, String(count).count)
        let seconds = starts.map { $0.isFinite && $0 > 0 ? Int($0.rounded(.down)) : 0 }
        let hourDigits = max(2, String((seconds.max() ?? 0) / 3600).count)
        var used = reserved
        var result: [String] = []
        for i in 0..<count {
            let number = String(i + 1)
            let prefix = String(repeating: "0", count: numberWidth - number.count) + number + " "
                + NameTime.hoursMinutesSeconds(seconds[i], hourDigits: hourDigits)
            let title = safeTitle(titles[i])
            var name = compose(prefix: prefix, title: title, suffix: "")
            var copy = 2
            while used.contains(name) {
                name = compose(prefix: prefix, title: title, suffix: " (\(copy))")
                copy += 1
            }
            used.insert(name)
            result.append(name)
        }
        return result
    }

    /// `text` made fit for a file name, or nil when nothing is left: `/` becomes `∕`; NUL, the
    /// other control characters (C0, DEL, C1) and the line and paragraph separators become
    /// spaces; runs of white space become one space; white space at either end is dropped.
    /// (A Swift string is always valid Unicode: bytes that were not UTF-8 were replaced by U+FFFD
    /// when the title was read.)
    public static func safeTitle(_ text: String?) -> String? {
        guard let text else { return nil }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2F: cleaned.append(contentsOf: String(slashLookalike).unicodeScalars)
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: cleaned.append(" ")
            default: cleaned.append(scalar)
            }
        }
        var result = ""
        var pendingSpace = false
        for character in String(cleaned) {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result.isEmpty ? nil : result
    }

    /// `prefix`, a space and `title` (cut to fit, with `ellipsis`: `FileNameText.truncated`),
    /// `suffix`, `.png`: at most `maximumBytes` bytes.
    static func compose(prefix: String, title: String?, suffix: String) -> String {
        let fixed = prefix.utf8.count + suffix.utf8.count + ".png".utf8.count
        guard let title, fixed + 1 < maximumBytes else { return prefix + suffix + ".png" }
        let fitted = FileNameText.truncated(title, toBytes: maximumBytes - fixed - 1, ellipsis: ellipsis)
        return fitted.isEmpty ? prefix + suffix + ".png" : prefix + " " + fitted + suffix + ".png"
    }
}
