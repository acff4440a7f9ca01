import MediaTree

/// The generation the kernel is given with a number (`fuse_entry_param.generation`). The kernel's
/// file handles (NFS through a FUSE mount) name a file by its number and generation, so a number
/// given to another key than before must come with a generation not given with it before
/// (libfuse's `fuse_entry_param`), and a key given its number again, in this mount or the next,
/// with the same one, so that a handle still finds it.
///
/// Worked out from the number and the key's hash, and never stored (an entry stays 16 bytes):
///
/// - A key at the number it asks for (`NodeKey.number(forHash:)`: nearly every key) gets 1 plus
///   the bits of its hash the number does not carry (its top bit; for the two lowest numbers,
///   whether it was moved up to them): two keys at one such number differ in exactly those bits,
///   so their generations differ, in every mount.
/// - A key placed past its number (two keys asked for one: `NodeTable`) gets a generation from its
///   whole hash, above those: never one a key at its own number gets, and another key's placed at
///   the same number only where 32 bits of their hashes meet.
///
/// The kernel keeps 32 bits of it (`i_generation`, the handle's field): every generation fits.
/// The root's is 0, the one the kernel gives its root at mount.
enum InodeGeneration {
    /// The largest generation a key at its own number gets.
    private static let largestAtHome: UInt64 = 4

    /// The generation of `number` given to the key whose stable hash is `keyHash`.
    static func of(number: UInt64, keyHash: UInt64) -> UInt64 {
        if number == NodeKey.rootNumber { return 0 }
        let low = keyHash & ((1 << 63) - 1)
        guard NodeKey.number(forHash: keyHash) == number else {
            let folded = (keyHash ^ (keyHash >> 32)) & 0xFFFF_FFFF
            return largestAtHome + 1 + folded % (UInt64(UInt32.max) - largestAtHome)
        }
        return 1 + (keyHash >> 63) + (low <= NodeKey.rootNumber ? 2 : 0)
    }
}
