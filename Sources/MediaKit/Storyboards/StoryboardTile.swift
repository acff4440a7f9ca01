/// One frame of a storyboard: which sheet holds it, where, and the interval it stands for.
public struct StoryboardTile: Sendable, Hashable {
    /// Its position in time order, from 0.
    public var index: Int
    /// The sheet that holds it, from 0 (file names count from 1: `StoryboardLayout.sheetName`).
    public var sheet: Int
    /// Its rectangle in the sheet, in pixels from the top-left corner.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The interval it stands for, in milliseconds from the stream's first frame:
    /// [`index` × interval, min((`index` + 1) × interval, duration)].
    public var startMilliseconds: Int
    public var endMilliseconds: Int

    /// The time its frame is taken nearest to, in seconds: the start of its interval.
    public var time: Double { Double(startMilliseconds) / 1000 }
}
