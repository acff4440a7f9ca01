/// One subtitle event read from its picture: when it shows (the picture's times, in
/// microseconds from the start of the file), its lines, and whether it is forced.
struct ReadEvent: Equatable {
    var start: Int64
    var end: Int64
    var lines: [PictureReader.Line]
    var isForced: Bool

    /// The event as a SubRip cue numbered `number`: times in milliseconds (rounded to the
    /// nearest), a slanting line in `<i>` tags.
    func subRip(number: Int) -> String {
        let text = lines.map { $0.isItalic ? "<i>\($0.text)</i>" : $0.text }.joined(separator: "\n")
        return "\(number)\n\(Self.time(start)) --> \(Self.time(end))\n\(text)\n\n"
    }

    /// `HH:MM:SS,mmm` of `microseconds`, rounded to the nearest millisecond.
    static func time(_ microseconds: Int64) -> String {
        ClockText.subRip(milliseconds: Int(max(0, (microseconds + 500) / 1000)))
    }
}
