import Glibc

/// The pipe on which a background daemon tells the command that started it how the mount went:
/// one line, "ready PID" or "failed: REASON".
struct ReadyPipe: Sendable {
    let fd: Int32

    init?(fd: Int32?) {
        guard let fd else { return nil }
        self.fd = fd
    }

    /// Writes `line` and closes the pipe; later calls find it closed and do nothing.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
