import Glibc
import Synchronization

/// The pipe on which a background daemon tells the command that started it how the mount went:
/// one line, "ready PID", or one beginning "failed" that says why (mediafs: "failed KIND: REASON").
///
/// Written and closed once, by whoever sends first: the thread that sees the mount answer and the
/// path that ends the daemon on an error may both send, and a descriptor once closed may by then
/// be another file's, which a second write would reach.
public final class ReadyPipe: Sendable {
    private let fd: Int32
    private let sent = Atomic<Bool>(false)

    /// The pipe at `fd`, which this takes to close; nil without one (a mount in the foreground).
    public init?(fd: Int32?) {
        guard let fd else { return nil }
        self.fd = fd
    }

    /// Writes `line` and closes the pipe, the first time; later calls do nothing. Whether this call
    /// sent it.
    @discardableResult
    public func send(_ line: String) -> Bool {
        guard sent.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return true
    }
}
