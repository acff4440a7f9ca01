import MediaKit

/// One sprite sheet of `storyboard/`: its tiles' keyframes, at the size its layout gives.
struct StoryboardSheetRecipe: MediaRecipe, Codable {
    let request: StoryboardRequest
    /// 0-based.
    let sheet: Int
    let size: Int

    init(layout: StoryboardLayout, sheet: Int) {
        request = layout.request
        self.sheet = sheet
        size = layout.encodedSize(sheet: sheet)
    }

    var kind: MadeKind { .storyboardSheets }

    func make(from file: MediaFile, media: any MediaService) throws -> MadeBytes {
        MadeBytes(bytes: try media.storyboardSheet(of: file, request: request, sheet: sheet))
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
}
