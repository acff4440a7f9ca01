import Foundation
import Glibc

extension Mount {
    /// How a test that uses `Mount.with` ends its mount.
    public enum Ending: Sendable, Equatable {
        /// `Mount.with` ends it when the body returns, with `finish()`, and the test fails unless
        /// that goes cleanly.
        case unmountChecked
        /// The test ends the mount itself (it unmounts, signals or kills the daemon) and checks
        /// what it expects of that; `Mount.with` only tears down whatever is left.
        case byTheTest
    }

    /// The orderly end of a mount, checked as gocryptfs's and sshfs's test helpers do: first the
    /// daemon's descriptors are compared with those it held once the mount answered
    /// (`DaemonDescriptors.excess(over:source:)`, given up to `settle` seconds to come down, since
    /// the kernel sends RELEASE after a `close` has returned); then `fusermount3 -u`, which must
    /// exit 0 (tried again while the mount is busy, for up to `settle` seconds); then the daemon,
    /// which must exit 0 within 15 s. It unmounts even when the
    /// descriptors are wrong, and reports everything that was.
    /// - Throws: `HarnessError` naming the leaked descriptors, fusermount3's output or the
    ///   daemon's status, with the end of its log; also when the mount had already ended (a test
    ///   that ends it itself uses `Mount.with(…, ending: .byTheTest)`).
    public func finish(settle: Double = 5) throws {
        guard daemon.isRunning && isMounted else {
            throw HarnessError("""
                the mount on \(point) ended before the test did (daemon: \(daemon.status.map(\.description) ?? "running"), \
                \(isMounted ? "still mounted" : "not mounted")); a test that ends its mount itself passes `ending: .byTheTest`
                \(logTail())
                """)
        }
        var problems: [String] = []
        if let leak = descriptorLeak(settle: settle) { problems.append(leak) }
        let unmounted = try unmountRetryingBusy(within: settle)
        if unmounted.succeeded {
            let status = daemon.wait(timeout: 15)
            if status != .exited(0) {
                problems.append("the daemon \(status.map { "ended with \($0)" } ?? "still runs 15 s after fusermount3 -u") (wanted exit 0)")
            }
        } else {
            problems.append("the unmount failed: \(unmounted)")
        }
        guard problems.isEmpty else {
            throw HarnessError((problems + [logTail()]).joined(separator: "\n"))
        }
    }

    /// What the daemon holds beyond its descriptors at mount time and their allowance, once
    /// `settle` seconds have not brought it down; nil when nothing.
    private func descriptorLeak(settle: Double) -> String? {
        guard let baseline = descriptorsAtMount else { return nil }
        var now = DaemonDescriptors(of: daemon.pid)
        var excess = now.excess(over: baseline, source: source)
        Wait.until(settle) {
            now = DaemonDescriptors(of: daemon.pid)
            excess = now.excess(over: baseline, source: source)
            return excess.isEmpty
        }
        guard !excess.isEmpty else { return nil }
        let kinds = excess.map { kind, count, new in
            "\(kind.rawValue): \(count) more (\(kind.allowance) allowed), new since the mount: \(new.joined(separator: ", "))"
        }
        return "the daemon (pid \(daemon.pid)) holds descriptors it did not hold when the mount answered, "
            + "\(baseline.count) then and \(now.count) now:\n  " + kinds.joined(separator: "\n  ")
    }

    /// The last `lines` lines of the daemon's log, for a failure's message.
    func logTail(lines: Int = 30) -> String {
        let last = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "daemon log \(logPath) (last \(last.count) lines):\n" + last.joined(separator: "\n")
    }
}
