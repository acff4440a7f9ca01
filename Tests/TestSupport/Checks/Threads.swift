import Dispatch
import Foundation

/// Threads of a test's own, all running at once: `DispatchQueue.concurrentPerform` runs no more
/// at a time than the machine has cores, and readers meant to race each other (or a loop meant
/// to run beside them) must not wait for a core's turn.
public enum Threads {
    /// Runs `body(0)` … `body(count - 1)`, each on a thread of its own, and returns once all have.
    public static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchGroup()
        for k in 0..<count {
            done.enter()
            let thread = Thread {
                body(k)
                done.leave()
            }
            thread.start()
        }
        done.wait()
    }
}
