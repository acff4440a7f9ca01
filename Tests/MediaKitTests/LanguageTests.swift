@testable import MediaKit
import Testing

/// Language codes, the best-title choice and the preferred languages from the environment.
@Suite struct LanguageTests {
    @Test(arguments: [
        ("fr", ["fre", "fra", "fr", "fr-FR", "fr-CA", "fr_FR.UTF-8", "FRA"]),
        ("de", ["ger", "deu", "de", "de-AT", "de_CH"]),
        ("zh", ["chi", "zho", "zh", "zh-Hans", "zh-Hant-TW", "zh-CN"]),
        ("en", ["eng", "en", "en-US", "en_GB.UTF-8"]),
        ("he", ["heb", "he", "iw"]),
    ])
    func everyFormOfALanguageMatches(_ language: String, _ codes: [String]) throws {
        let parsed = try codes.map { try #require(LanguageCode($0)) }
        #expect(parsed.allSatisfy { $0.language == language })
        for a in parsed {
            for b in parsed where a.script == nil || b.script == nil || a.script == b.script {
                #expect(a.matches(b), "\(a.raw) ~ \(b.raw)")
            }
        }
    }

    @Test func scriptsAndRegions() throws {
        let hans = try #require(LanguageCode("zh-Hans"))
        let hant = try #require(LanguageCode("zh-Hant"))
        let taiwan = try #require(LanguageCode("zh_TW"))
        #expect(!hans.matches(hant))
        #expect(taiwan.script == "Hant" && taiwan.matches(hant) && !taiwan.matches(hans))
        #expect(try #require(LanguageCode("chi")).matches(hans))
        let canada = try #require(LanguageCode("fr-CA"))
        #expect(canada.region == "CA" && canada.description == "fr-CA")
        #expect(canada.matchesExactly(try #require(LanguageCode("fre_CA"))))
        #expect(!canada.matchesExactly(try #require(LanguageCode("fr-FR"))))
        #expect(try #require(LanguageCode("es-419")).region == "419")
    }

    @Test func undeterminedAndInvalidCodes() throws {
        let und = try #require(LanguageCode("und"))
        #expect(und.isUndetermined && !und.matches(und))
        #expect(LanguageCode("") == nil)
        #expect(LanguageCode("C") == nil)
        #expect(LanguageCode("POSIX") == nil)
        #expect(LanguageCode("C.UTF-8") == nil)
        #expect(LanguageCode("12") == nil)
    }

    @Test func namesAndCodeForms() throws {
        #expect(LanguageCode("eng")?.englishName == "English")
        #expect(LanguageCode("fre")?.englishName == "French")
        #expect(LanguageCode("de-AT")?.englishName == "German")
        #expect(LanguageCode("jpn")?.englishName == "Japanese")
        #expect(LanguageCode("xyz")?.englishName == nil)
        let french = try #require(LanguageCode("fr-FR"))
        #expect(french.iso639_1 == "fr" && french.iso639_2T == "fra" && french.iso639_2B == "fre")
        #expect(LanguageCode("spa")?.iso639_2B == "spa")
        #expect(LanguageCode("fil")?.iso639_1 == nil)
        #expect(LanguageTable.entries.count >= 60)
    }

    @Test func bestTitleChoosesExactThenLanguageThenUndThenFirst() {
        let titles = [
            ChapterList.Title(text: "France", languages: ["fr-FR", "fre"]),
            ChapterList.Title(text: "Québec", languages: ["fr-CA", "fre"]),
            ChapterList.Title(text: "简体", languages: ["zh-Hans", "chi"]),
            ChapterList.Title(text: "繁體", languages: ["zh-Hant", "chi"]),
            ChapterList.Title(text: "English", languages: ["eng"]),
        ]
        let chapter = ChapterList.Chapter(start: 0, end: 1, titles: titles)
        #expect(chapter.bestTitle(preferred: ["fr-CA"])?.text == "Québec")
        #expect(chapter.bestTitle(preferred: ["fr"])?.text == "France")
        #expect(chapter.bestTitle(preferred: ["fr-BE"])?.text == "France")
        #expect(chapter.bestTitle(preferred: ["zh-TW"])?.text == "繁體")
        #expect(chapter.bestTitle(preferred: ["zh-Hans"])?.text == "简体")
        #expect(chapter.bestTitle(preferred: ["de", "en"])?.text == "English")
        #expect(chapter.bestTitle(preferred: ["de"])?.text == "France")
        #expect(chapter.bestTitle(preferred: [])?.text == "France")
        #expect(chapter.bestTitle(preferred: ["C", "", "en"])?.text == "English")
        let withUnd = ChapterList.Chapter(start: 0, end: 1, titles: titles + [ChapterList.Title(text: "Plain", languages: [])])
        #expect(withUnd.bestTitle(preferred: ["de"])?.text == "Plain")
        #expect(ChapterList.Chapter(start: 0, end: 1, titles: []).bestTitle(preferred: ["en"]) == nil)
    }

    @Test(arguments: [
        (["LANGUAGE": "fr_CA:fr:en", "LANG": "de_DE.UTF-8"], ["fr-CA", "fr", "en", "de-DE"]),
        (["LANG": "fr_FR.UTF-8"], ["fr-FR"]),
        (["LC_ALL": "C"], []),
        (["LANG": "POSIX"], []),
        (["LANG": "C.UTF-8"], []),
        (["LC_ALL": "", "LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"], ["pt-BR"]),
        (["LC_ALL": "es_ES@euro", "LANG": "en_US.UTF-8"], ["es-ES"]),
        (["LANGUAGE": "de::en:de", "LANG": "C"], ["de", "en"]),
        (["LANG": "sr_RS@latin"], ["sr-RS"]),
        ([:], []),
    ] as [([String: String], [String])])
    func preferredLanguagesFromTheEnvironment(_ environment: [String: String], _ expected: [String]) {
        #expect(PreferredLanguages.fromEnvironment(environment) == expected)
    }

    @Test func localeNamesBecomeBCP47() {
        #expect(PreferredLanguages.bcp47(fromLocaleName: "fr_FR.UTF-8") == "fr-FR")
        #expect(PreferredLanguages.bcp47(fromLocaleName: "zh_TW.Big5") == "zh-TW")
        #expect(PreferredLanguages.bcp47(fromLocaleName: "de") == "de")
        #expect(PreferredLanguages.bcp47(fromLocaleName: "C") == nil)
        #expect(PreferredLanguages.bcp47(fromLocaleName: "POSIX") == nil)
    }
}
