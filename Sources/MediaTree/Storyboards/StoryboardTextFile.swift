import MediaKit

/// `storyboard.vtt` (WebVTT: a cue per interval, its payload the tile's sheet and rectangle) or
/// `storyboard.m3u8` (an HLS image playlist: `#EXT-X-IMAGES-ONLY`, `#EXT-X-TILES` per sheet).
/// Made from the layout alone; sheet names are relative, so the folder works wherever it is served.
final class StoryboardTextFile: RenderedFile {
    enum Text: CaseIterable {
        case webVTT, hls

        var name: Name { self == .webVTT ? "storyboard.vtt" : "storyboard.m3u8" }
    }

    let version: MediaVersion
    let placement: Placement?
    let key: NodeKey
    let text: Text
    let layout: StoryboardLayout

    static let kind = "storyboard-text"

    init(folder: StoryboardFolder, text: Text) {
        version = folder.version
        layout = folder.layout
        self.text = text
        placement = folder.placement(of: text.name)
        key = NodeKey(madeFile: Self.kind, version: version, names: [text.name])
    }

    /// The WebVTT's length by arithmetic (`webVTTSize`), so `ls -lR` of a library writes no VTT;
    /// the playlist's learnt once per version.
    func size(in tree: MediaTree) throws -> Int {
        text == .webVTT ? layout.webVTTSize() : try learntSize(in: tree)
    }

    var documentName: Name { text.name }
    var holdsOriginalName: Bool { false }

    func render(in tree: MediaTree) throws -> [UInt8] {
        Array((text == .webVTT ? layout.webVTT() : layout.hlsPlaylist()).utf8)
    }
}
