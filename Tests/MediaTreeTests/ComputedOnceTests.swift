import Dispatch
import Glibc
@testable import MediaTree
import Synchronization
import Testing
import TestSupport

@Suite struct ComputedOnceTests {
    @Test func concurrentCallersShareOneComputation() throws {
        let work = ComputedOnce<Int, Int>(capacity: 10)
        let runs = Atomic<Int>(0)
        let results = Mutex<[Int]>([])
        // Every caller asks while the one computation runs: it ends once all have arrived.
        let arrived = Atomic<Int>(0)
        Threads.run(16) { _ in
            arrived.add(1, ordering: .relaxed)
            let value = try? work.value(for: 7) {
                runs.add(1, ordering: .relaxed)
                Wait.until(10) { arrived.load(ordering: .relaxed) == 16 }
                return 49
            }
            results.withLock { $0.append(value ?? -1) }
        }
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(results.withLock { $0 } == Array(repeating: 49, count: 16))
    }

    @Test func errorsAreSharedAndKeptLikeValues() throws {
        struct Failure: Error {}
        let work = ComputedOnce<String, Int>(capacity: 10)
        var runs = 0
        for _ in 0..<3 {
            #expect(throws: Failure.self) { try work.value(for: "bad") { runs += 1; throw Failure() } }
        }
        #expect(runs == 1)
    }

    @Test func keepsAtMostCapacityResults() throws {
        let work = ComputedOnce<Int, Int>(capacity: 2)
        for key in 0..<3 { _ = try work.value(for: key) { key } }
        #expect(work.cached(0) == nil)
        #expect(try work.cached(2)?.get() == 2)
    }
}
