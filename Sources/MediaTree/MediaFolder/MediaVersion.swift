import MediaKit
import Synchronization
import SystemPackage

/// One version of a media file: its identity (device, inode, size, modification time) and its
/// probe, the state every entry of its media folder is made from. A node resolved from a version
/// carries it, so a request reads the probe once; a changed source is another version
/// (`MediaTree.currentVersion(of:)`). Its stat's other fields (mode, owner, times) are the latest
/// seen: a `chmod` changes no byte, so it is the same version, showing the new mode.
final class MediaVersion: Sendable {
    let path: SourcePath
    let identity: FileIdentity
    private let latest: Mutex<SourceStat>
    let info: MediaInfo
    /// The absolute path, for the media layer and for log lines.
    let shownAs: AbsolutePath

    /// What a made file's number depends on besides its path: this version (the stable hash of the
    /// source's device, inode, size and modification time), so each version of a made file is its own inode
    /// and the kernel never serves one version's bytes under another's size. Worked out once: every
    /// made file of the version (a listing's dozens of thumbnails) keys by it.
    let stamp: UInt64

    init(path: SourcePath, stat: SourceStat, info: MediaInfo, shownAs: AbsolutePath) {
        self.path = path
        identity = stat.identity
        latest = Mutex(stat)
        self.info = info
        self.shownAs = shownAs
        let identity = stat.identity
        stamp = StableHasher.hash { hasher in
            hasher.add(identity.device)
            hasher.add(identity.inode)
            hasher.add(identity.size)
            hasher.add(identity.modificationNanoseconds)
        }
    }

    /// The source's stat as last seen.
    var stat: SourceStat { latest.withLock { $0 } }

    /// Records `stat`, seen now, of this version (the same identity).
    func saw(_ stat: SourceStat) {
        latest.withLock { $0 = stat }
    }

    /// The media file of this version, as the media layer takes it.
    var file: MediaFile {
        MediaFile(path: shownAs.filePath, size: identity.size, modificationNanoseconds: identity.modificationNanoseconds)
    }

    /// The original's name: the media folder's name.
    var fileName: Name { path.lastName }
}
