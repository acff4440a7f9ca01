import CLinux
import Foundation
import MediaKit

/// The background analysis (`--analysis background`): one thread in the idle CPU scheduling class
/// and the idle I/O class, analysing the versions the mount comes to know one at a time, in the
/// order it met them, and waiting between units of its work while requests are served
/// (`RequestActivity`), holding still within one meanwhile (`AnalysisRequest.isBusy`). A version is queued once per mount; what it finds lands in its record.
final class AnalysisQueue: @unchecked Sendable {
    /// A version to analyse, by where it was met and what it was then: its record is looked up
    /// when its turn comes (the queue holds no record, so they stay within their bound).
    struct Job: Sendable {
        var path: SourcePath
        var identity: FileIdentity
    }

    let isEnabled: Bool
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var queued: Set<FileIdentity> = []
    private var stopping = false
    private var running = false

    init(enabled: Bool) {
        isEnabled = enabled
    }

    /// Starts the thread, which hands each job to `work` until `stop()`.
    func start(_ work: @escaping @Sendable (Job) -> Void) {
        guard isEnabled else { return }
        condition.lock()
        running = true
        condition.unlock()
        let thread = Thread { [self] in
            _ = clinux_lower_this_thread()
            while let job = next() { work(job) }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "mediafs-analysis"
        thread.start()
    }

    /// Queues the version at `path` with `identity`, once per mount.
    func consider(_ path: SourcePath, identity: FileIdentity) {
        guard isEnabled else { return }
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queued.insert(identity).inserted else { return }
        jobs.append(Job(path: path, identity: identity))
        condition.signal()
    }

    /// Versions waiting for their turn.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    /// Throws `MediaError.cancelled` once `stop()` was called: the job under way ends at its next pause.
    func checkStopping() throws {
        condition.lock()
        let stop = stopping
        condition.unlock()
        if stop { throw MediaError.cancelled(reason: "the mount is closing") }
    }

    /// Stops the thread after the job under way, which stops at its next pause; waits for it.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopping { condition.wait() }
        guard !stopping else { return nil }
        let job = jobs[head]
        head += 1
        if head > 1_024 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
