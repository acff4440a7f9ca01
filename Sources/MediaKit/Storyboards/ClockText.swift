/// Times written as a clock, from whole milliseconds or seconds: what WebVTT and SubRip cues, OGM
/// chapter files and picture labels show.
public enum ClockText {
    /// `HH:MM:SS.mmm` (WebVTT's cue timing and OGM chapters': hours always written, at least two
    /// digits).
    public static func cue(milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        return "\(clock(seconds: ms / 1000)).\(padded(ms % 1000, 3))"
    }

    /// `HH:MM:SS,mmm` (SubRip's cue timing).
    static func subRip(milliseconds: Int) -> String {
        let ms = max(0, milliseconds)
        return "\(clock(seconds: ms / 1000)),\(padded(ms % 1000, 3))"
    }

    /// `HH:MM:SS`, the whole seconds of `seconds` (truncated; negative and non-finite as 0).
    static func clock(seconds: Double) -> String {
        clock(seconds: seconds.isFinite && seconds > 0 ? Int(min(seconds, 3.6e9)) : 0)
    }

    /// `HH:MM:SS`.
    static func clock(seconds: Int) -> String {
        "\(padded(seconds / 3600, 2)):\(padded(seconds / 60 % 60, 2)):\(padded(seconds % 60, 2))"
    }

    /// Milliseconds as seconds with three decimals: `10.000`, `4.5` as `4.500`.
    static func seconds(milliseconds: Int) -> String {
        "\(milliseconds / 1000).\(padded(milliseconds % 1000, 3))"
    }

    static func padded(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
