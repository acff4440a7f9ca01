import MediaKit

/// 64-bit FNV-1a: a hash that is the same in every process and every mount (Swift's `Hasher` is
/// seeded per process), for what must not change between runs: inode numbers (`NodeKey`), the
/// stamp of a source version (`MediaVersion`), the keys of made files on disk (`MadeKey`).
///
/// Each `add` writes its value's bytes as they are, so callers separate variable-length fields
/// (`add(_:String)` ends each text with a 0, which no UTF-8 text holds).
struct StableHasher {
    /// FNV-1a's offset basis.
    static let basis: UInt64 = 0xCBF2_9CE4_8422_2325

    private(set) var value: UInt64

    /// Another `basis` gives another hash of the same bytes (two make a 128-bit name).
    init(basis: UInt64 = StableHasher.basis) {
        value = basis
    }

    mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        value = hash
    }

    /// The word's eight bytes, least significant first.
    mutating func add(_ word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { add($0) }
    }

    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }

    mutating func add(_ number: Int64) { add(UInt64(bitPattern: number)) }

    /// The number's bits: equal doubles, equal hashes (0 and -0 apart, as their bytes are).
    mutating func add(_ number: Double) { add(number.bitPattern) }

    mutating func add(_ flag: Bool) { add(CollectionOfOne(flag ? 1 : 0)) }

    /// A version of a file: its device, inode, size and modification time, in that order.
    mutating func add(_ identity: FileIdentity) {
        add(identity.device)
        add(identity.inode)
        add(identity.size)
        add(identity.modificationNanoseconds)
    }

    /// The text's UTF-8 bytes, then a 0.
    mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0))
    }

    /// The hash of one value written by `write`.
    static func hash(basis: UInt64 = StableHasher.basis, _ write: (inout StableHasher) -> Void) -> UInt64 {
        var hasher = StableHasher(basis: basis)
        write(&hasher)
        return hasher.value
    }
}
