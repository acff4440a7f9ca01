import Dispatch
import Foundation
@testable import MediaTree
import Synchronization
import Testing

/// `Once`: worked out once, on the first asker's thread; another asker meanwhile is told to come
/// back (`Pending`) rather than wait, and is called back once the work is done, failed or not.
@Suite struct OnceTests {
    struct Failure: Error {}

    /// A cell whose value (`value`) is being worked out on a thread of its own, held there until
    /// `finish` is signalled; `worked` is signalled once that thread is done.
    private func workedOutElsewhere(_ value: Int) -> (cell: Once<Int>, finish: DispatchSemaphore, worked: DispatchSemaphore) {
        let cell = Once<Int>(readsFiles: false)
        let (inWork, finish, worked) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        Thread.detachNewThread {
            _ = try? cell.value {
                inWork.signal()
                finish.wait()
                return value
            }
            worked.signal()
        }
        inWork.wait()
        return (cell, finish, worked)
    }

    @Test func aValueIsWorkedOutOnceAndKept() throws {
        let cell = Once<Int>(readsFiles: false)
        let runs = Atomic(0)
        for _ in 0..<3 {
            #expect(try cell.value { runs.add(1, ordering: .relaxed); return 7 } == 7)
        }
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(cell.known == 7)
    }

    @Test func anAskerWhileItIsWorkedOutIsToldToComeBack() throws {
        let (cell, finish, worked) = workedOutElsewhere(42)
        let resumed = DispatchSemaphore(value: 0)
        do {
            _ = try cell.value { Issue.record("worked out twice"); return 0 }
            Issue.record("answered while it was worked out")
        } catch let pending as Pending {
            pending.whenReady { resumed.signal() }
        }
        #expect(resumed.wait(timeout: .now() + 0.2) == .timedOut, "not called back before the work is done")
        finish.signal()
        #expect(resumed.wait(timeout: .now() + 30) == .success)
        worked.wait()
        #expect(try cell.value { 0 } == 42)
    }

    @Test func workThatFailsLeavesTheCellEmpty() throws {
        let cell = Once<Int>(readsFiles: false)
        #expect(throws: Failure.self) { try cell.value { throw Failure() } }
        #expect(cell.known == nil)
        #expect(try cell.value { 5 } == 5)
    }

    /// A request whose reply is a `Pending` runs again once the value is there: it is answered
    /// with the value, not the `Pending`.
    @Test func resumingRunsTheRequestAgain() throws {
        let fixture = try TreeFixture(files: [])
        let (cell, finish, worked) = workedOutElsewhere(3)
        defer { worked.wait() }
        let runs = Atomic(0)
        let answer = Mutex<Result<Int, Error>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        fixture.tree.resuming({ result in
            answer.withLock { $0 = result }
            answered.signal()
        }) { reply in
            runs.add(1, ordering: .relaxed)
            reply(Result { try cell.value { 0 } * 2 })
        }
        #expect(answer.withLock { $0 } == nil)
        finish.signal()
        #expect(answered.wait(timeout: .now() + 30) == .success)
        #expect(try answer.withLock { $0 }?.get() == 6)
        #expect(runs.load(ordering: .relaxed) == 2)
    }
}
