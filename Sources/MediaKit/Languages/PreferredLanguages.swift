import Glibc

/// The reader's preferred languages, from the environment as gettext reads it.
public enum PreferredLanguages {
    /// BCP-47 tags in order of preference: each entry of `LANGUAGE` (a colon-separated list), then
    /// the language of the locale for messages, the first set of `LC_ALL`, `LC_MESSAGES`, `LANG`.
    /// `fr_FR.UTF-8` becomes `fr-FR`; `C`, `POSIX` (and `C.UTF-8`) name no language and give none.
    /// Duplicates are dropped. Unlike gettext, `LANGUAGE` counts even when the locale is `C`: a
    /// daemon started by systemd often has `LANG=C` and a deliberate `LANGUAGE`.
    public static func fromEnvironment(_ environment: [String: String]) -> [String] {
        var result: [String] = []
        func add(_ name: String) {
            guard let tag = bcp47(fromLocaleName: name), !result.contains(tag) else { return }
            result.append(tag)
        }
        for entry in (environment["LANGUAGE"] ?? "").split(separator: ":") { add(String(entry)) }
        if let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) {
            add(locale)
        }
        return result
    }

    /// `fromEnvironment` over this process's environment.
    public static func fromProcessEnvironment() -> [String] {
        var environment: [String: String] = [:]
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return fromEnvironment(environment)
    }

    /// A POSIX locale name (`fr_FR.UTF-8@euro`, `de`, `pt_BR`) as a BCP-47 tag (`fr-FR`, `de`,
    /// `pt-BR`): the language and region as written, without codeset and modifier; nil for
    /// `C`, `POSIX` and names with no language.
    public static func bcp47(fromLocaleName name: String) -> String? {
        var text = Substring(name.trimmingSpaces)
        if let cut = text.firstIndex(where: { $0 == "." || $0 == "@" }) { text = text[..<cut] }
        let parts = text.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let first = parts.first, LanguageCode(first) != nil else { return nil }
        return ([first.lowercased()] + parts.dropFirst()).joined(separator: "-")
    }
}
