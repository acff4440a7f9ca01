/// Times as the mount writes them in names: `12.5s`, `90s`, `1m30s`, `1h02m03.5s`, `00:01:30.5`,
/// `25%` (parsed), `at-01m30s` and `00h01m30s` (written), and the decimal seconds of the extended
/// attributes.
///
/// One parser for every name that carries a time (thumbnails; chapter names use the writers
/// below), so the grammar in Docs/LAYOUT.md has one implementation. Strict: lowercase units,
/// digits only, no sign, no exponent.
public enum NameTime {
    /// A time as written: seconds from the start, or a share of the duration.
    public enum Value: Hashable, Sendable {
        case seconds(Double)
        /// 0 to 100.
        case percent(Double)

        /// Seconds from the start of a file lasting `duration` seconds.
        public func seconds(duration: Double) -> Double {
            switch self {
            case .seconds(let s): return s
            case .percent(let p): return duration * p / 100
            }
        }
    }

    /// Digits before the point, at most; longer numbers are no times anyone writes.
    static let maxDigits = 9

    /// The time written in `text`, or nil when it is not one of the forms above.
    public static func parse(_ text: Substring) -> Value? {
        if text.hasSuffix("%") {
            guard let p = decimal(text.dropLast()), p <= 100 else { return nil }
            return .percent(p)
        }
        if text.contains(":") { return clock(text).map(Value.seconds) }
        return composite(text).map(Value.seconds)
    }

    /// `HH:MM:SS[.f]` or `MM:SS[.f]`; every part after the first below 60, only the last with a fraction.
    static func clock(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            guard let value = isLast ? decimal(part) : integer(part) else { return nil }
            if i > 0 {
                guard value < 60, part.prefix(while: { $0 != "." }).count == 2 else { return nil }
            }
            total = total * 60 + value
        }
        return total
    }

    /// `[Nh][Nm][N[.f]s]`, units in that order, at least one; a part after the first below 60.
    static func composite(_ text: Substring) -> Double? {
        var rest = text
        var total = 0.0
        var units: [Character] = ["h", "m", "s"]
        var parts = 0
        while !rest.isEmpty {
            guard let end = rest.firstIndex(where: { !$0.isASCII || !($0.isNumber || $0 == ".") }) else { return nil }
            let number = rest[..<end]
            let unit = rest[end]
            guard let unitIndex = units.firstIndex(of: unit) else { return nil }
            let value: Double?
            if unit == "s" { value = decimal(number) } else { value = integer(number) }
            guard let value else { return nil }
            if parts > 0 && value >= 60 { return nil }
            total += value * (unit == "h" ? 3600 : unit == "m" ? 60 : 1)
            units.removeFirst(unitIndex + 1)
            parts += 1
            rest = rest[rest.index(after: end)...]
        }
        return parts > 0 ? total : nil
    }

    /// Digits with an optional fraction (`12`, `12.5`), or nil.
    static func decimal(_ text: Substring) -> Double? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, isDigits(whole), whole.count <= maxDigits else { return nil }
        if pieces.count == 2 {
            guard isDigits(pieces[1]), pieces[1].count <= 9 else { return nil }
        }
        return Double(text)
    }

    static func integer(_ text: Substring) -> Double? {
        guard isDigits(text), text.count <= maxDigits else { return nil }
        return Double(text)
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Whole seconds written so that names of one file sort in time order: `MMmSSs`, or `HhMMmSSs`
    /// (hours as wide as the duration's) when the file lasts an hour or more.
    public static func sortable(seconds: Int, duration: Double) -> String {
        let mmss = pad(seconds / 60 % 60) + "m" + pad(seconds % 60) + "s"
        guard duration >= 3600 else { return mmss }
        let hours = String(seconds / 3600)
        let width = String(Int(duration) / 3600).count
        return String(repeating: "0", count: max(0, width - hours.count)) + hours + "h" + mmss
    }

    /// Seconds to the microsecond written as `sortable` writes whole ones, the fraction after the
    /// seconds (`01m02.5s`, `1h00m03.041708s`): a name `NameTime.parse` reads back to the same
    /// microsecond, sorting in time order among the names of one file.
    public static func sortable(exactSeconds seconds: Double, duration: Double) -> String {
        let micro = Int64((max(0, seconds) * 1_000_000).rounded())
        let whole = sortable(seconds: Int(micro / 1_000_000), duration: duration)
        let fraction = micro % 1_000_000
        guard fraction != 0 else { return whole }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return whole.dropLast() + "." + digits + "s"
    }

    /// Whole seconds as `HHhMMmSSs` (chapter names): hours padded to `hourDigits` (at least 2),
    /// so that names with the same padding sort in time order.
    public static func hoursMinutesSeconds(_ seconds: Int, hourDigits: Int = 2) -> String {
        let hours = String(seconds / 3600)
        let width = max(2, hourDigits)
        return String(repeating: "0", count: max(0, width - hours.count)) + hours + "h"
            + pad(seconds / 60 % 60) + "m" + pad(seconds % 60) + "s"
    }

    /// Seconds as the shortest decimal with at most 6 places: `12.5`, `90`, `0.041708`.
    public static func decimalText(_ seconds: Double) -> String {
        let micro = (seconds * 1_000_000).rounded()
        let whole = Int64(micro / 1_000_000), fraction = Int64(micro) - whole * 1_000_000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
}
