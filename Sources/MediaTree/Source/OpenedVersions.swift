import MediaKit
import Synchronization

/// The source version each file was last opened at, so that the kernel may keep a file's pages from
/// one open to the next when nothing changed (`keep_cache`) and must drop them when the source did.
///
/// Everything the tree serves is determined by its source's identity (the original's bytes, and the
/// documents and images made from it), so "same identity as the last open" means "same content".
final class OpenedVersions: Sendable {
    private let versions = Mutex<[UInt64: FileIdentity]>([:])

    /// Records that `inode` is opened at `identity`; whether its previous open was at the same one.
    func open(_ inode: UInt64, at identity: FileIdentity) -> Bool {
        versions.withLock { versions in
            defer { versions[inode] = identity }
            return versions[inode] == identity
        }
    }

    /// Forgets the versions of `inodes`, so that their next open keeps no page the kernel holds,
    /// even where the source's identity looks the same (a rewrite within one timestamp tick).
    func forget(_ inodes: [UInt64]) {
        versions.withLock { versions in
            for inode in inodes { versions[inode] = nil }
        }
    }
}
