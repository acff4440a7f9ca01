import MediaKit

/// What the server layout keeps in memory besides the made things, worked out once for the
/// listings and lookups of a library: each source folder's names while it is unchanged, each
/// film version's sidecars.
final class ServerCaches: Sendable {
    /// By source folder (`FolderNames`).
    let folderNames = MemoryCache<SourcePath, FolderNames>(capacity: FolderNames.keptNames)
    /// A version's sidecar names under a base name of a given length, and its sidecar plan.
    let sidecars = ComputedOnce<SidecarKey, SidecarSubtitles>(capacity: 100_000)
    let sidecarPlans = ComputedOnce<FileIdentity, TrackPlan>(capacity: 100_000)

    struct SidecarKey: Hashable, Sendable {
        var identity: FileIdentity
        var baseNameBytes: Int
    }
}
