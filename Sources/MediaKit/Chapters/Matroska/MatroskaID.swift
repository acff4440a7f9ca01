/// The EBML IDs of the Matroska elements mediafs reads (from the Matroska specification, RFC 9559),
/// with their length marker bits as the spec writes them.
enum MatroskaID {
    static let ebml: UInt32 = 0x1A45_DFA3
    static let docType: UInt32 = 0x4282
    static let segment: UInt32 = 0x1853_8067
    static let seekHead: UInt32 = 0x114D_9B74
    static let seek: UInt32 = 0x4DBB
    static let seekID: UInt32 = 0x53AB
    static let seekPosition: UInt32 = 0x53AC
    static let info: UInt32 = 0x1549_A966
    static let timestampScale: UInt32 = 0x2A_D7B1
    static let duration: UInt32 = 0x4489
    static let cluster: UInt32 = 0x1F43_B675
    static let chapters: UInt32 = 0x1043_A770
    static let editionEntry: UInt32 = 0x45B9
    static let editionUID: UInt32 = 0x45BC
    static let editionFlagHidden: UInt32 = 0x45BD
    static let editionFlagDefault: UInt32 = 0x45DB
    static let editionFlagOrdered: UInt32 = 0x45DD
    static let editionDisplay: UInt32 = 0x4520
    static let editionString: UInt32 = 0x4521
    static let editionLanguageIETF: UInt32 = 0x45E4
    static let chapterAtom: UInt32 = 0xB6
    static let chapterUID: UInt32 = 0x73C4
    static let chapterTimeStart: UInt32 = 0x91
    static let chapterTimeEnd: UInt32 = 0x92
    static let chapterFlagHidden: UInt32 = 0x98
    static let chapterFlagEnabled: UInt32 = 0x4598
    static let chapterDisplay: UInt32 = 0x80
    static let chapString: UInt32 = 0x85
    static let chapLanguage: UInt32 = 0x437C
    /// Written as `ChapLanguageIETF` by mkvtoolnix; `ChapLanguageBCP47` in RFC 9559.
    static let chapLanguageBCP47: UInt32 = 0x437D
    static let chapCountry: UInt32 = 0x437E
}
