import Dispatch
import Glibc
@testable import MountLifecycle
import Testing

/// The ready pipe is written and closed once, whoever sends first and however many send.
@Suite struct ReadyPipeTests {
    /// Everything readable from `fd` until its end or, if it is kept open, until nothing is left.
    private func drain(_ fd: Int32) -> String {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A second send finds the pipe's descriptor number given to another file since it was
    /// closed: it neither writes there nor closes it.
    @Test func aSecondSendNeitherWritesNorClosesTheNumberAgain() throws {
        var first: [Int32] = [0, 0]
        var other: [Int32] = [0, 0]
        #expect(pipe(&first) == 0 && pipe(&other) == 0)
        defer { [first[0], other[0], other[1]].forEach { close($0) } }
        let ready = try #require(ReadyPipe(fd: first[1]))
        #expect(ready.send("ready 42"))
        // The number now stands for the other pipe's writing end.
        #expect(dup2(other[1], first[1]) == first[1])
        #expect(!ready.send("failed: too late"))
        #expect(fcntl(first[1], F_GETFD) != -1, "still open")
        close(first[1])
        #expect(drain(first[0]) == "ready 42\n")
        #expect(drain(other[0]) == "", "nothing written to the file that took the number")
    }

    @Test func sendersAtOnceWriteOneLine() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let ready = try #require(ReadyPipe(fd: ends[1]))
        DispatchQueue.concurrentPerform(iterations: 8) { index in ready.send("line \(index)") }
        let text = drain(ends[0])
        #expect(text.split(separator: "\n").count == 1 && text.hasPrefix("line "), "\(text)")
    }
}
