import Foundation
import MediaKit

/// `user.mediafs.analysis`: asked of a media folder (of a film, in the server layout), runs the
/// version's analysis now where it has not run, and answers once it is done, with a summary of what
/// was found. What `mediafs warm` reads; not listed, so that `getfattr -d` analyses nothing.
extension MediaTree {
    public static let analysisAttribute = "user.mediafs.analysis"

    /// Analyses the version `node` shows on a thread of its own (the request is answered from
    /// there) and answers with a line of JSON: `{"scenes": N, "segments": [...]}`, and
    /// `"text_read": N` (the files read from pictures) for a version with picture subtitles to read.
    /// - Throws: `TreeError.noAttribute` for a node that is no media folder or film.
    func analysisAttribute(of node: any TreeNode, reply: @escaping Reply<[UInt8]>) throws {
        let version: MediaVersion
        if let folder = node as? MediaFolder {
            version = folder.version
        } else if settings.layout == .server, let file = node as? PlainFile,
                  let film = try serverFilm(at: file.path, folder: Self.folderKey(file.path.parent)) {
            version = film.version
        } else {
            throw TreeError.noAttribute
        }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            reply(Result {
                do {
                    return AnalysisSummary(try analyse(version.path, facts: version.facts, run: .foreground)).json
                } catch let failure as MediaError {
                    throw TreeError.media(path: "\(version.shownAs)", failure: failure)
                }
            })
        }
    }
}

/// What `user.mediafs.analysis` answers.
struct AnalysisSummary: Encodable {
    /// The scenes found (the first, from the first frame, included); nil where the file has no
    /// video that moves.
    var scenes: Int?
    var segments: [MediaSegment]
    /// The files read from pictures; nil where the version has none to read.
    var textRead: Int?

    init(_ analysis: VersionAnalysis) {
        scenes = analysis.scenes.map { $0.cuts.count + 1 }
        segments = analysis.shownSegments
        textRead = analysis.textRead?.count
    }

    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }
}
