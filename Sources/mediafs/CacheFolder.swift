import Foundation

/// Where the cache lives: `--cache-dir`, else `$XDG_CACHE_HOME/mediafs`, else `~/.cache/mediafs`.
enum CacheFolder {
    /// The absolute cache folder for the option's value; nil for an empty value (no cache on disk).
    static func resolve(_ option: String?) -> String? {
        if let option {
            return option.isEmpty ? nil : MountPreflight.absolute(option)
        }
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/mediafs" }
        return (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.cache/mediafs"
    }
}

/// Sizes as users write them: `2147483648`, `500M`, `2G`, `1.5G` (powers of 1024; a trailing `B`
/// or `iB` is allowed).
enum ByteSize {
    static func parse(_ text: String) -> Int64? {
        var body = text.trimmingCharacters(in: .whitespaces).uppercased()
        if body.hasSuffix("IB") { body.removeLast(2) } else if body.hasSuffix("B") { body.removeLast() }
        let units: [Character: Double] = ["K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776]
        var factor: Double = 1
        if let last = body.last, let unit = units[last] {
            factor = unit
            body.removeLast()
        }
        guard let number = Double(body), number >= 0, number.isFinite else { return nil }
        let bytes = number * factor
        guard bytes < 9.0e18 else { return nil }
        return Int64(bytes)
    }

    /// `bytes` as a short human text: `1.5 GiB`, `320 KiB`, `12 B`.
    static func text(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
