import Foundation
import Glibc

/// Debian's Kodi (20), a real client of the server layout, run headless: under its own Xvfb (on a
/// display Xvfb picks, `-displayfd`; OpenGL is Mesa's llvmpipe), in a private HOME whose
/// `~/.kodi/userdata` holds only what the tests set, and asked through its JSON-RPC over TCP on a
/// free port of 127.0.0.1: each request one JSON object, each answer an object with the same `id`
/// (notifications, objects with a `method` and no `id`, come between and are skipped; Kodi sends
/// the objects back to back, without a separator).
///
/// What Kodi 20 needs to run so:
/// - `--windowing=x11` (not Wayland or GBM), `--standalone` (no window manager);
/// - JSON-RPC over TCP is on with `services.esenabled` (on by default: "allow remote control from
///   applications on this system", 127.0.0.1 only); its port is advancedsettings.xml's
///   `<jsonrpc><tcpport>`; no first-run dialog blocks `Player.Open`;
/// - an audio sink: Kodi 20 has no null sink, and without a device it retries every half second
///   and holds playback at its start and after each seek. The private HOME's `.asoundrc` makes
///   ALSA's default device the `null` plugin, and `KODI_AE_SINK=ALSA` spares the PulseAudio and
///   PipeWire tries. That device takes samples faster than real time: Kodi corrects the audio
///   clock every few seconds (its log's "large audio sync error" and "stream stalled, triggering
///   re-sync"), and the playback time jumps ahead by about a second then;
/// - `<loglevel>1</loglevel>` (debug), so that its log, `~/.kodi/temp/kodi.log`, says which edit
///   decision list it read and what it found there (`ReadEdl - Read N edits …`, `AddEdit - …`).
///
/// Under Xvfb nothing paces Kodi's drawing (no vertical sync): it draws frame after frame as fast
/// as it can, and llvmpipe draws each on one thread a core by default, which kept about 1.8 cores
/// busy for the whole playback. `LP_NUM_THREADS=1` draws on one thread: the same playback, about a
/// quarter less CPU time taken from the tests running beside it.
///
/// Make one with a folder for its HOME and logs, which waits (bounded) until Kodi answers;
/// `play(_:)` a file and sample `position()`; `quit()` (or `deinit`) ends Kodi and Xvfb and waits
/// for their processes.
public final class KodiPlayer {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// Whether Kodi answered with an error (rather than not at all).
        public var refused = false
    }

    /// The playback time at a moment: `elapsed` seconds after `play(_:)` was asked, `time`
    /// seconds into the file.
    public struct Sample: Sendable, CustomStringConvertible {
        public var elapsed: Double
        public var time: Double
        public var description: String { String(format: "%.2f→%.2f", elapsed, time) }
    }

    /// Kodi's program: Debian's binary itself (`/usr/lib/<triplet>/kodi/kodi.bin`; `kodi-x11` in
    /// other builds), else the `/usr/bin/kodi` script that runs it; nil when none is there.
    public static let program: String? = {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
            .filter { $0.hasSuffix("-linux-gnu") }.map { "/usr/lib/\($0)/kodi" } + ["/usr/lib/kodi", "/usr/local/lib/kodi"]
        let binaries = folders.flatMap { [$0 + "/kodi.bin", $0 + "/kodi-x11"] }
        return (binaries + ["/usr/bin/kodi", "/usr/local/bin/kodi"]).first { access($0, X_OK) == 0 }
    }()

    /// The X server without a screen, where Debian installs it; nil when none is there.
    public static let xvfb: String? = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first { access($0, X_OK) == 0 }

    /// What is missing to run Kodi here, for a skipped test's message; nil when nothing is.
    public static let missing: String? = {
        let absent = [program == nil ? "Kodi (Debian: apt-get install --no-install-recommends kodi)" : nil,
                      xvfb == nil ? "Xvfb (Debian: apt-get install xvfb)" : nil].compactMap { $0 }
        return absent.isEmpty ? nil : absent.joined(separator: " and ") + " not installed"
    }()

    /// Kodi's private HOME (`folder/kodi-home`).
    public let home: String
    /// Kodi's log, `HOME/.kodi/temp/kodi.log`.
    public var logPath: String { home + "/.kodi/temp/kodi.log" }
    /// The X display Xvfb took (`:N`).
    public let display: String

    private let server: ChildProcess
    private let kodi: ChildProcess
    private let folder: String
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var nextRequest = 1
    private var player: Int?
    private var playStarted = Date()
    private var closed = false

    /// Starts Xvfb and Kodi, their output and Kodi's HOME in `folder`, and waits at most `timeout`
    /// seconds until Kodi answers a JSON-RPC ping.
    /// - Throws: `Failure` (with the logs) when Kodi or Xvfb is missing, or does not start in time.
    public init(folder: String, timeout: Double = 60) throws {
        guard let program = Self.program, let xvfb = Self.xvfb else {
            throw Failure(description: Self.missing ?? "Kodi cannot run here")
        }
        self.folder = folder
        home = folder + "/kodi-home"
        let port = try Self.freePort()
        try Self.writeSettings(home: home, port: port)

        // Xvfb writes the display it took to the descriptor given: its standard output, a file.
        let displayFile = folder + "/xvfb.display"
        let server = try ChildProcess([xvfb, "-displayfd", "1", "-screen", "0", "640x360x24", "-nolisten", "tcp", "-noreset"],
                                      stdout: .file(displayFile), stderr: .file(folder + "/xvfb.log"))
        self.server = server
        var number: Int?
        Wait.until(timeout) {
            number = Int(Self.read(displayFile).trimmingCharacters(in: .whitespacesAndNewlines))
            return number != nil || !server.isRunning
        }
        guard let number else {
            server.kill9()
            throw Failure(description: "Xvfb did not take a display: \(Self.read(folder + "/xvfb.log"))")
        }
        display = ":\(number)"

        var environment = ProcessInfo.processInfo.environment
        // Kodi's own start script unsets these (its "Turkish I" problem); a session's Wayland or
        // runtime folder must not be reached.
        for name in ["LANG", "LC_ALL", "LC_CTYPE", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "KODI_HOME", "KODI_TEMP"] {
            environment[name] = nil
        }
        environment["HOME"] = home
        environment["DISPLAY"] = display
        environment["KODI_AE_SINK"] = "ALSA"
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment["LP_NUM_THREADS"] = "1"
        let kodi: ChildProcess
        do {
            kodi = try ChildProcess([program, "--standalone", "--windowing=x11"], stdout: .file(folder + "/kodi.out"),
                                    stderr: .file(folder + "/kodi.out"), directory: home, environment: environment)
        } catch {
            server.kill9()
            throw error
        }
        self.kodi = kodi

        var connected: Int32 = -1
        let answering = Wait.until(timeout, poll: 0.2) {
            guard kodi.isRunning else { return true }
            connected = Self.connect(port: port)
            return connected >= 0
        }
        socket = connected
        guard answering, connected >= 0 else {
            quit()
            throw Failure(description: "Kodi did not open its JSON-RPC port \(port) within \(timeout) s: \(startFailure)")
        }
        var timeval = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        guard (try? call("JSONRPC.Ping")) as? String == "pong" else {
            quit()
            throw Failure(description: "Kodi does not answer JSON-RPC: \(startFailure)")
        }
    }

    deinit { quit() }

    /// Asks Kodi to play `file` (`Player.Open`, a path as Kodi's VFS takes it) and waits at most
    /// `timeout` seconds until its video player is active.
    /// - Throws: `Failure` when Kodi refuses the file or no player starts in time.
    public func play(_ file: String, timeout: Double = 30) throws {
        player = nil
        playStarted = Date()
        _ = try call("Player.Open", ["item": ["file": file]])
        let started = try Wait.until(timeout, poll: 0.1) {
            let players = try call("Player.GetActivePlayers") as? [[String: Any]] ?? []
            player = players.first { $0["type"] as? String == "video" }.flatMap { ($0["playerid"] as? NSNumber)?.intValue }
            return player != nil
        }
        guard started else { throw Failure(description: "Kodi started no video player for \(file) within \(timeout) s") }
    }

    /// The playback time now, in seconds into the file; nil when nothing plays (not yet, or no more).
    public func position() throws -> Double? {
        guard let player else { return nil }
        let properties: Any?
        do {
            properties = try call("Player.GetProperties", ["playerid": player, "properties": ["time", "speed"]])
        } catch let failure as Failure where failure.refused {
            return nil  // the player has ended
        }
        guard let time = (properties as? [String: Any])?["time"] as? [String: Any] else { return nil }
        func part(_ key: String) -> Double { (time[key] as? NSNumber)?.doubleValue ?? 0 }
        return part("hours") * 3600 + part("minutes") * 60 + part("seconds") + part("milliseconds") / 1000
    }

    /// Samples the playback time as often as Kodi answers (a pause of at most `interval` between)
    /// until it is at least `end`, playback ends, or `timeout` seconds have passed since `play(_:)`.
    public func samples(until end: Double, timeout: Double, interval: Double = 0.1) throws -> [Sample] {
        var samples: [Sample] = []
        let remaining = timeout - Date().timeIntervalSince(playStarted)
        try Wait.until(max(remaining, 0), poll: interval) {
            guard let time = try position() else { return !samples.isEmpty }
            samples.append(Sample(elapsed: Date().timeIntervalSince(playStarted), time: time))
            return time >= end
        }
        return samples
    }

    /// Sends one JSON-RPC request and returns its answer's `result`.
    /// - Throws: `Failure` for an answer with an `error`, or none in time.
    @discardableResult
    public func call(_ method: String, _ parameters: [String: Any]? = nil) throws -> Any? {
        let id = nextRequest
        nextRequest += 1
        var request: [String: Any] = ["jsonrpc": "2.0", "method": method, "id": id]
        if let parameters { request["params"] = parameters }
        let data = try JSONSerialization.data(withJSONObject: request)
        let sent = data.withUnsafeBytes { Glibc.write(socket, $0.baseAddress, $0.count) }
        guard sent == data.count else { throw Failure(description: "cannot write to Kodi: \(String(cString: strerror(errno)))") }
        while true {
            let object = try JSONSerialization.jsonObject(with: Data(try nextObject())) as? [String: Any] ?? [:]
            guard (object["id"] as? NSNumber)?.intValue == id else { continue }
            if let error = object["error"] {
                throw Failure(description: "Kodi answered \(method) with \(error)", refused: true)
            }
            return object["result"]
        }
    }

    /// Kodi's log so far.
    public var log: String { Self.read(logPath) }

    /// The lines of Kodi's log about edit decision lists: where it looked, what it read.
    public var editListLog: [String] {
        log.split(separator: "\n").filter {
            $0.contains("EditDecisionLists") || $0.contains("ReadEdl") || $0.contains("AddEdit")
                || $0.contains("EDL file") || $0.contains("MergeShortCommBreaks")
        }.map(String.init)
    }

    /// The last `count` lines of Kodi's log, for a failure's message.
    public func logTail(_ count: Int = 40) -> String {
        log.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    /// Asks Kodi to quit (`Application.Quit`), closes the socket, waits for Kodi (killing it if it
    /// stays), then ends Xvfb and waits for it.
    public func quit() {
        guard !closed else { return }
        closed = true
        var asked = false
        if socket >= 0 {
            asked = kodi.isRunning && (try? call("Application.Quit")) != nil
            close(socket)
        }
        // Kodi takes a few seconds to save its settings and stop its threads.
        if asked { kodi.wait(timeout: 20) }
        kodi.kill9()
        server.signal(SIGTERM)
        if server.wait(timeout: 10) == nil { server.kill9() }
        server.kill9()
    }

    /// Why Kodi did not start: its output and the end of its log.
    private var startFailure: String {
        let status = kodi.status.map { "Kodi ended (\($0))" } ?? "Kodi runs"
        return "\(status); its output: \(Self.read(folder + "/kodi.out").suffix(3000)); its log: \(logTail())"
    }

    /// One whole JSON object from the socket: bytes up to where the braces of the first object
    /// balance, outside strings.
    private func nextObject() throws -> [UInt8] {
        while true {
            if let end = Self.endOfObject(buffer) {
                defer { buffer.removeFirst(end) }
                return Array(buffer[..<end])
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "Kodi's JSON-RPC connection closed or timed out") }
            buffer += chunk[..<count]
        }
    }

    /// The index after the first complete JSON object of `bytes` (leading whitespace dropped
    /// with it), or nil while it is incomplete.
    static func endOfObject(_ bytes: [UInt8]) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
        }
        return nil
    }
}
