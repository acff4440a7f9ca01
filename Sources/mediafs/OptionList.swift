/// `-o` option lists as `mount` and fstab write them.
enum OptionList {
    /// Options that only mean something to mount(8) or fstab, or that every mediafs mount has anyway.
    static let ignored: Set<String> = [
        "ro", "defaults", "auto", "noauto", "user", "nouser", "users", "owner", "group",
        "nofail", "_netdev", "rw",
    ]

    /// The options to hand to libfuse from `-o` values (each a comma-separated list). `rw` is
    /// dropped like the other fstab words: a mediafs mount is read-only whatever is asked.
    /// - Throws: `CLIError` (`.usage`) for an option with no name (`=x`).
    static func fuseOptions(from values: [String]) throws -> [String] {
        var result: [String] = []
        for value in values {
            for option in split(value) {
                if option.isEmpty { continue }
                // Empty pieces kept: "=x" has an empty name (split's default would make it "x").
                let name = String(option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
                if ignored.contains(name) || name.hasPrefix("x-") || name == "comment" { continue }
                if name.isEmpty { throw CLIError(.usage, "malformed mount option '\(option)'") }
                result.append(option)
            }
        }
        return result
    }

    /// Splits on commas that are not escaped with a backslash (escapes are kept for libfuse).
    static func split(_ list: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in list {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}
