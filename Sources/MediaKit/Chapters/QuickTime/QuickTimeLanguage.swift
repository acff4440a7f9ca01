/// The language field of a QuickTime `mdhd` atom, as a three-letter code.
enum QuickTimeLanguage {
    /// The ISO 639-2/T code for `value`: a Macintosh language code (below 0x400, the classic
    /// QuickTime form that ffmpeg still writes for chapter tracks: 0 is English) or three letters
    /// packed in 5 bits each (ISO 639-2/T, as MP4 stores it). `und` for 0x7FFF (unspecified),
    /// unknown Macintosh codes and packed values that are not letters.
    static func code(_ value: UInt16) -> String {
        if value == 0x7FFF { return "und" }
        if value < 0x400 { return macintosh[Int(value)] ?? "und" }
        let letters = [(value >> 10) & 0x1F, (value >> 5) & 0x1F, value & 0x1F].map { UInt8($0) + 0x60 }
        guard letters.allSatisfy({ (0x61...0x7A).contains($0) }) else { return "und" }
        return String(decoding: letters, as: UTF8.self)
    }

    /// Macintosh language codes (Inside Macintosh: Text, `langEnglish` …) to ISO 639-2/T.
    static let macintosh: [Int: String] = [
        0: "eng", 1: "fra", 2: "deu", 3: "ita", 4: "nld", 5: "swe", 6: "spa", 7: "dan", 8: "por",
        9: "nor", 10: "heb", 11: "jpn", 12: "ara", 13: "fin", 14: "ell", 15: "isl", 16: "mlt",
        17: "tur", 18: "hrv", 19: "zho", 20: "urd", 21: "hin", 22: "tha", 23: "kor", 24: "lit",
        25: "pol", 26: "hun", 27: "est", 28: "lav", 29: "sme", 30: "fao", 31: "fas", 32: "rus",
        33: "zho", 34: "nld", 35: "gle", 36: "sqi", 37: "ron", 38: "ces", 39: "slk", 40: "slv",
        41: "yid", 42: "srp", 43: "mkd", 44: "bul", 45: "ukr", 46: "bel", 47: "uzb", 48: "kaz",
        49: "aze", 50: "aze", 51: "hye", 52: "kat", 53: "ron", 54: "kir", 55: "tgk", 56: "tuk",
        57: "mon", 58: "mon", 59: "pus", 60: "kur", 61: "kas", 62: "snd", 63: "bod", 64: "nep",
        65: "san", 66: "mar", 67: "ben", 68: "asm", 69: "guj", 70: "pan", 71: "ori", 72: "mal",
        73: "kan", 74: "tam", 75: "tel", 76: "sin", 77: "mya", 78: "khm", 79: "lao", 80: "vie",
        81: "ind", 82: "tgl", 83: "msa", 84: "msa", 85: "amh", 86: "tir", 87: "orm", 88: "som",
        89: "swa", 90: "kin", 91: "run", 92: "nya", 93: "mlg", 94: "epo", 128: "cym", 129: "eus",
        130: "cat", 131: "lat", 132: "que", 133: "grn", 134: "aym", 135: "tat", 136: "uig",
        137: "dzo", 138: "jav", 139: "sun", 140: "glg", 141: "afr", 142: "bre", 143: "iku",
        144: "gla", 145: "glv", 146: "gle", 147: "ton", 148: "ell", 149: "kal", 150: "aze",
    ]
}
