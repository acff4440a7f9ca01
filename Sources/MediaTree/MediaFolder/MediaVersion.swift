import MediaKit
import SystemPackage

/// One version of a media file: its stat and everything learnt of its bytes (`VersionFacts`: its
/// probe first), the state every entry of its media folder is made from. A node resolved from a
/// version carries it, so a request finds the version's record once; a changed source is another
/// version (`MediaTree.currentVersion(of:)`), a `chmod` or `chown` too (with the same record).
final class MediaVersion: Sendable {
    let path: SourcePath
    let stat: SourceStat
    let facts: VersionFacts
    /// What the analysis had found when this version was made (`facts.analysis` then): what this
    /// version's entries show of it.
    let analysis: VersionAnalysis?
    /// The absolute path, for the media layer and for log lines.
    let shownAs: AbsolutePath

    /// What a made file's number depends on besides its path: this version (the stable hash of the source's
    /// device, inode, size and modification time, and its owner, group and mode), so each version of
    /// a made file is its own inode: the kernel never serves one version's bytes under another's
    /// size, nor keeps a file's old permissions once the source's changed. Worked out once: every
    /// made file of the version (a listing's dozens of thumbnails) keys by it.
    let stamp: UInt64

    init(path: SourcePath, stat: SourceStat, facts: VersionFacts, shownAs: AbsolutePath) {
        self.path = path
        self.stat = stat
        self.facts = facts
        self.shownAs = shownAs
        let analysis = facts.analysis
        self.analysis = analysis
        let shown = analysis?.stamp ?? 0
        analysisStamp = shown
        let identity = stat.identity
        stamp = StableHasher.hash { hasher in
            hasher.add(identity)
            hasher.add(UInt64(stat.mode) | UInt64(stat.uid) << 32)
            hasher.add(UInt64(stat.gid))
            // What an analysis found renews every made file; nothing found keeps the numbers.
            if shown != 0 { hasher.add(shown) }
        }
    }

    /// Whether an analysis landed in the record since this version was made (it is then made again).
    var analysisLanded: Bool { facts.analysisStamp != analysisStamp }

    /// The stamp of what this version shows of the analysis (zero for nothing).
    let analysisStamp: UInt64

    var identity: FileIdentity { stat.identity }

    /// The probe.
    var info: MediaInfo { facts.info }

    /// The media file of this version, as the media layer takes it.
    var file: MediaFile {
        MediaFile(path: shownAs.filePath, size: identity.size, modificationNanoseconds: identity.modificationNanoseconds)
    }

    /// The original's name: the media folder's name.
    var fileName: Name { path.lastName }
}
