/// How `storyboard/` is made (`--storyboard-interval`, `--storyboard-grid`, `--storyboard-width`).
public struct StoryboardSettings: Sendable, Encodable {
    /// Seconds between frames (Jellyfin's 10).
    public var interval: Double = 10
    public var grid = Grid(columns: 10, rows: 10)
    /// The width of a tile, in pixels.
    public var width = 320

    public static let intervals = 0.1...3600.0
    public static let widths = 16...3840

    public init() {}
}

/// How `contact-sheet.jpg` is made (`--contact-sheet-grid`; vcsi's 4×4).
public struct ContactSheetSettings: Sendable {
    public var grid = Grid(columns: 4, rows: 4)

    public init() {}
}
