import MediaKit

/// The text read from a film's picture subtitle tracks as sidecars (`SidecarSubtitles.readFiles`),
/// named by the rules of every sidecar, so that each reader tells them apart (Docs/LAYOUT.md,
/// "Sidecar subtitles"):
///
/// - Every event, as `.srt`: **plain** (`Film.eng.srt`) where the track is neither forced nor SDH
///   and no track of the film took that name (a text track of the language did, or another picture
///   track's text): the name mpv's default loads, and every server reads. Otherwise titled
///   `OCR` before the language (`Film.OCR.eng.srt`), with the track's own title after it where it
///   has one (`Film.OCR Kommentar.ger.srt`), and the track's flags after the language.
/// - The forced events alone, of a track not itself forced: `Film.eng.forced.srt` where free,
///   else titled as above (`Film.OCR.eng.forced.srt`). A forced track's text is its forced events
///   already: it has no second file.
/// - Only for a language the sidecar names and Tesseract has data for (`readable`).
extension SidecarTrack {
    /// The title part that marks text read from pictures. Kodi, Jellyfin and Plex read no
    /// language in it (no ISO 639 code, no country code, no language name).
    static let readTitleWord = "OCR"

    /// The read tracks of the picture tracks among `tracks` (named already: their names in
    /// `used`, lower case), in stream order, every event before the forced ones; roles decided.
    static func readTracks(of tracks: [SidecarTrack], readable: TrackPlan.Readable, used: Set<String>) -> [SidecarTrack] {
        var taken = used
        var read: [SidecarTrack] = []
        for track in tracks {
            guard let codec = track.stream.codec, TrackLabels.bitmapSubtitleCodecs.contains(codec), let language = track.language,
                  readable(track.storedLanguage) else { continue }
            var all = track.reading(.subtitleSRTReadFromPictures)
            all.isPlain = !all.forced && !all.hearingImpaired && !taken.contains(".\(language).srt")
            read.append(all.titledWhereTaken(&taken))
            guard !track.forced else { continue }
            var forced = track.reading(.subtitleSRTReadFromPicturesForced)
            forced.forced = true
            read.append(forced.titledWhereTaken(&taken))
        }
        return read
    }

    /// This track needing a title where its name without one is in `taken`; its name goes there.
    private func titledWhereTaken(_ taken: inout Set<String>) -> SidecarTrack {
        var track = self
        if let name = suffixes(title: nil).first?.lowercased(), !taken.contains(name) {
            taken.insert(name)
        } else {
            track.isPlain = false
            track.needsTitle = true
        }
        return track
    }

    /// This track as the text read from it by `output`: one `.srt`, never default.
    private func reading(_ output: TrackOutput) -> SidecarTrack {
        var track = self
        track.outputs = [output]
        track.extensions = [".srt"]
        track.isDefault = false
        track.isPlain = false
        track.needsTitle = false
        return track
    }

    /// The title of a read track: `OCR`, then the track's own title made safe (`SidecarTitle`)
    /// where there is one, in at most `maxBytes` bytes.
    static func readTitle(_ title: String?, language: LanguageCode?, maxBytes: Int) -> String? {
        let room = maxBytes - readTitleWord.utf8.count - 1
        guard room >= 0 else { return maxBytes >= readTitleWord.utf8.count ? readTitleWord : nil }
        guard let own = SidecarTitle.make(title, language: language, maxBytes: room) else { return readTitleWord }
        return readTitleWord + " " + own
    }
}
