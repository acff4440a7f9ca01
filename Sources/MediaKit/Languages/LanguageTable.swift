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

    /// One language a line: ISO 639-1 (`-` where it has none), 639-2/T, 639-2/B (`-` where it is
    /// the terminology code), the English name.
    private static let table = """
        en eng -   English
        fr fra fre French
        de deu ger German
        es spa -   Spanish
        it ita -   Italian
        pt por -   Portuguese
        nl nld dut Dutch
        sv swe -   Swedish
        da dan -   Danish
        no nor -   Norwegian
        nb nob -   Norwegian Bokmål
        nn nno -   Norwegian Nynorsk
        fi fin -   Finnish
        is isl ice Icelandic
        fo fao -   Faroese
        pl pol -   Polish
        cs ces cze Czech
        sk slk slo Slovak
        sl slv -   Slovenian
        hr hrv -   Croatian
        sr srp -   Serbian
        bs bos -   Bosnian
        mk mkd mac Macedonian
        bg bul -   Bulgarian
        ru rus -   Russian
        uk ukr -   Ukrainian
        be bel -   Belarusian
        ro ron rum Romanian
        hu hun -   Hungarian
        el ell gre Greek
        tr tur -   Turkish
        et est -   Estonian
        lv lav -   Latvian
        lt lit -   Lithuanian
        ga gle -   Irish
        cy cym wel Welsh
        eu eus baq Basque
        ca cat -   Catalan
        gl glg -   Galician
        sq sqi alb Albanian
        hy hye arm Armenian
        ka kat geo Georgian
        he heb -   Hebrew
        ar ara -   Arabic
        fa fas per Persian
        ur urd -   Urdu
        hi hin -   Hindi
        bn ben -   Bengali
        pa pan -   Punjabi
        gu guj -   Gujarati
        mr mar -   Marathi
        ta tam -   Tamil
        te tel -   Telugu
        kn kan -   Kannada
        ml mal -   Malayalam
        si sin -   Sinhala
        ne nep -   Nepali
        th tha -   Thai
        lo lao -   Lao
        km khm -   Khmer
        my mya bur Burmese
        vi vie -   Vietnamese
        id ind -   Indonesian
        ms msa may Malay
        tl tgl -   Tagalog
        -  fil -   Filipino
        zh zho chi Chinese
        -  yue -   Cantonese
        ja jpn -   Japanese
        ko kor -   Korean
        mn mon -   Mongolian
        kk kaz -   Kazakh
        uz uzb -   Uzbek
        az aze -   Azerbaijani
        sw swa -   Swahili
        am amh -   Amharic
        af afr -   Afrikaans
        zu zul -   Zulu
        yi yid -   Yiddish
        la lat -   Latin
        eo epo -   Esperanto
        mt mlt -   Maltese
        lb ltz -   Luxembourgish
        se sme -   Northern Sami
        -  und -   Undetermined
        -  mul -   Multiple languages
        -  zxx -   No linguistic content
        -  mis -   Uncoded languages
        """

    static let entries: [Entry] = table.split(separator: "\n").map { line in
        let fields = line.split(separator: " ").map(String.init)
        func code(_ field: String) -> String? { field == "-" ? nil : field }
        return Entry(alpha2: code(fields[0]), terminology: fields[1], bibliographic: code(fields[2]),
                     name: fields[3...].joined(separator: " "))
    }

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
