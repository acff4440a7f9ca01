import Dispatch
@testable import MediaTree
import Synchronization
import Testing

@Suite struct CachingTests {
    @Test func memoryCacheDropsTheLeastRecentlyUsedWithinItsBound() {
        let cache = MemoryCache<Int, [UInt8]>(capacity: 300)
        for key in 0..<3 { cache.insert([UInt8](repeating: 1, count: 100), cost: 100, for: key) }
        _ = cache.value(for: 0)  // 1 is now the least recently used
        cache.insert([UInt8](repeating: 2, count: 100), cost: 100, for: 3)
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 0) != nil && cache.value(for: 2) != nil && cache.value(for: 3) != nil)
        #expect(cache.statistics.cost <= 300)
        cache.insert([UInt8](repeating: 3, count: 400), cost: 400, for: 9)
        #expect(cache.value(for: 9) == nil, "a value above the whole bound is not kept")
    }

    /// Many askers of one key at once: the work runs once and every asker gets its answer.
    @Test func sharedJobsRunOncePerKey() {
        let pool = WorkerPool(name: "test", threads: 4)
        let jobs = SharedJobs<Int, Int>(pool: pool, cache: MemoryCache(capacity: 1_000), cost: { _ in 1 })
        let runs = Atomic<Int>(0)
        let answers = Mutex<[Int]>([])
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for _ in 0..<50 {
            group.enter()
            jobs.request(7, work: {
                runs.add(1, ordering: .relaxed)
                gate.wait()
                return 49
            }, completion: { result in
                answers.withLock { $0.append((try? result.get()) ?? -1) }
                group.leave()
            })
        }
        gate.signal()
        group.wait()
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(answers.withLock { $0 } == Array(repeating: 49, count: 50))
        #expect(jobs.inFlight == 0)
    }

    /// A failure reaches those waiting for it but is not kept: the next request tries again.
    @Test func sharedJobsDoNotKeepFailures() {
        struct Failed: Error {}
        let pool = WorkerPool(name: "test", threads: 2)
        let jobs = SharedJobs<Int, Int>(pool: pool, cache: MemoryCache(capacity: 1_000), cost: { _ in 1 })
        let runs = Atomic<Int>(0)
        func ask(fail: Bool) -> Result<Int, Error> {
            let done = DispatchSemaphore(value: 0)
            let answer = Mutex<Result<Int, Error>?>(nil)
            jobs.request(1, work: {
                runs.add(1, ordering: .relaxed)
                if fail { throw Failed() }
                return 5
            }, completion: { result in
                answer.withLock { $0 = result }
                done.signal()
            })
            done.wait()
            return answer.withLock { $0! }
        }
        #expect((try? ask(fail: true).get()) == nil)
        #expect((try? ask(fail: false).get()) == 5)
        #expect((try? ask(fail: false).get()) == 5)
        #expect(runs.load(ordering: .relaxed) == 2)
    }
}
