import ArgumentParser
import MediaTree

/// How a media file is shown: as a folder of what is made from it, or as itself with what media
/// servers read beside it.
struct LayoutOptions: TreeOptions {
    @Option(help: ArgumentHelp("""
        folders: each media file a folder (the original, info.json, thumbs/, chapters/, storyboard/, tracks/, …); \
        server: each media file as itself, with the sidecar subtitles, posters, Jellyfin trickplay and BIF that media \
        servers and players read beside it.
        """, valueName: "layout"))
    var layout: String = TreeLayout.folders.rawValue

    func apply(to settings: inout TreeSettings) throws {
        guard let chosen = TreeLayout(rawValue: layout) else {
            throw ValidationError("--layout must be one of: \(TreeLayout.allCases.map(\.rawValue).joined(separator: ", ")) (not '\(layout)')")
        }
        settings.layout = chosen
    }
}
