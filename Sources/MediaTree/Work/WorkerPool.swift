import Foundation

/// A fixed number of threads of our own taking jobs in order of arrival.
///
/// Media work blocks for tens or hundreds of milliseconds; running it here instead of on Dispatch's
/// or Swift's shared pools bounds how much runs at once and keeps it from starving anything else.
///
/// `@unchecked`: the queue is guarded by `condition`, whose waits `Mutex` cannot do.
public final class WorkerPool: @unchecked Sendable {
    public let threadCount: Int
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0

    /// Starts `threads` threads named `name-1`, `name-2`, …; they (and so the pool) live as long as
    /// the process.
    public init(name: String, threads: Int) {
        threadCount = max(1, threads)
        for i in 1...threadCount {
            let thread = Thread { self.serve() }
            thread.name = "\(name)-\(i)"
            thread.start()
        }
    }

    /// Runs `job` on one of the pool's threads, after the jobs already waiting.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Jobs submitted and not yet started.
    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    private func serve() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1_024 && head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
