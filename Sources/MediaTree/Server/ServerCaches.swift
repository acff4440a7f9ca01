import MediaKit

/// What the server layout keeps in memory besides the made things, worked out once for the
/// listings and lookups of a library: each source folder's names while it is unchanged.
final class ServerCaches: Sendable {
    /// By source folder (`FolderNames`).
    let folderNames = MemoryCache<SourcePath, FolderNames>(capacity: FolderNames.keptNames)
}
