/// Columns × rows of a sheet of tiles, written `10x10`.
public struct Grid: Sendable, Hashable, Encodable {
    public var columns: Int
    public var rows: Int

    /// Each side's allowed range.
    public static let sides = 1...100

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// `COLUMNSxROWS`, each side within `sides`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              Self.sides.contains(columns), Self.sides.contains(rows) else { return nil }
        self.init(columns: columns, rows: rows)
    }
}
