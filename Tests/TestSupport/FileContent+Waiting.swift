import Dispatch
import MediaTree
import Synchronization

extension FileContent {
    /// Up to `count` bytes from `offset`, waited for: for tests reading the tree directly, the one
    /// place a thread waits for a read's answer (the tree and FuseBridge answer through `reply`).
    /// - Throws: what the read answers.
    public func read(offset: Int64, count: Int) throws -> [UInt8] {
        let answer = Mutex<Result<[UInt8], any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        read(offset: offset, count: count) { result in
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try answer.withLock { $0! }.get()
    }
}
