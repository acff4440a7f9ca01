import Glibc
import MediaKit

/// One track as a file of its own (an audio track remuxed, a subtitle as SRT or WebVTT, the text
/// read from a picture subtitle, an alternative video). Its size is known only once its pass has
/// run (in this mount or an earlier one): `stat` and lookup answer from the tracks pool until then;
/// the file is kept in the cache folder and read straight from there.
final class TrackFile: FileNode, VersionNode {
    let spot: VersionSpot
    let entry: TrackPlan.Entry

    static let kind = "track"

    init(folder: TrackGroupFolder, entry: TrackPlan.Entry) {
        let name = Name(entry.name)
        spot = VersionSpot(madeFile: Self.kind, of: folder.version, at: folder.placement(of: name),
                           names: [Name(entry.group.rawValue), name])
        self.entry = entry
    }

    /// Made from one version, as a `MadeFile`: stale once the source changed.
    func current(in tree: MediaTree) throws -> any TreeNode {
        guard try tree.currentVersion(of: version) === version else { throw TreeError.stale }
        return self
    }

    func attributes(in tree: MediaTree, reply: @escaping Reply<Attributes>) {
        tree.trackAttributes(of: self, entry: entry, of: version, reply: reply)
    }

    func open(in tree: MediaTree, reply: @escaping Reply<any FileContent>) {
        tree.openTrack(entry, of: version, reply: reply)
    }
}
