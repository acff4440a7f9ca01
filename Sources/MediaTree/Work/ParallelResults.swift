/// One result per index, filled by calls running at once (`EntryFanOut`,
/// `DispatchQueue.concurrentPerform`), each writing its own index; the one owner of the memory,
/// which releases the results with it (a listing's names and entries are in them, and a buffer
/// freed without that kept every name of every listing alive).
///
/// `@unchecked`: the calls write disjoint slots, and the results are read only once they have all
/// returned.
final class ParallelResults<Result>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Result>

    init(count: Int, repeating initial: Result) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: initial)
    }

    /// Sets the result at `index`; each index from one call at a time.
    func set(_ index: Int, to result: Result) {
        slots[index] = result
    }

    /// The results in index order (a copy: read once every call has returned).
    var all: [Result] { Array(slots) }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }
}
