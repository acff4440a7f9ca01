import MediaKit

/// The sidecar subtitle files of a film in the server layout: each subtitle track as one file
/// beside the film, named so that Jellyfin, Plex, Kodi, Emby and mpv each read its language and
/// flags (Docs/LAYOUT.md, "Which reads which"):
///
/// ```
/// <film>[.<title>][.<lang>][.forced][.sdh][.default].<ext>
/// ```
///
/// - `<film>`: the film's file name without its extension (`ServerNames.baseName`).
/// - `<lang>`: `SidecarLanguage` (`ger`, `eng`); left out for an undetermined language.
/// - One track per language, the first with neither forced nor SDH, is **plain**: no title, no
///   flag (`Film.ger.srt`, `Film.srt` for an undetermined one): mpv's default `--sub-auto=exact`
///   loads only `Film.srt` and `Film.LANG.srt`, and takes the language only from the last part.
/// - The other tracks of a language that has more than one get their **title before the
///   language** (`SidecarTitle`), where they have one: after the language, Plex reads the
///   title as the language.
/// - **Flags after the language**, as Plex documents them (`Film.eng.forced.srt`), which
///   Jellyfin and Kodi read too: `forced` (disposition forced), `sdh` (hearing impaired; `.hi`
///   reads as Hindi where no other language is found), `default` on the first default track
///   when some but not all of the film's sidecar tracks are default (Matroska marks every track
///   default unless told otherwise), and not on a plain track (it would cost mpv the language;
///   servers read that track's default from the film itself).
/// - `<ext>`: text subtitles as SubRip `.srt`; ASS as `.ass` and SSA as `.ssa`, as they are;
///   PGS as `.sup`; DVD subtitles as the VobSub pair `.idx` + `.sub`; DVB and XSUB remuxed into
///   Matroska `.mks` (Jellyfin and mpv read it; Plex and Kodi do not). Other codecs have none.
/// - Names are unique (compared case aside, for Samba and Windows clients): a name that would
///   repeat another gets `Track N` as its title, after its own (N: the track's place among the
///   film's subtitle tracks, from 1). The whole name is at most 255 bytes: the title is cut to
///   fit, and a track that does not fit without one has no sidecar.
///
/// A picture track in a language Tesseract has data for also gives the text read from it
/// (`SidecarTrack.readTracks`): `Film.<lang>.srt` where no text track took that name, else with
/// the title `OCR` (`Film.OCR.eng.srt`); its forced events alone as `Film.<lang>.forced.srt`.
///
/// Made from the probe alone: the same probe and film name always give the same sidecars.
public struct SidecarSubtitles: Sendable, Equatable {
    /// One file: which stream, how it is made, and its name after the film's base name.
    public struct File: Sendable, Equatable, Hashable {
        public var streamIndex: Int
        /// What to add to the film's base name: `.Kino.ger.srt`. Valid UTF-8.
        public var suffix: String
        public var output: TrackOutput
        /// The stream's language as stored, `und` when absent: `TrackJob.language`.
        public var storedLanguage: String
    }

    /// A subtitle track that has no sidecar, and why.
    public struct Skipped: Sendable, Equatable {
        public var streamIndex: Int
        public var reason: String
    }

    /// Every file, by stream, the VobSub pair as `.idx` then `.sub`.
    public var files: [File]
    /// The text read from picture subtitle tracks (`SidecarTrack.readTracks`), by stream: listed
    /// once read, made by the version's read pass (`tracks/legible/`'s), never by the sidecar pass.
    public var readFiles: [File]
    public var skipped: [Skipped]

    /// The longest name a file may have, in bytes.
    public static let maxNameBytes = Name.maximumBytes

    /// The sidecars of the film `info` describes, whose base name is `baseNameBytes` long.
    public init(info: MediaInfo, baseNameBytes: Int) {
        self.init(info: info, baseNameBytes: baseNameBytes, readable: TrackPlan.installedLanguages)
    }

    /// - Parameter readable: the stored languages picture subtitles can be read in.
    init(info: MediaInfo, baseNameBytes: Int, readable: TrackPlan.Readable) {
        let tracks = SidecarTrack.tracks(of: info)
        skipped = tracks.skipped
        files = []
        readFiles = []
        var used: Set<String> = []
        for track in Self.named(tracks.usable) {
            files += Self.place(track, baseNameBytes: baseNameBytes, used: &used, skipped: &skipped) { room in
                SidecarTitle.make(track.stream.title, language: track.languageCode, maxBytes: room)
            }
        }
        // After every track's own: a text track of the language keeps the plain name.
        for track in SidecarTrack.readTracks(of: tracks.usable, readable: readable, used: used) {
            readFiles += Self.place(track, baseNameBytes: baseNameBytes, used: &used, skipped: &skipped) { room in
                SidecarTrack.readTitle(track.stream.title, language: track.languageCode, maxBytes: room)
            }
        }
    }

    /// The files of `track` named after a base name `baseNameBytes` long, their names added to
    /// `used` (lower case); none, and the track in `skipped`, where no unique name fits.
    /// - Parameter title: the track's title in at most so many bytes, where it `needsTitle`.
    private static func place(_ track: SidecarTrack, baseNameBytes: Int, used: inout Set<String>, skipped: inout [Skipped],
                              title makeTitle: (Int) -> String?) -> [File] {
        let room = Self.maxNameBytes - baseNameBytes - track.longestSuffixBytes(title: nil)
        guard room >= 0 else {
            skipped.append(Skipped(streamIndex: track.stream.index, reason: "the name would be longer than 255 bytes"))
            return []
        }
        var title = track.needsTitle ? makeTitle(room - 1) : nil
        var names = track.suffixes(title: title)
        if names.contains(where: { used.contains($0.lowercased()) }) {
            let number = "Track \(track.number)"
            let cut = title.map { FileNameText.truncated($0, toBytes: room - 2 - number.utf8.count, ellipsis: "…") }
            title = [cut, number].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
            names = track.suffixes(title: title)
        }
        guard names.allSatisfy({ baseNameBytes + $0.utf8.count <= Self.maxNameBytes }),
              !names.contains(where: { used.contains($0.lowercased()) }) else {
            skipped.append(Skipped(streamIndex: track.stream.index, reason: "no unique name within 255 bytes"))
            return []
        }
        return zip(names, track.outputs).map { name, output in
            used.insert(name.lowercased())
            return File(streamIndex: track.stream.index, suffix: name, output: output, storedLanguage: track.storedLanguage)
        }
    }

    /// `tracks` with their roles decided: per language, the first without forced or SDH is
    /// plain; the others of a language with several take their title.
    static func named(_ tracks: [SidecarTrack]) -> [SidecarTrack] {
        var tracks = tracks
        var plainTaken: Set<String> = []
        var counts: [String: Int] = [:]
        for track in tracks { counts[track.language ?? "", default: 0] += 1 }
        for index in tracks.indices {
            let key = tracks[index].language ?? ""
            if !tracks[index].forced && !tracks[index].hearingImpaired && !plainTaken.contains(key) {
                plainTaken.insert(key)
                tracks[index].isPlain = true
                tracks[index].isDefault = false
            } else {
                tracks[index].needsTitle = counts[key, default: 0] > 1
            }
        }
        return tracks
    }
}
