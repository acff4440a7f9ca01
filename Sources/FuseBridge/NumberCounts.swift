import Glibc

/// Counts by inode number, for `LookupCounts`: an open-addressing table whose slots hold a number
/// and its count side by side, found by linear probing from a slot the number itself gives.
///
/// A library's `ls -lR` counts 400,000 entries, each in a table of that size, in no order (numbers
/// are hashes). A `Dictionary` hashes the key with SipHash and reads the key and the value from two
/// arrays; here one slot holds both, and a number is already a hash (`InodeTable`), so it is only
/// spread over the slots (Fibonacci hashing). A large table lies in huge pages where the system
/// gives them (`SlotMemory`). Number 0 is never an inode (FUSE reserves it): it marks an empty
/// slot. Removal shifts the probe run back (no tombstones), so lookups stay short.
struct NumberCounts: ~Copyable {
    private var slots: SlotMemory
    /// 64 minus log2 of the slot count: a number's home slot is the top bits of its product.
    private var shift: UInt64
    /// How many numbers are counted.
    private(set) var count = 0

    init() {
        slots = SlotMemory(count: 1 << 10)
        shift = 64 - 10
    }

    /// The count of `number`, or nil where it is not counted.
    subscript(number: UInt64) -> UInt64? {
        let (index, found) = find(number)
        return found ? slots[index].count : nil
    }

    /// Adds one to the count of `number` if it is counted.
    /// - Returns: whether it was.
    mutating func increment(_ number: UInt64) -> Bool {
        let (index, found) = find(number)
        if found { slots[index].count &+= 1 }
        return found
    }

    /// Sets the count of `number` (not 0) to `value`; a value of 0 removes it.
    mutating func set(_ number: UInt64, to value: UInt64) {
        precondition(number != 0, "0 is not an inode number")
        let (index, found) = find(number)
        switch (found, value) {
        case (true, 0): remove(at: index)
        case (true, _): slots[index].count = value
        case (false, 0): break
        case (false, _):
            slots[index] = CountSlot(number: number, count: value)
            count += 1
            if count * 4 > slots.count * 3 { grow() }
        }
    }

    private var mask: Int { slots.count - 1 }

    private func home(_ number: UInt64) -> Int {
        Int(truncatingIfNeeded: (number &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `number`, or the empty slot that ends its probe run.
    private func find(_ number: UInt64) -> (index: Int, found: Bool) {
        var index = home(number)
        while true {
            let held = slots[index].number
            if held == number { return (index, true) }
            if held == 0 { return (index, false) }
            index = (index + 1) & mask
        }
    }

    /// Empties the slot at `index`, moving back each later slot of its run that may sit there.
    private mutating func remove(at index: Int) {
        var hole = index
        var next = index
        while true {
            next = (next + 1) & mask
            let number = slots[next].number
            if number == 0 { break }
            // The slot stays where its home lies cyclically in (hole, next].
            let home = home(number)
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if stays { continue }
            slots[hole] = slots[next]
            hole = next
        }
        slots[hole] = CountSlot(number: 0, count: 0)
        count -= 1
    }

    private mutating func grow() {
        let old = SlotMemory(moving: &slots, newCount: slots.count * 2)
        shift -= 1
        for index in 0..<old.count where old[index].number != 0 {
            let slot = old[index]
            slots[find(slot.number).index] = slot
        }
    }
}

/// One slot of `NumberCounts`: number 0 is an empty slot.
struct CountSlot {
    var number: UInt64
    var count: UInt64
}

/// The zeroed slots of a `NumberCounts`, owned (freed on deinit). From 2 MiB up they are mapped
/// apart and advised into huge pages (`MADV_HUGEPAGE`): a table of the library's 400,000 numbers
/// is 16 MiB read at random, a TLB miss besides the cache miss at nearly every count in 4 KiB
/// pages (in huge pages, the samples of `find` in the daemon's profile of a repeated `ls -lR` went
/// from 899 to 614). Where the system gives none, the advice changes nothing.
struct SlotMemory: ~Copyable {
    private let base: UnsafeMutablePointer<CountSlot>
    let count: Int
    private let mapped: Bool

    private static let hugePage = 2 << 20

    init(count: Int) {
        self.count = count
        let bytes = count * MemoryLayout<CountSlot>.stride
        if bytes >= Self.hugePage, let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
           memory != MAP_FAILED {
            _ = madvise(memory, bytes, MADV_HUGEPAGE)
            base = memory.bindMemory(to: CountSlot.self, capacity: count)
            mapped = true
        } else {
            base = .allocate(capacity: count)
            base.initialize(repeating: CountSlot(number: 0, count: 0), count: count)
            mapped = false
        }
    }

    /// New zeroed memory of `newCount` slots in `memory`'s place; the old slots are returned.
    init(moving memory: inout SlotMemory, newCount: Int) {
        self = SlotMemory(count: newCount)
        swap(&self, &memory)
    }

    subscript(index: Int) -> CountSlot {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    deinit {
        if mapped {
            munmap(base, count * MemoryLayout<CountSlot>.stride)
        } else {
            base.deallocate()
        }
    }
}
