import Foundation
import TestSupport
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

    /// Against a plain model of least-recently-used order, through many uses, insertions,
    /// replacements and removals: the same keys kept, the cost always within the bound.
    @Test func memoryCacheKeepsWhatAModelOfItKeeps() {
        var generator = SeededGenerator(seed: 7)
        let cache = MemoryCache<Int, Int>(capacity: 1_000)
        var model: [(key: Int, cost: Int)] = []  // least recently used first
        for _ in 0..<20_000 {
            let key = Int.random(in: 0..<200, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let kept = cache.value(for: key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(kept == key)
                    model.append(model.remove(at: index))
                } else {
                    #expect(kept == nil)
                }
            case 4..<9:
                let cost = Int.random(in: 1...120, using: &generator)
                cache.insert(key, cost: cost, for: key)
                model.removeAll { $0.key == key }
                while model.reduce(0, { $0 + $1.cost }) + cost > 1_000 { model.removeFirst() }
                model.append((key, cost))
            default:
                cache.remove(key)
                model.removeAll { $0.key == key }
            }
            #expect(cache.statistics.entries == model.count)
            #expect(cache.statistics.cost == model.reduce(0) { $0 + $1.cost })
        }
    }

    /// Many askers of one key at once: the work runs once and every asker gets its answer.
    @Test func madeOnPoolMakesOncePerKey() {
        let pool = WorkerPool(name: "test", threads: 4)
        let jobs = MadeOnPool<Int, Int>(pool: pool, memory: MemoryCache(capacity: 1_000), cost: { _ in 1 })
        let runs = Atomic<Int>(0)
        let answers = Mutex<[Int]>([])
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for _ in 0..<50 {
            group.enter()
            jobs.request(7, make: {
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
    @Test func madeOnPoolKeepsNoFailure() {
        struct Failed: Error {}
        let pool = WorkerPool(name: "test", threads: 2)
        let jobs = MadeOnPool<Int, Int>(pool: pool, memory: MemoryCache(capacity: 1_000), cost: { _ in 1 })
        let runs = Atomic<Int>(0)
        func ask(fail: Bool) -> Result<Int, Error> {
            let done = DispatchSemaphore(value: 0)
            let answer = Mutex<Result<Int, Error>?>(nil)
            jobs.request(1, make: {
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

    /// A value on the shelf is served without making it, a value made is put on the shelf once the
    /// askers have it, and each way is counted.
    @Test func madeOnPoolLooksOnTheShelfAndCounts() {
        final class Shelf: MadeShelf {
            let kept = Mutex<[Int: Int]>([3: 30])
            func load(_ key: Int) -> Int? { kept.withLock { $0[key] } }
            func keep(_ value: Int, for key: Int) { kept.withLock { $0[key] = value } }
        }
        struct Failed: Error {}
        let shelf = Shelf()
        let counters = MadeCounters()
        let jobs = MadeOnPool<Int, Int>(pool: WorkerPool(name: "test", threads: 2), memory: MemoryCache(capacity: 0),
                                        shelf: shelf, cost: { _ in 1 }, counters: { _ in counters })
        func ask(_ key: Int, fail: Bool = false) -> Int? {
            let done = DispatchSemaphore(value: 0)
            let answer = Mutex<Int?>(nil)
            jobs.request(key, make: {
                if fail { throw Failed() }
                return key * 100
            }, completion: { result in
                answer.withLock { $0 = try? result.get() }
                done.signal()
            })
            done.wait()
            return answer.withLock { $0 }
        }
        #expect(ask(3) == 30, "from the shelf, not made")
        #expect(ask(4) == 400)
        #expect(ask(5, fail: true) == nil)
        // `keep` runs after the answer: wait for it on a condition.
        let deadline = ContinuousClock.now + .seconds(5)
        while shelf.load(4) == nil && ContinuousClock.now < deadline { sched_yield() }
        #expect(shelf.load(4) == 400)
        #expect(ask(4) == 400, "the memory keeps nothing (capacity 0): from the shelf")
        #expect(counters.made.load(ordering: .relaxed) == 1)
        #expect(counters.fromDisk.load(ordering: .relaxed) == 2)
        #expect(counters.failures.load(ordering: .relaxed) == 1)
    }
}
