import CFuse
import Glibc

/// The node table's entries by inode number: an open-addressing table whose slots hold a number
/// and its entry side by side, found by linear probing from a slot the number itself gives.
///
/// A library's `ls -lR` gives the kernel half a million numbers, so what a slot costs is what the
/// daemon's resident set grows by per listed entry. A `Dictionary` keeps keys and values in two
/// arrays and doubles at three quarters full, so past each power of two it holds up to 2.7 buckets
/// per entry; here a slot is one 24-byte record, the table grows by half at 85 % full (1.2 to 1.8
/// slots per entry), and a number's home slot is its product with the slot count, which needs no
/// power of two. A number is already a hash (`NodeKey.number(forHash:)`), so it is only spread by
/// a multiplication. Number 0 is never an inode (FUSE reserves it): it marks an empty slot.
/// Removal shifts the probe run back (no tombstones of its own), so lookups stay short.
struct NumberSlots<Value>: ~Copyable {
    private var memory: SlotMemory<Value>
    /// An empty slot's value (it holds no reference, so copies of it cost nothing).
    private let vacant: Value
    /// How many numbers the table holds.
    private(set) var count = 0

    private static var maximumLoad: Double { 0.85 }

    init(vacant: Value) {
        self.vacant = vacant
        memory = SlotMemory(count: 1024, vacant: vacant)
    }

    /// The value of `number`, or nil where the table holds none.
    subscript(number: UInt64) -> Value? {
        let (index, found) = find(number)
        return found ? memory[index].value : nil
    }

    /// Calls `body` with the value of `number` to change in place, if the table holds one.
    @discardableResult
    mutating func modify<Result>(_ number: UInt64, _ body: (inout Value) -> Result) -> Result? {
        let (index, found) = find(number)
        return found ? body(&memory[index].value) : nil
    }

    /// Sets the value of `number` (not 0); nil removes it.
    mutating func set(_ number: UInt64, to value: Value?) {
        precondition(number != 0, "0 is not an inode number")
        let (index, found) = find(number)
        switch (found, value) {
        case (true, nil): remove(at: index)
        case (true, let value?): memory[index].value = value
        case (false, nil): break
        case (false, let value?):
            memory[index] = Slot(number: number, value: value)
            count += 1
            if Double(count) > Double(memory.count) * Self.maximumLoad { grow() }
        }
    }

    /// Calls `body` with every number and its value, which it may change (not remove).
    mutating func updateEach(_ body: (UInt64, inout Value) -> Void) {
        for index in 0..<memory.count where memory.number(at: index) != 0 {
            body(memory.number(at: index), &memory[index].value)
        }
    }

    /// Starts fetching the slot where the search for `number` begins into the cache, without
    /// waiting for it: the slots of many numbers are then fetched at once, not one after another.
    func prefetch(_ number: UInt64) {
        cfuse_prefetch(memory.address(at: home(number)))
    }

    /// How many slots there are (for tests of the load).
    var capacity: Int { memory.count }

    private func home(_ number: UInt64) -> Int {
        Int(truncatingIfNeeded: (number &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: UInt64(memory.count)).high)
    }

    private func after(_ index: Int) -> Int {
        index + 1 == memory.count ? 0 : index + 1
    }

    /// The slot holding `number`, or the empty slot that ends its probe run.
    private func find(_ number: UInt64) -> (index: Int, found: Bool) {
        var index = home(number)
        while true {
            let held = memory.number(at: index)
            if held == number { return (index, true) }
            if held == 0 { return (index, false) }
            index = after(index)
        }
    }

    /// Empties the slot at `index`, moving back each later slot of its run that may sit there.
    private mutating func remove(at index: Int) {
        var hole = index
        var next = index
        while true {
            next = after(next)
            let number = memory.number(at: next)
            if number == 0 { break }
            // The slot stays where its home lies cyclically in (hole, next].
            let home = home(number)
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if stays { continue }
            memory[hole] = memory[next]
            hole = next
        }
        memory[hole] = Slot(number: 0, value: vacant)
        count -= 1
    }

    private mutating func grow() {
        var old = SlotMemory(count: memory.count + memory.count / 2, vacant: vacant)
        swap(&old, &memory)
        for index in 0..<old.count where old[index].number != 0 {
            memory[find(old[index].number).index] = old[index]
        }
    }
}

/// One slot of `NumberSlots`: number 0 is an empty slot.
struct Slot<Value> {
    var number: UInt64
    var value: Value
}

/// The slots of a `NumberSlots`, owned (freed on deinit). From 2 MiB up they are mapped apart and
/// advised into huge pages (`MADV_HUGEPAGE`): a table of a library's numbers is tens of MiB read at
/// random, which in 4 KiB pages misses the TLB at nearly every entry a readdirplus replies. Where
/// the system gives none, the advice changes nothing.
private struct SlotMemory<Value>: ~Copyable {
    private let base: UnsafeMutablePointer<Slot<Value>>
    let count: Int
    private let mapped: Bool

    private static var hugePage: Int { 2 << 20 }

    init(count: Int, vacant: Value) {
        self.count = count
        let bytes = count * MemoryLayout<Slot<Value>>.stride
        if bytes >= Self.hugePage,
           let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), memory != MAP_FAILED {
            _ = madvise(memory, bytes, MADV_HUGEPAGE)
            base = memory.bindMemory(to: Slot<Value>.self, capacity: count)
            mapped = true
        } else {
            base = .allocate(capacity: count)
            mapped = false
        }
        base.initialize(repeating: Slot(number: 0, value: vacant), count: count)
    }

    /// The number in the slot at `index`, read where it lies: the subscript's `get` copies the
    /// slot, its value's references retained and released, for every slot a probe passes.
    func number(at index: Int) -> UInt64 {
        precondition(index >= 0 && index < count)
        return base[index].number
    }

    /// Where the slot at `index` lies.
    func address(at index: Int) -> UnsafeRawPointer {
        precondition(index >= 0 && index < count)
        return UnsafeRawPointer(base + index)
    }

    subscript(index: Int) -> Slot<Value> {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        nonmutating _modify {
            precondition(index >= 0 && index < count)
            yield &base[index]
        }
    }

    deinit {
        base.deinitialize(count: count)
        if mapped {
            munmap(base, count * MemoryLayout<Slot<Value>>.stride)
        } else {
            base.deallocate()
        }
    }
}

/// The slots' memory is owned by one table, which cannot be copied, so the table is as safe to send
/// as its values are (its pointer alone makes it not inferred so).
extension NumberSlots: @unchecked Sendable where Value: Sendable {}
