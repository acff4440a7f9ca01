/// Turning the text of an ASS event (what libavcodec's text subtitle decoders give) into the cue
/// text of SubRip or WebVTT, keeping only the styling both can say: italic, bold, underline.
enum ASSText {
    enum Flavor {
        /// SubRip: `<i>`, `<b>`, `<u>`; other text as it is.
        case srt
        /// WebVTT: `<i>`, `<b>`, `<u>`; `&`, `<` and `>` in the text escaped.
        case webvtt
    }

    /// The Text field of a decoded event line `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`
    /// (everything after the eighth comma; the text may hold commas). A line with fewer fields is all text.
    static func textField(ofEvent line: String) -> String {
        var commas = 0
        for index in line.indices where line[index] == "," {
            commas += 1
            if commas == 8 { return String(line[line.index(after: index)...]) }
        }
        return line
    }

    /// Who wrote the ASS text, which decides what in it is markup.
    enum Dialect {
        /// An ASS/SSA script (the stream's own events), read as libass reads it: every `{…}` is an
        /// override block or a comment, `\h` is a no-break space, `\{` and `\}` are braces.
        case script
        /// Text that libavcodec's decoder of another format (SubRip, mov_text, WebVTT) made into ASS,
        /// read as libavcodec's own SubRip and WebVTT encoders read it: only `{\…}` is markup, and
        /// other braces and backslashes are text (those decoders do not escape them).
        case decoded
    }

    /// The cue text of `text`: override blocks dropped, except `\i1`/`\i0`, `\b1`/`\b0`,
    /// `\u1`/`\u0` which become tags (closed at the end, `\r` closes them all); `\N` and `\n`
    /// become line breaks. Blank lines are removed, since a blank line ends a cue.
    /// - Returns: nil when nothing visible is left (an empty or style-only event).
    static func cueText(_ text: String, flavor: Flavor, dialect: Dialect = .decoded) -> String? {
        var builder = Builder(flavor: flavor)
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            let next: Unicode.Scalar? = i + 1 < scalars.count ? scalars[i + 1] : nil
            if c == "{", dialect == .script || next == "\\", let close = scalars[(i + 1)...].firstIndex(of: "}") {
                builder.apply(overrides: String(String.UnicodeScalarView(scalars[(i + 1)..<close])))
                i = close + 1
                continue
            }
            if c == "\\", let next {
                switch (next, dialect) {
                case ("N", _), ("n", _): builder.lineBreak()
                case ("h", .script): builder.append("\u{00A0}")
                case ("{", .script), ("}", .script): builder.append(next)
                default: builder.append(c); builder.append(next)
                }
                i += 2
                continue
            }
            builder.append(c)
            i += 1
        }
        return builder.finish()
    }

    /// Accumulates cue text and the open style tags.
    private struct Builder {
        let flavor: Flavor
        var out = ""
        var open: [String] = []
        var visible = false

        mutating func append(_ scalar: Unicode.Scalar) {
            if scalar == "\r" { return }
            if scalar == "\n" { return lineBreak() }
            if !scalar.properties.isWhitespace { visible = true }
            if flavor == .webvtt {
                switch scalar {
                case "&": out += "&amp;"; return
                case "<": out += "&lt;"; return
                case ">": out += "&gt;"; return
                default: break
                }
            }
            out.unicodeScalars.append(scalar)
        }

        mutating func lineBreak() {
            out += "\n"
        }

        /// Applies the tags of one override block (`\i1\fs20\b0`), ignoring all but i, b, u and r.
        mutating func apply(overrides block: String) {
            for token in block.split(separator: "\\") {
                let tag = token.trimmingSpaces
                guard let name = tag.first else { continue }
                let argument = tag.dropFirst()
                if name == "r" {
                    closeAll()
                    continue
                }
                guard "ibu".contains(name), argument.allSatisfy(\.isASCIIDigit) else { continue }
                let value = Int(argument) ?? 0
                // \b also takes a font weight: 100…900, bold from 600.
                let on = name == "b" ? (value == 1 || value >= 600) : value == 1
                set(String(name), on: on)
            }
        }

        mutating func set(_ tag: String, on: Bool) {
            if on {
                guard !open.contains(tag) else { return }
                open.append(tag)
                out += "<\(tag)>"
                return
            }
            guard let position = open.lastIndex(of: tag) else { return }
            let above = Array(open[(position + 1)...])
            for other in above.reversed() { out += "</\(other)>" }
            out += "</\(tag)>"
            open.remove(at: position)
            for other in above { out += "<\(other)>" }
        }

        mutating func closeAll() {
            for tag in open.reversed() { out += "</\(tag)>" }
            open.removeAll()
        }

        mutating func finish() -> String? {
            closeAll()
            guard visible else { return nil }
            let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingTrailingSpaces }
                .filter { !$0.allSatisfy(\.isWhitespace) }
            return lines.joined(separator: "\n")
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

private extension Substring {
    var trimmingSpaces: Substring {
        drop { $0 == " " }.trimmingTrailingSpaces
    }

    var trimmingTrailingSpaces: Substring {
        var result = self
        while result.last == " " || result.last == "\t" { result = result.dropLast() }
        return result
    }
}
