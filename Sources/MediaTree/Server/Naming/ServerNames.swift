/// The names the server layout gives the files it makes beside a film, from the film's own file
/// name (Docs/LAYOUT.md, "Which reads which"). Names are bytes (`Name`): a film's name need not be
/// UTF-8, and what is added to it is.
public enum ServerNames {
    /// The film's name without its extension, as the servers take it to match files beside it
    /// (`Path.GetFileNameWithoutExtension`, Python's `os.path.splitext`): `Film.2019.mkv` →
    /// `Film.2019`; a name with no dot after its first byte is its own base.
    public static func baseName(of fileName: Name) -> Name {
        guard let dot = fileName.bytes.lastIndex(of: 0x2E), dot > 0 else { return fileName }
        return Name(bytes: Array(fileName.bytes[..<dot]))
    }

    /// `base` followed by `suffix`.
    public static func name(_ base: Name, _ suffix: String) -> Name {
        Name(bytes: base.bytes + Array(suffix.utf8))
    }

    /// The poster's names (the embedded cover, byte for byte) with the cover's own extension
    /// (`jpg`, `png`): `Film.jpg`, which Plex and Jellyfin read, and `Film-poster.jpg`, which
    /// Kodi and Jellyfin read.
    public static func posterSuffixes(fileExtension: String) -> [String] {
        [".\(fileExtension)", "-poster.\(fileExtension)"]
    }

    /// The representative frame's names: `Film-fanart.jpg`, a backdrop for Plex, Kodi and
    /// Jellyfin, and `Film-thumb.jpg`, Jellyfin's landscape thumbnail.
    public static let frameSuffixes = ["-fanart.jpg", "-thumb.jpg"]

    /// The folder of Jellyfin's trickplay beside the film: the film's name with its extension
    /// changed to `.trickplay` (`Path.ChangeExtension(item.Path, ".trickplay")` in Jellyfin's
    /// `PathManager`): `Film.mkv` → `Film.trickplay`. Inside it, `TrickplayLayout.folderName`.
    public static func trickplayFolder(of fileName: Name) -> Name {
        name(baseName(of: fileName), ".trickplay")
    }

    /// The suffix of the BIF for Emby and Roku players: `-<width>-<interval>.bif`
    /// (`Film-320-10.bif`), the interval in seconds (whole seconds without a fraction, else to
    /// the millisecond without trailing zeros: `-320-2.5.bif`).
    public static func bifSuffix(width: Int, intervalMilliseconds: Int) -> String {
        var seconds = String(intervalMilliseconds / 1000)
        let fraction = intervalMilliseconds % 1000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            seconds += "." + digits
        }
        return "-\(width)-\(seconds).bif"
    }
}
