import Glibc

/// A fast 64-bit hash over bytes, eight at a time: the disk cache's check that a file read back is
/// the one written, and (seeded twice) the names of its files. Not cryptographic: it catches damage
/// (a flipped bit, a cut file), not an attacker.
enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// The hash of `bytes`, starting from `seed`; the length is part of it.
    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = Hasher(length: bytes.count, seed: seed)
        hasher.add(bytes)
        return hasher.value
    }

    /// The hash of the `length` bytes a descriptor holds from its start, read 1 MiB at a time: the
    /// same as `of` over those bytes. Nil when they cannot all be read.
    static func of(descriptor: Int32, length: Int64, seed: UInt64 = 0) -> UInt64? {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 8)
        defer { buffer.deallocate() }
        var hasher = Hasher(length: Int(length), seed: seed)
        var offset: Int64 = 0
        while offset < length {
            let want = Int(min(Int64(chunk), length - offset))
            let n = pread(descriptor, buffer.baseAddress, want, off_t(offset))
            if n < 0 && errno == EINTR { continue }
            // Whole chunks only (a multiple of 8 bytes) before the last, as `add` needs.
            guard n == want else { return nil }
            hasher.add(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            offset += Int64(n)
        }
        return hasher.value
    }

    /// The hash fed piece by piece; every piece but the last must be a multiple of 8 bytes long.
    struct Hasher {
        private var hash: UInt64

        init(length: Int, seed: UInt64) {
            hash = seed &+ prime3 &+ UInt64(length) &* prime1
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
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
        }

        /// With the final avalanche (as xxHash64's).
        var value: UInt64 {
            var hash = hash
            hash ^= hash >> 33
            hash = hash &* prime2
            hash ^= hash >> 29
            hash = hash &* prime3
            hash ^= hash >> 32
            return hash
        }
    }

    static func of(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { of($0, seed: seed) }
    }

    /// A 128-bit name for `key` as 32 hex digits: the file name of a disk cache entry.
    static func fileName(for key: String) -> String {
        let bytes = Array(key.utf8)
        return hex(of(bytes, seed: 1)) + hex(of(bytes, seed: 0x5EED))
    }

    /// `value` as 16 hex digits (zeros before): names of the cache folder's files and folders.
    static func hex(_ value: UInt64) -> String {
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
