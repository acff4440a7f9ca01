import MediaTree

extension NodeTable.Entry {
    /// What an entry's number does not say of its key's hash, in 2 bits: a number is the 63 low
    /// bits of the hash its key asks for (`NodeKey.number(forHash:)`), so most entries keep only the
    /// top bit. Where the number is not what the hash asks for (the root; a number another key took
    /// first; a hash whose 63 low bits are 0 or 1, moved past the numbers FUSE reserves), the hash is
    /// found where the entry was named (`keyHashWhereNamed`); so is a tombstone's (made with number
    /// 0: it has none, and no key's hash is taken for it).
    struct KeyHashRest: RawRepresentable {
        let rawValue: UInt32

        static var bits: UInt32 { 2 }
        static var mask: UInt32 { 1 << bits - 1 }
        /// The largest listing index an entry holds beside its rest.
        static var largestIndex: Int { Int(UInt32.max >> bits) }

        private static var lowBits: UInt64 { 1 << 63 - 1 }
        private static var whereNamed: UInt32 { 2 }

        init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The rest of `keyHash` for an entry numbered `number`.
        init(_ keyHash: UInt64, number: UInt64) {
            let asked = number > NodeKey.rootNumber && keyHash & Self.lowBits == number
            rawValue = asked ? UInt32(keyHash >> 63) : Self.whereNamed
        }

        /// The key hash of an entry numbered `number` with this rest; nil where it is found where
        /// the entry was named.
        func keyHash(number: UInt64) -> UInt64? {
            rawValue == Self.whereNamed ? nil : number | UInt64(rawValue) << 63
        }
    }

    /// The key hash as the entry's origin holds it: its listing's entry, its looked-up name, or the
    /// root's node, which the root's entry always holds. A tombstone has none (0).
    var keyHashWhereNamed: UInt64 {
        switch named.unheld {
        case .listed(let listing): listing.keyHash(at: index)
        case .lookedUp(let name): name.keyHash
        case .root: named.held?.node?.key.stableHash ?? 0
        case .tombstone, .holding: 0
        }
    }
}
