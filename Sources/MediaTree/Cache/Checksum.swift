/// A fast 64-bit hash over bytes, eight at a time: the disk cache's check that a file read back is
/// the one written, and (seeded twice) the names of its files. Not cryptographic: it catches damage
/// (a flipped bit, a cut file), not an attacker.
enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// The hash of `bytes`, starting from `seed`; the length is part of it.
    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hash = seed &+ prime3 &+ UInt64(bytes.count) &* prime1
        let words = bytes.count / 8
        var offset = 0
        for _ in 0..<words {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash ^= mix(word)
            hash = rotate(hash, 27) &* prime1 &+ prime3
            offset += 8
        }
        while offset < bytes.count {
            hash ^= UInt64(bytes[offset]) &* prime3
            hash = rotate(hash, 11) &* prime1
            offset += 1
        }
        // Final avalanche (as xxHash64's).
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }

    static func of(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { of($0, seed: seed) }
    }

    /// A 128-bit name for `key` as 32 hex digits: the file name of a disk cache entry.
    static func fileName(for key: String) -> String {
        let bytes = Array(key.utf8)
        return hex(of(bytes, seed: 1)) + hex(of(bytes, seed: 0x5EED))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func mix(_ word: UInt64) -> UInt64 {
        rotate(word &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
