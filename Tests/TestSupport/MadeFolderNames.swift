/// Names the default layout adds to the folders it makes, for tests that list them: the markers
/// that keep scanners out of `thumbs/`, `storyboard/`, `tracks/` and `chapters/` (listed first
/// there), and a media folder's face (listed last).
public enum MadeFolderNames {
    /// `.ignore` (Jellyfin), `.plexignore` (Plex), `.nomedia` (Kodi, Android), in listing order.
    public static let markers = [".ignore", ".plexignore", ".nomedia"]
    /// `folder.jpg` and KDE's `.directory`, in listing order: in a media folder with a cover or a video.
    public static let face = ["folder.jpg", ".directory"]

    /// Whether `name` is a marker.
    public static func isMarker(_ name: String) -> Bool { markers.contains(name) }
}
