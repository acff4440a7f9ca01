import MediaKit

/// One sheet of keyframe tiles, at the size its layout gives: a sprite sheet of `storyboard/`
/// (the last one as many rows as its tiles need), or one of Jellyfin's trickplay sheets beside a
/// film in the server layout (`TrickplayLayout`: every sheet the full grid, black after the last
/// tile).
struct TileSheetRecipe: MediaRecipe, Codable {
    enum Grid: String, Codable { case storyboard, trickplay }

    let grid: Grid
    let request: StoryboardRequest
    /// 0-based.
    let sheet: Int
    let size: Int

    init(storyboard layout: StoryboardLayout, sheet: Int) {
        grid = .storyboard
        request = layout.request
        self.sheet = sheet
        size = layout.encodedSize(sheet: sheet)
    }

    init(trickplay layout: TrickplayLayout, sheet: Int) {
        grid = .trickplay
        request = layout.request
        self.sheet = sheet
        size = layout.sheetByteCount(sheet: sheet)
    }

    var kind: MadeKind { grid == .storyboard ? .storyboardSheets : .trickplaySheets }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        switch grid {
        case .storyboard:
            MadeBytes(bytes: try media.storyboardSheet(of: file, request: request, sheet: sheet))
        case .trickplay:
            // The request came from a trickplay layout, so it gives one.
            MadeBytes(bytes: try media.trickplaySheet(of: file, layout: TrickplayLayout(request)!, sheet: sheet))
        }
    }
}

/// `contact-sheet.jpg` (or `.png`): a header and the film's frames, at the size its layout gives.
struct ContactSheetRecipe: MediaRecipe, Codable {
    let request: ContactSheetRequest
    let format: ImageFormat
    let size: Int

    init(layout: ContactSheetLayout, format: ImageFormat) {
        request = layout.request
        self.format = format
        size = layout.encodedSize(format: format)
    }

    var kind: MadeKind { .contactSheets }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        MadeBytes(bytes: try media.contactSheet(of: file, request: request, format: format))
    }
}

extension MadeKind {
    static let storyboardSheets = MadeKind(name: "storyboard_sheets", revision: 2)
    static let contactSheets = MadeKind(name: "contact_sheets", revision: 2)
    /// Jellyfin's trickplay sheets, beside films in the server layout.
    static let trickplaySheets = MadeKind(name: "trickplay_sheets", revision: 1)
}
