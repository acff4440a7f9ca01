import MediaKit

extension TrackPlan {
    /// The plan for a probed file: every audio stream (`audible`), every text or picture subtitle
    /// stream libavcodec knows (`legible`), and every moving video stream when there is more than
    /// one (`visual`). Cover art, attached pictures, chapter text and data streams are never tracks.
    ///
    /// A name reads `<code> <Language> <Codec> <layout or size> (<flags>) [<title>]<ext>`, e.g.
    /// `fra French AC-3 stereo (default).mka`, `eng English SRT (forced, SDH).srt`; parts that are
    /// unknown are left out. The title is the stream's own, made safe for a file name, and left out
    /// when it only repeats the language (`English` on an `eng` track). Two streams with the same
    /// name in a group get ` #2`, ` #3`, … in stream order, so names are unique and stable.
    ///
    /// A picture subtitle stream in a language that can be read (`readable`: its Tesseract data is
    /// installed) also gives the text read from it, after its own file (`readEntries`).
    public init(info: MediaInfo) {
        self.init(info: info, readable: Self.installedLanguages)
    }

    init(info: MediaInfo, readable: Readable) {
        let streams = info.streams.sorted { $0.index < $1.index }
        let videoTracks = streams.filter(Self.isVideoTrack)
        var entries: [Entry] = []
        for group in Group.allCases {
            var used: Set<String> = []
            for stream in streams {
                let outputs = Self.outputs(for: stream, in: group, videoTrackCount: videoTracks.count)
                guard !outputs.isEmpty else { continue }
                let language = TrackLanguage(stored: stream.language)
                let plain = Self.baseName(of: stream, language: language)
                let base = Self.unique(plain, among: &used)
                for output in outputs {
                    entries.append(Entry(group: group, name: base + output.fileExtension,
                                         streamIndex: stream.index, output: output, language: language.code))
                }
                if group == .legible {
                    entries += Self.readEntries(of: stream, base: plain, number: String(base.dropFirst(plain.count)),
                                                language: language, readable: readable, used: &used)
                }
            }
        }
        self.init(entries: entries)
    }

    /// The outputs a stream gives in `group`, in the order they are listed; empty when it is not a track there.
    static func outputs(for stream: MediaInfo.Stream, in group: Group, videoTrackCount: Int) -> [TrackOutput] {
        guard let codec = stream.codec else { return [] }
        switch (group, stream.kind) {
        case (.audible, .audio):
            return [.audioMatroska]
        case (.legible, .subtitle):
            if TrackLabels.assSubtitleCodecs.contains(codec) { return [.subtitleSRT, .subtitleWebVTT, .subtitleASS] }
            if TrackLabels.textSubtitleCodecs.contains(codec) { return [.subtitleSRT, .subtitleWebVTT] }
            if codec == "hdmv_pgs_subtitle" { return [.bitmapSUP] }
            if TrackLabels.bitmapSubtitleCodecs.contains(codec) { return [.bitmapMatroska] }
            return []
        case (.visual, .video):
            return videoTrackCount > 1 && isVideoTrack(stream) ? [.videoMatroska] : []
        default:
            return []
        }
    }

    /// A moving-picture stream that could be an angle: not cover art, not chapter thumbnails, not a still.
    static func isVideoTrack(_ stream: MediaInfo.Stream) -> Bool {
        stream.isMovingVideo && stream.codec != nil
            && !stream.disposition.contains("timed_thumbnails") && !stream.disposition.contains("still_image")
    }

    /// Names are cut so that a base, a ` #NNN` suffix and a four-byte extension fit in 255 bytes.
    static let maxBaseBytes = 240

    /// The name without the extension or the uniqueness suffix.
    static func baseName(of stream: MediaInfo.Stream, language: TrackLanguage) -> String {
        var words = [language.code]
        if let name = language.englishName { words.append(name) }
        if let codec = stream.codec { words.append(TrackLabels.codecName(codec)) }
        switch stream.kind {
        case .audio:
            if let channels = TrackLabels.channels(count: stream.channels, layout: stream.channelLayout) {
                words.append(channels)
            }
        case .video:
            if let width = stream.width, let height = stream.height, width > 0, height > 0 {
                words.append("\(width)x\(height)")
            }
        default:
            break
        }
        let flags = TrackLabels.flags.filter { stream.disposition.contains($0.disposition) }.map(\.shown)
        if !flags.isEmpty { words.append("(" + flags.joined(separator: ", ") + ")") }
        var base = FileNameText.truncated(words.joined(separator: " "), toBytes: maxBaseBytes)

        if let title = stream.title {
            let room = maxBaseBytes - base.utf8.count - 3  // " [" and "]"
            let safe = room > 0 ? FileNameText.safe(title, maxBytes: room) : ""
            if !safe.isEmpty && !repeatsLanguage(safe, language) {
                base += " [" + safe + "]"
            }
        }
        return base
    }

    /// Whether a title says no more than the language does (`English`, `eng`).
    static func repeatsLanguage(_ title: String, _ language: TrackLanguage) -> Bool {
        let folded = title.lowercased()
        return folded == language.code.lowercased() || folded == language.englishName?.lowercased()
    }

    /// `base`, or `base #2`, `base #3`, … whichever is not yet in `used`; adds it to `used`.
    static func unique(_ base: String, among used: inout Set<String>) -> String {
        var candidate = base
        var number = 2
        while used.contains(candidate) {
            candidate = "\(base) #\(number)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }
}
