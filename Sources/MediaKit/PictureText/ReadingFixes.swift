/// What Tesseract reads wrong in subtitles in the same way every time, put right: a sans-serif
/// capital I is a bare vertical stroke, which it reads as `|`, a character no subtitle line
/// holds; ligatures its models give for `fi` and `fl`, which no subtitle picture draws as one;
/// runs of spaces.
enum ReadingFixes {
    static func fixed(_ line: String) -> String {
        var text = ""
        text.reserveCapacity(line.utf8.count)
        var lastWasSpace = false
        for character in line {
            switch character {
            case "|": text.append("I")
            case "\u{FB01}": text.append("fi")
            case "\u{FB02}": text.append("fl")
            case " ":
                if !lastWasSpace { text.append(" ") }
            default: text.append(character)
            }
            lastWasSpace = character == " "
        }
        return text
    }
}
