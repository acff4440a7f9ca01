import Dispatch
@testable import MediaTree
import Synchronization
import Testing

/// Results filled at once by many calls: each lands at its index, and all are released with the
/// owner (a listing's entries must not outlive it).
@Suite struct ParallelResultsTests {
    private final class Counted: Sendable {
        static let alive = Atomic<Int>(0)
        let index: Int
        init(_ index: Int) {
            self.index = index
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test func eachResultLandsAtItsIndexAndAllAreReleasedWithTheOwner() {
        let before = Counted.alive.load(ordering: .relaxed)
        do {
            let results = ParallelResults<Counted?>(count: 1_000, repeating: nil)
            DispatchQueue.concurrentPerform(iterations: 1_000) { i in
                if i % 10 != 0 { results.set(i, to: Counted(i)) }
            }
            let all = results.all
            #expect(all.enumerated().allSatisfy { index, result in (result?.index ?? index) == index })
            #expect(all.compactMap { $0 }.count == 900)
            results.set(1, to: nil)
            #expect(Counted.alive.load(ordering: .relaxed) - before == 900, "the copy taken holds the replaced one")
        }
        #expect(Counted.alive.load(ordering: .relaxed) == before)
    }
}
