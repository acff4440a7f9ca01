import Foundation
import MediaKit

/// `info.json`: the probe as one tidy JSON document (see Docs/LAYOUT.md).
enum InfoDocument {
    /// The document of one probe with a gap where the file's name goes (`NamelessDocument`): encoded once
    /// per version of a file however many names it has.
    struct Template: Sendable {
        /// nil where the probe holds the placeholder: each name's document is encoded whole.
        let gap: NamelessDocument?
        /// The probe, for a name that is not UTF-8 (its document has one field more).
        let info: MediaInfo
        /// What the analysis had found, shown with it.
        let analysis: VersionAnalysis?
        /// The files read from pictures that the analysis made.
        let textRead: [TextRead]?

        /// The document's bytes. The same `MediaInfo` and name always give the same bytes (keys are
        /// sorted). A name that is not UTF-8 goes in `file` escaped (`Name.escaped`: `\xHH` for a
        /// byte that is not part of a character) and byte for byte in `file_bytes`, a list of
        /// numbers, so the document stays valid UTF-8 and the name can be recovered.
        func document(fileName: Name) -> [UInt8] {
            guard let text = fileName.string else {
                return InfoDocument.document(info, analysis: analysis, textRead: textRead, file: fileName.escaped,
                                             fileBytes: fileName.bytes)
            }
            return gap?.filled(with: text) ?? InfoDocument.document(info, analysis: analysis, textRead: textRead, file: text)
        }
    }

    /// The template of `info`'s document, with what `analysis` found (the files read from pictures
    /// among the entries of `plan`, the version's tracks).
    static func template(_ info: MediaInfo, analysis: VersionAnalysis?, plan: TrackPlan) -> Template {
        let textRead = TextRead.list(analysis?.textRead, plan: plan)
        return Template(gap: NamelessDocument { document(info, analysis: analysis, textRead: textRead, file: $0) }, info: info,
                        analysis: analysis, textRead: textRead)
    }

    /// `info`'s document with `file` (and `fileBytes`, for a name that is not UTF-8).
    private static func document(_ info: MediaInfo, analysis: VersionAnalysis?, textRead: [TextRead]?, file: String,
                                 fileBytes: [UInt8]? = nil) -> [UInt8] {
        encode(Document(file: file, fileBytes: fileBytes, container: info.container, streams: info.streams,
                        chapters: info.chapters, tags: info.tags, scenes: Scene.list(analysis?.scenes),
                        segments: analysis.flatMap { $0.season != nil || !$0.shownSegments.isEmpty ? $0.shownSegments : nil },
                        textReadFromPictures: textRead))
            + [UInt8(ascii: "\n")]
    }

    /// Encodes `value` as the document is encoded: pretty, keys sorted and in snake case, slashes
    /// kept. Encoding plain values cannot fail; a failure here is a programming error.
    private static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Array(try! encoder.encode(value))
    }

    private struct Document: Encodable {
        var file: String
        var fileBytes: [UInt8]? = nil
        var container: MediaInfo.Container
        var streams: [MediaInfo.Stream]
        var chapters: [MediaInfo.Chapter]
        var tags: [String: String]
        /// Once the analysis looked for them: every scene's first frame, the film's first included.
        var scenes: [Scene]?
        /// Once an episode's season was compared: the intro and credits it shares; for any film,
        /// once found, the credits on black at its end. Each as `MediaSegment` encodes itself
        /// (`found_by`, `shared_with`), as in `user.mediafs.analysis`.
        var segments: [MediaSegment]?
        /// Once its picture subtitles were read: the text files made.
        var textReadFromPictures: [TextRead]?
    }

    /// A file of `tracks/legible/` read from a picture subtitle stream: where it is in the media
    /// folder, the stream it was read from, its language, and whether it holds the forced events
    /// alone.
    struct TextRead: Encodable, Sendable {
        var path: String
        var stream: Int
        var language: String
        var forcedOnly: Bool

        /// The files named in `names` (`VersionAnalysis.textRead`), as `plan` has them; nil before
        /// the reading ran.
        static func list(_ names: [String]?, plan: TrackPlan) -> [TextRead]? {
            guard let names else { return nil }
            let made = Set(names)
            return plan.entries.filter { $0.output.isReadFromPictures && made.contains($0.name) }.map { entry in
                TextRead(path: "tracks/" + entry.group.rawValue + "/" + entry.name, stream: entry.streamIndex,
                         language: entry.language, forcedOnly: entry.output == .subtitleSRTReadFromPicturesForced)
            }
        }
    }

    /// A scene: its first frame's time (on the clock of `thumbs/` names: `thumbs/at-START.png` is
    /// that frame) and number, from 0.
    struct Scene: Encodable {
        var start: Double
        var frame: Int

        static func list(_ scenes: SceneList?) -> [Scene]? {
            scenes.map { [Scene(start: 0, frame: 0)] + $0.cuts.map { Scene(start: $0.seconds, frame: $0.frame) } }
        }
    }
}
