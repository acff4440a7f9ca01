import MediaTree

/// Numbering (the kernel is given a number, with lookups counted) and forgetting.
extension NodeTable {
    /// The number of `node`, named `name` in the folder numbered `parent` (`parentIsSourceFolder`:
    /// a folder of the source), with `lookups` more counted (the kernel is given the number). The
    /// entry holds where it was named, not the node (`NumberedTree.node` makes it again): a
    /// listing of the folder that lists the node under that name, or else the name itself.
    func enter(_ node: any TreeNode, as name: Name, in parent: UInt64, parentIsSourceFolder: Bool, lookups: UInt64) -> UInt64 {
        let key = node.key
        if key.number == NodeKey.rootNumber { return count(NodeKey.rootNumber, lookups) }
        return state.withLock { state in
            if let (number, _) = state.live(key.stableHash, from: key.number) {
                state.slots.modify(number) { $0.count(lookups) }
                return number
            }
            let (named, index): (Named, Int) = if let (listing, index) = state.listing(of: parent, naming: name, keyHash: key.stableHash) {
                (.listed(listing), index)
            } else {
                (.lookedUp(LookedUpName(parent: parent, name: name, path: key.path, inSourceFolder: parentIsSourceFolder,
                                        keyHash: key.stableHash)), 0)
            }
            let number = Self.place(key.stableHash, in: &state.slots) {
                Entry(keyHash: key.stableHash, number: $0, named: named, index: index)
            }.number
            state.slots.modify(number) { $0.count(lookups) }
            state.noteMade(number)
            state.noteHeld(number, madeFrom: key.path)
            return number
        }
    }

    /// The numbers of the entries at `positions` of `listing`, one more lookup counted for each
    /// (a readdirplus reply gives them), written to `numbers` in order; an entry known by name and
    /// type only is not counted and gets 0. An entry new to the table holds no node. One reply's
    /// entries are entered under one lock, and the slots they ask for are fetched into the cache
    /// together first: a library's table is read at random, and one trip to memory per entry, one
    /// after another, was the largest single cost of the daemon's own code in a listing given
    /// again (the kernel's side of each request costs more).
    func enter(_ listing: KeptListing, positions: Range<Int>, into numbers: UnsafeMutableBufferPointer<UInt64>) {
        precondition(numbers.count >= positions.count)
        state.withLock { state in
            for position in positions where !listing.isNameAndTypeOnly(at: position) {
                state.slots.prefetch(listing.wantedNumber(at: position))
            }
            var made: UInt64?
            for position in positions {
                guard !listing.isNameAndTypeOnly(at: position) else {
                    numbers[position - positions.lowerBound] = 0
                    continue
                }
                let entered = Self.enter(listing, index: position, in: &state.slots)
                numbers[position - positions.lowerBound] = entered.number
                if entered.made { made = made ?? entered.number }
            }
            // The listing, the same for all: noted once.
            if let made { state.noteMade(made) }
        }
    }

    /// The number of the entry at `index` of `listing`, one more lookup counted (whatever it is
    /// known by): an entry new to the table holds no node.
    func enter(_ listing: KeptListing, index: Int) -> UInt64 {
        state.withLock { state in
            let entered = Self.enter(listing, index: index, in: &state.slots)
            if entered.made { state.noteMade(entered.number) }
            return entered.number
        }
    }

    private static func enter(_ listing: KeptListing, index: Int, in table: inout NumberSlots<Entry>) -> (number: UInt64, made: Bool) {
        let hash = listing.keyHash(at: index)
        // A listing given again names entries the table holds at the numbers they ask for:
        // counted where they lie, the entry not copied out (its reference retained) and back.
        let wanted = NodeKey.number(forHash: hash)
        let counted = table.modify(wanted) { entry -> Bool in
            guard entry.keyHash(at: wanted) == hash, !entry.isTombstone else { return false }
            entry.count(1)
            return true
        }
        if counted == true { return (wanted, false) }
        let (number, made) = place(hash, in: &table) { Entry(keyHash: hash, number: $0, named: .listed(listing), index: index) }
        table.modify(number) { $0.count(1) }
        return (number, made)
    }

    /// The number of the entry for `keyHash`, made by `make` with its number where there is none
    /// (`made`): the first free number from the one the key asks for, past numbers other keys hold.
    private static func place(_ keyHash: UInt64, in table: inout NumberSlots<Entry>,
                              make: (UInt64) -> Entry) -> (number: UInt64, made: Bool) {
        var number = NodeKey.number(forHash: keyHash)
        var free: UInt64?
        while let entry = table[number] {
            if entry.isTombstone {
                free = free ?? number
            } else if entry.keyHash(at: number) == keyHash {
                return (number, false)
            }
            number = next(number)
        }
        let chosen = free ?? number
        table.set(chosen, to: make(chosen))
        return (chosen, true)
    }

    /// The number probed after `number` (`place`).
    static func next(_ number: UInt64) -> UInt64 {
        NodeKey.number(forHash: number &+ 1)
    }

    /// The number the table holds for `key`, if any; never makes one.
    func existingNumber(for key: NodeKey) -> UInt64? {
        state.withLock { $0.live(key.stableHash, from: key.number)?.number }
    }

    private func count(_ number: UInt64, _ lookups: UInt64) -> UInt64 {
        state.withLock { _ = $0.slots.modify(number) { $0.count(lookups) } }
        return number
    }

    /// Takes `count` lookups off `number`; the entry goes when none remain (never the root's).
    func forget(_ number: UInt64, count: UInt64) {
        guard number != NodeKey.rootNumber else { return }
        state.withLock { state in
            guard let entry = state.slots[number], !entry.isTombstone else { return }
            guard UInt64(entry.lookups) <= count else {
                state.slots.modify(number) { $0.lookups -= UInt32(count) }
                return
            }
            // Where the run of taken numbers goes on, an entry past this one may have wanted this
            // number or an earlier one: it must still be found from there.
            let tombstone = state.slots[Self.next(number)] != nil ? Entry.tombstone : nil
            state.slots.set(number, to: tombstone)
            state.children.removed(number, from: entry.parent)
        }
    }
}
