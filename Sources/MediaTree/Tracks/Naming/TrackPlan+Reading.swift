import MediaKit

extension TrackOutput {
    /// Whether the output is text read from a picture subtitle stream (`subtitleSRTReadFromPictures`
    /// and its forced events alone): made in a pass of its own (`TrackSetKey.Part.read`), slow.
    var isReadFromPictures: Bool {
        self == .subtitleSRTReadFromPictures || self == .subtitleSRTReadFromPicturesForced
    }
}

extension TrackPlan {
    /// Which stored language codes can be read into text: those whose Tesseract data is installed
    /// (`TextLanguages.dataName`). Tests give their own.
    typealias Readable = @Sendable (String) -> Bool

    static let installedLanguages: Readable = { TextLanguages.dataName(forStored: $0) != nil }

    /// What a text file read from pictures adds to its stream's base name, by output: every event,
    /// the forced events alone.
    static func readMarker(_ output: TrackOutput) -> String {
        output == .subtitleSRTReadFromPicturesForced ? " (forced, read from pictures)" : " (read from pictures)"
    }

    /// The text files read from the picture subtitle `stream` (base name `base`, followed by
    /// `number`, its ` #N` where it repeats another's), after its own file: `<base>[ #N] (read from
    /// pictures).srt` and `<base>[ #N] (forced, read from pictures).srt`. None for a stream that
    /// is not pictures or whose language cannot be read (undetermined, or no data installed). The
    /// base is cut so that the number, the marker, a further ` #N` and `.srt` fit in 255 bytes;
    /// the name is made unique in the group (`used`).
    static func readEntries(of stream: MediaInfo.Stream, base: String, number: String, language: TrackLanguage,
                            readable: Readable, used: inout Set<String>) -> [Entry] {
        guard let codec = stream.codec, TrackLabels.bitmapSubtitleCodecs.contains(codec),
              language.code != "und", readable(language.code) else { return [] }
        return [TrackOutput.subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced].map { output in
            let marker = readMarker(output)
            let room = Name.maximumBytes - output.fileExtension.utf8.count - number.utf8.count - marker.utf8.count - uniquenessBytes
            let name = unique(FileNameText.truncated(base, toBytes: room) + number + marker, among: &used)
            return Entry(group: .legible, name: name + output.fileExtension, streamIndex: stream.index,
                         output: output, language: language.code)
        }
    }

    /// The picture subtitle streams of `info` in a determined language that cannot be read: no
    /// Tesseract data is installed for it.
    static func unreadable(_ info: MediaInfo, readable: Readable = installedLanguages) -> [MediaInfo.Stream] {
        info.streams.filter { stream in
            guard stream.kind == .subtitle, let codec = stream.codec, TrackLabels.bitmapSubtitleCodecs.contains(codec) else { return false }
            let code = TrackLanguage(stored: stream.language).code
            return code != "und" && !readable(code)
        }
    }

    /// The longest ` #N` suffix `unique` adds (` #999`) and then some.
    static let uniquenessBytes = 5
}
