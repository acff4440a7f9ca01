import MediaKit

/// A subtitle stream on its way to a sidecar name (`SidecarSubtitles`): its outputs and
/// extensions, language, flags and role.
struct SidecarTrack: Sendable {
    var stream: MediaInfo.Stream
    /// Its place among the film's subtitle streams, from 1 (`Track N`).
    var number: Int
    /// The outputs it is made as, with their extensions, in the order listed.
    var outputs: [TrackOutput]
    var extensions: [String]
    /// The name's language code (`SidecarLanguage`), nil when undetermined.
    var language: String?
    var languageCode: LanguageCode?
    var storedLanguage: String
    var forced: Bool
    var hearingImpaired: Bool
    var isDefault: Bool
    /// The first of its language without forced and SDH: named without title or flag.
    var isPlain = false
    /// One of several of its language, not plain: named with its title.
    var needsTitle = false

    /// The film's subtitle streams that have a sidecar form, in stream order, and those without.
    static func tracks(of info: MediaInfo) -> (usable: [SidecarTrack], skipped: [SidecarSubtitles.Skipped]) {
        let subtitles = info.streams.filter { $0.kind == .subtitle }.sorted { $0.index < $1.index }
        var usable: [SidecarTrack] = []
        var skipped: [SidecarSubtitles.Skipped] = []
        for (position, stream) in subtitles.enumerated() {
            guard let form = form(of: stream.codec) else {
                skipped.append(.init(streamIndex: stream.index, reason: "no sidecar form for \(stream.codec ?? "an unknown codec")"))
                continue
            }
            let stored = stream.language.flatMap { $0.isEmpty ? nil : $0 } ?? "und"
            let language = SidecarLanguage.code(stored: stream.language)
            usable.append(SidecarTrack(stream: stream, number: position + 1, outputs: form.map(\.output),
                                       extensions: form.map(\.fileExtension), language: language,
                                       languageCode: language.flatMap { LanguageCode($0) }, storedLanguage: stored,
                                       forced: stream.disposition.contains("forced"),
                                       hearingImpaired: stream.disposition.contains("hearing_impaired"),
                                       isDefault: stream.disposition.contains("default")))
        }
        // The default flag says something only when some tracks have it and some do not.
        let defaults = usable.filter(\.isDefault).count
        if defaults == usable.count || defaults == 0 {
            for index in usable.indices { usable[index].isDefault = false }
        } else if let first = usable.firstIndex(where: \.isDefault) {
            for index in usable.indices where index != first { usable[index].isDefault = false }
        }
        return (usable, skipped)
    }

    /// How a codec is written beside the film: its outputs and their extensions; nil for none.
    static func form(of codec: String?) -> [(output: TrackOutput, fileExtension: String)]? {
        switch codec {
        case "subrip", "srt", "mov_text", "webvtt", "text": return [(.subtitleSRT, ".srt")]
        case "ass": return [(.subtitleASS, ".ass")]
        case "ssa": return [(.subtitleASS, ".ssa")]
        case "hdmv_pgs_subtitle": return [(.bitmapSUP, ".sup")]
        case "dvd_subtitle": return [(.vobSubIndex, ".idx"), (.vobSubPictures, ".sub")]
        case "dvb_subtitle", "xsub": return [(.bitmapMatroska, ".mks")]
        default: return nil
        }
    }

    /// The flags written in the name, in order.
    var flags: [String] {
        guard !isPlain else { return [] }
        return [forced ? "forced" : nil, hearingImpaired ? "sdh" : nil, isDefault ? "default" : nil].compactMap { $0 }
    }

    /// The suffixes of its files with `title`: `.<title>.<lang>.<flags>.<ext>`, one per output.
    func suffixes(title: String?) -> [String] {
        let parts = ([title, language] + flags).compactMap { $0 }
        let stem = parts.map { "." + $0 }.joined()
        return extensions.map { stem + $0 }
    }

    /// Bytes of its longest suffix with `title`.
    func longestSuffixBytes(title: String?) -> Int {
        suffixes(title: title).map(\.utf8.count).max() ?? 0
    }
}
