/// The common languages of film and audio tracks: their ISO 639 codes and English names.
///
/// Enough to normalise and name the languages found in practice; a code not in the table still
/// works (it is compared as it is), it only has no name.
enum LanguageTable {
    struct Entry: Sendable {
        /// ISO 639-1, where the language has a two-letter code.
        let alpha2: String?
        /// ISO 639-2/T (the terminology code, also ISO 639-3 for these).
        let terminology: String
        /// ISO 639-2/B, only where it differs from the terminology code.
        let bibliographic: String?
        let name: String

        var canonical: String { alpha2 ?? terminology }
    }

    static let entries: [Entry] = [
        Entry(alpha2: "en", terminology: "eng", bibliographic: nil, name: "English"),
        Entry(alpha2: "fr", terminology: "fra", bibliographic: "fre", name: "French"),
        Entry(alpha2: "de", terminology: "deu", bibliographic: "ger", name: "German"),
        Entry(alpha2: "es", terminology: "spa", bibliographic: nil, name: "Spanish"),
        Entry(alpha2: "it", terminology: "ita", bibliographic: nil, name: "Italian"),
        Entry(alpha2: "pt", terminology: "por", bibliographic: nil, name: "Portuguese"),
        Entry(alpha2: "nl", terminology: "nld", bibliographic: "dut", name: "Dutch"),
        Entry(alpha2: "sv", terminology: "swe", bibliographic: nil, name: "Swedish"),
        Entry(alpha2: "da", terminology: "dan", bibliographic: nil, name: "Danish"),
        Entry(alpha2: "no", terminology: "nor", bibliographic: nil, name: "Norwegian"),
        Entry(alpha2: "nb", terminology: "nob", bibliographic: nil, name: "Norwegian Bokmål"),
        Entry(alpha2: "nn", terminology: "nno", bibliographic: nil, name: "Norwegian Nynorsk"),
        Entry(alpha2: "fi", terminology: "fin", bibliographic: nil, name: "Finnish"),
        Entry(alpha2: "is", terminology: "isl", bibliographic: "ice", name: "Icelandic"),
        Entry(alpha2: "fo", terminology: "fao", bibliographic: nil, name: "Faroese"),
        Entry(alpha2: "pl", terminology: "pol", bibliographic: nil, name: "Polish"),
        Entry(alpha2: "cs", terminology: "ces", bibliographic: "cze", name: "Czech"),
        Entry(alpha2: "sk", terminology: "slk", bibliographic: "slo", name: "Slovak"),
        Entry(alpha2: "sl", terminology: "slv", bibliographic: nil, name: "Slovenian"),
        Entry(alpha2: "hr", terminology: "hrv", bibliographic: nil, name: "Croatian"),
        Entry(alpha2: "sr", terminology: "srp", bibliographic: nil, name: "Serbian"),
        Entry(alpha2: "bs", terminology: "bos", bibliographic: nil, name: "Bosnian"),
        Entry(alpha2: "mk", terminology: "mkd", bibliographic: "mac", name: "Macedonian"),
        Entry(alpha2: "bg", terminology: "bul", bibliographic: nil, name: "Bulgarian"),
        Entry(alpha2: "ru", terminology: "rus", bibliographic: nil, name: "Russian"),
        Entry(alpha2: "uk", terminology: "ukr", bibliographic: nil, name: "Ukrainian"),
        Entry(alpha2: "be", terminology: "bel", bibliographic: nil, name: "Belarusian"),
        Entry(alpha2: "ro", terminology: "ron", bibliographic: "rum", name: "Romanian"),
        Entry(alpha2: "hu", terminology: "hun", bibliographic: nil, name: "Hungarian"),
        Entry(alpha2: "el", terminology: "ell", bibliographic: "gre", name: "Greek"),
        Entry(alpha2: "tr", terminology: "tur", bibliographic: nil, name: "Turkish"),
        Entry(alpha2: "et", terminology: "est", bibliographic: nil, name: "Estonian"),
        Entry(alpha2: "lv", terminology: "lav", bibliographic: nil, name: "Latvian"),
        Entry(alpha2: "lt", terminology: "lit", bibliographic: nil, name: "Lithuanian"),
        Entry(alpha2: "ga", terminology: "gle", bibliographic: nil, name: "Irish"),
        Entry(alpha2: "cy", terminology: "cym", bibliographic: "wel", name: "Welsh"),
        Entry(alpha2: "eu", terminology: "eus", bibliographic: "baq", name: "Basque"),
        Entry(alpha2: "ca", terminology: "cat", bibliographic: nil, name: "Catalan"),
        Entry(alpha2: "gl", terminology: "glg", bibliographic: nil, name: "Galician"),
        Entry(alpha2: "sq", terminology: "sqi", bibliographic: "alb", name: "Albanian"),
        Entry(alpha2: "hy", terminology: "hye", bibliographic: "arm", name: "Armenian"),
        Entry(alpha2: "ka", terminology: "kat", bibliographic: "geo", name: "Georgian"),
        Entry(alpha2: "he", terminology: "heb", bibliographic: nil, name: "Hebrew"),
        Entry(alpha2: "ar", terminology: "ara", bibliographic: nil, name: "Arabic"),
        Entry(alpha2: "fa", terminology: "fas", bibliographic: "per", name: "Persian"),
        Entry(alpha2: "ur", terminology: "urd", bibliographic: nil, name: "Urdu"),
        Entry(alpha2: "hi", terminology: "hin", bibliographic: nil, name: "Hindi"),
        Entry(alpha2: "bn", terminology: "ben", bibliographic: nil, name: "Bengali"),
        Entry(alpha2: "pa", terminology: "pan", bibliographic: nil, name: "Punjabi"),
        Entry(alpha2: "gu", terminology: "guj", bibliographic: nil, name: "Gujarati"),
        Entry(alpha2: "mr", terminology: "mar", bibliographic: nil, name: "Marathi"),
        Entry(alpha2: "ta", terminology: "tam", bibliographic: nil, name: "Tamil"),
        Entry(alpha2: "te", terminology: "tel", bibliographic: nil, name: "Telugu"),
        Entry(alpha2: "kn", terminology: "kan", bibliographic: nil, name: "Kannada"),
        Entry(alpha2: "ml", terminology: "mal", bibliographic: nil, name: "Malayalam"),
        Entry(alpha2: "si", terminology: "sin", bibliographic: nil, name: "Sinhala"),
        Entry(alpha2: "ne", terminology: "nep", bibliographic: nil, name: "Nepali"),
        Entry(alpha2: "th", terminology: "tha", bibliographic: nil, name: "Thai"),
        Entry(alpha2: "lo", terminology: "lao", bibliographic: nil, name: "Lao"),
        Entry(alpha2: "km", terminology: "khm", bibliographic: nil, name: "Khmer"),
        Entry(alpha2: "my", terminology: "mya", bibliographic: "bur", name: "Burmese"),
        Entry(alpha2: "vi", terminology: "vie", bibliographic: nil, name: "Vietnamese"),
        Entry(alpha2: "id", terminology: "ind", bibliographic: nil, name: "Indonesian"),
        Entry(alpha2: "ms", terminology: "msa", bibliographic: "may", name: "Malay"),
        Entry(alpha2: "tl", terminology: "tgl", bibliographic: nil, name: "Tagalog"),
        Entry(alpha2: nil, terminology: "fil", bibliographic: nil, name: "Filipino"),
        Entry(alpha2: "zh", terminology: "zho", bibliographic: "chi", name: "Chinese"),
        Entry(alpha2: nil, terminology: "yue", bibliographic: nil, name: "Cantonese"),
        Entry(alpha2: "ja", terminology: "jpn", bibliographic: nil, name: "Japanese"),
        Entry(alpha2: "ko", terminology: "kor", bibliographic: nil, name: "Korean"),
        Entry(alpha2: "mn", terminology: "mon", bibliographic: nil, name: "Mongolian"),
        Entry(alpha2: "kk", terminology: "kaz", bibliographic: nil, name: "Kazakh"),
        Entry(alpha2: "uz", terminology: "uzb", bibliographic: nil, name: "Uzbek"),
        Entry(alpha2: "az", terminology: "aze", bibliographic: nil, name: "Azerbaijani"),
        Entry(alpha2: "sw", terminology: "swa", bibliographic: nil, name: "Swahili"),
        Entry(alpha2: "am", terminology: "amh", bibliographic: nil, name: "Amharic"),
        Entry(alpha2: "af", terminology: "afr", bibliographic: nil, name: "Afrikaans"),
        Entry(alpha2: "zu", terminology: "zul", bibliographic: nil, name: "Zulu"),
        Entry(alpha2: "yi", terminology: "yid", bibliographic: nil, name: "Yiddish"),
        Entry(alpha2: "la", terminology: "lat", bibliographic: nil, name: "Latin"),
        Entry(alpha2: "eo", terminology: "epo", bibliographic: nil, name: "Esperanto"),
        Entry(alpha2: "mt", terminology: "mlt", bibliographic: nil, name: "Maltese"),
        Entry(alpha2: "lb", terminology: "ltz", bibliographic: nil, name: "Luxembourgish"),
        Entry(alpha2: "se", terminology: "sme", bibliographic: nil, name: "Northern Sami"),
        Entry(alpha2: nil, terminology: "und", bibliographic: nil, name: "Undetermined"),
        Entry(alpha2: nil, terminology: "mul", bibliographic: nil, name: "Multiple languages"),
        Entry(alpha2: nil, terminology: "zxx", bibliographic: nil, name: "No linguistic content"),
        Entry(alpha2: nil, terminology: "mis", bibliographic: nil, name: "Uncoded languages"),
    ]

    /// Withdrawn ISO 639-1 codes still found in files and locales, with the codes that replaced them.
    static let withdrawn: [String: String] = ["iw": "he", "in": "id", "ji": "yi"]

    /// Every code (ISO 639-1, 639-2/T, 639-2/B, withdrawn), lower case, to its entry.
    static let byCode: [String: Entry] = {
        var map: [String: Entry] = [:]
        for entry in entries {
            for code in [entry.alpha2, entry.terminology, entry.bibliographic].compactMap({ $0 }) { map[code] = entry }
        }
        for (old, new) in withdrawn { map[old] = map[new] }
        return map
    }()
}
