import MediaKit

/// `storyboard.vtt` (WebVTT: a cue per interval, its payload the tile's sheet and rectangle) or
/// `storyboard.m3u8` (an HLS image playlist: `#EXT-X-IMAGES-ONLY`, `#EXT-X-TILES` per sheet).
/// Made from the layout alone; sheet names are relative, so the folder works wherever it is served.
final class StoryboardTextFile: RenderedFile, VersionNode {
    enum Text: CaseIterable {
        case webVTT, hls

        var name: Name { self == .webVTT ? "storyboard.vtt" : "storyboard.m3u8" }
    }

    let spot: VersionSpot
    let text: Text
    let layout: StoryboardLayout

    static let kind = "storyboard-text"

    init(folder: StoryboardFolder, text: Text) {
        spot = VersionSpot(madeFile: Self.kind, named: text.name, in: folder)
        layout = folder.layout
        self.text = text
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
