import ArgumentParser
import MediaTree

/// `storyboard/`: the interval between frames, the tiles of a sheet and their width.
struct StoryboardOptions: TreeOptions {
    @Option(help: ArgumentHelp("Seconds between the frames of storyboard/.", valueName: "seconds"))
    var storyboardInterval: Double = StoryboardSettings().interval

    @Option(help: ArgumentHelp("Tiles per storyboard sheet, columns x rows.", valueName: "grid"))
    var storyboardGrid: String = "10x10"

    @Option(help: ArgumentHelp("The width of a storyboard tile, in pixels.", valueName: "pixels"))
    var storyboardWidth: Int = StoryboardSettings().width

    func apply(to settings: inout TreeSettings) throws {
        let intervals = StoryboardSettings.intervals, widths = StoryboardSettings.widths
        guard intervals.contains(storyboardInterval) else {
            throw ValidationError("--storyboard-interval must be between \(intervals.lowerBound) and \(intervals.upperBound) seconds")
        }
        guard let grid = Grid(storyboardGrid) else {
            throw ValidationError("--storyboard-grid must be like 10x10 (\(Grid.sides.lowerBound) to \(Grid.sides.upperBound) each)")
        }
        guard widths.contains(storyboardWidth) else {
            throw ValidationError("--storyboard-width must be \(widths.lowerBound) to \(widths.upperBound) pixels")
        }
        settings.storyboard.interval = storyboardInterval
        settings.storyboard.grid = grid
        settings.storyboard.width = storyboardWidth
    }
}

/// `contact-sheet.jpg`: its grid of frames.
struct ContactSheetOptions: TreeOptions {
    @Option(help: ArgumentHelp("Frames of contact-sheet.jpg, columns x rows.", valueName: "grid"))
    var contactSheetGrid: String = "4x4"

    func apply(to settings: inout TreeSettings) throws {
        guard let grid = Grid(contactSheetGrid) else {
            throw ValidationError("--contact-sheet-grid must be like 4x4 (\(Grid.sides.lowerBound) to \(Grid.sides.upperBound) each)")
        }
        settings.contactSheet.grid = grid
    }
}
