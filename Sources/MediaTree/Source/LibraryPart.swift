/// One of the `count` parts of a library, numbered from 1: each media file belongs to the part its
/// path relative to the source picks, by a hash that is the same on every machine and in every
/// run (`Checksum`, whose mixing spreads paths that differ in a digit). N machines sharing one cache
/// folder can then warm a library each its own part (`mediafs warm --part K/N`): every file made
/// once, by one of them, and the parts together the whole library.
public struct LibraryPart: Sendable, Equatable, CustomStringConvertible {
    /// 1 to `count`.
    public let index: Int
    public let count: Int

    /// The part written `K/N` (1 ≤ K ≤ N); nil for anything else.
    public init?(_ text: String) {
        let fields = text.split(separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 2, let index = Int(fields[0]), let count = Int(fields[1]),
              count >= 1, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether the media file at `relativePath` (from the source's root, as the mount shows it
    /// from its root: `Films/Alien (1979).mkv`) is in this part.
    public func contains(relativePath: String) -> Bool {
        Int(Checksum.of(Array(relativePath.utf8)) % UInt64(count)) == index - 1
    }

    public var description: String { "\(index)/\(count)" }
}
