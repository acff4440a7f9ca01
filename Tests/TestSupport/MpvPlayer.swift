import Foundation
import Glibc

/// Debian's mpv, headless (`--vo=null --ao=null`), paused on one file, asked through its JSON IPC
/// socket (`--input-ipc-server`): each command one line of JSON `{"command": […], "request_id": N}`,
/// each answer a line with the same `request_id` (event lines between are skipped).
///
/// Make one with the file to play, which waits (bounded) until the file is loaded; `quit()` (or
/// `deinit`) ends it and waits for its process.
public final class MpvPlayer {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One track of mpv's `track-list`.
    public struct Track: Equatable, CustomStringConvertible {
        public var type: String
        public var language: String?
        public var external: Bool
        /// The file name of an external track, without its folder.
        public var file: String?

        public var description: String { "\(type) \(file ?? "embedded") (\(language ?? "no language"))" }
    }

    private let process: ChildProcess
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var nextRequest = 1
    private var closed = false

    /// The mpv program, where Debian installs it; nil when none is there.
    public static var program: String? {
        ["/usr/bin/mpv", "/usr/local/bin/mpv"].first { access($0, X_OK) == 0 }
    }

    /// Starts mpv on `file` with `options` (say `--sub-auto=fuzzy`), its IPC socket and log in
    /// `folder`, and waits at most `timeout` seconds until the file is loaded.
    /// - Throws: `Failure` with mpv's log when it does not start or load the file in time.
    public init(file: String, options: [String] = [], folder: String, timeout: Double = 30) throws {
        guard let program = Self.program else { throw Failure(description: "mpv is not installed") }
        let socketPath = folder + "/mpv-\(UUID().uuidString.prefix(8)).socket"
        let log = folder + "/mpv.log"
        let child = try ChildProcess([program, "--no-config", "--vo=null", "--ao=null", "--pause", "--idle=no",
                                      "--input-ipc-server=" + socketPath] + options + ["--", file],
                                     stdout: .appending(log), stderr: .appending(log))
        process = child
        var connected: Int32 = -1
        _ = Wait.until(timeout) {
            guard child.isRunning else { return true }
            connected = Self.connect(socketPath)
            return connected >= 0
        }
        guard connected >= 0 else {
            child.kill9()
            throw Failure(description: "mpv did not open its IPC socket: \(Self.read(log))")
        }
        socket = connected
        var timeval = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        // Loaded once its (null) video output is configured: after the file and the external
        // tracks mpv found beside it are loaded and playback is set up (the track list fills in
        // two steps, the file's own tracks first).
        let loaded = Wait.until(timeout, poll: 0.05) { (try? command(["get_property", "vo-configured"])) as? Bool == true }
        guard loaded else {
            quit()
            throw Failure(description: "mpv did not load \(file): \(Self.read(log))")
        }
    }

    deinit { quit() }

    /// `track-list`, as mpv has it now.
    public func tracks() throws -> [Track] {
        let list = try command(["get_property", "track-list"]) as? [[String: Any]] ?? []
        return list.map { track in
            let path = track["external-filename"] as? String
            return Track(type: track["type"] as? String ?? "?", language: track["lang"] as? String,
                         external: track["external"] as? Bool ?? false, file: path.map { ($0 as NSString).lastPathComponent })
        }
    }

    /// Sends one command and returns its answer's `data`.
    /// - Throws: `Failure` for an answer other than `success`, or none in time.
    public func command(_ arguments: [Any]) throws -> Any? {
        let id = nextRequest
        nextRequest += 1
        var line = try JSONSerialization.data(withJSONObject: ["command": arguments, "request_id": id])
        line.append(UInt8(ascii: "\n"))
        let sent = line.withUnsafeBytes { Glibc.write(socket, $0.baseAddress, $0.count) }
        guard sent == line.count else { throw Failure(description: "cannot write to mpv: \(String(cString: strerror(errno)))") }
        while true {
            let reply = try nextLine()
            guard let object = try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
                  object["request_id"] as? Int == id else { continue }
            guard object["error"] as? String == "success" else {
                throw Failure(description: "mpv answered \(arguments): \(object["error"] ?? "nothing")")
            }
            return object["data"]
        }
    }

    /// Asks mpv to quit, closes the socket, and waits for it (killing it if it stays).
    public func quit() {
        guard !closed else { return }
        closed = true
        if process.isRunning { _ = try? command(["quit"]) }
        close(socket)
        if process.wait(timeout: 10) == nil { process.kill9() }
    }

    private func nextLine() throws -> [UInt8] {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeFirst(end + 1) }
                return Array(buffer[..<end])
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "mpv's IPC socket closed or timed out") }
            buffer += chunk[..<count]
        }
    }

    /// A socket connected to the Unix socket at `path`, or -1.
    private static func connect(_ path: String) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { close(fd); return -1 }
        return fd
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
