import Foundation
import Glibc
import Testing
import TestSupport

/// A private `smbd` serving one folder as `//127.0.0.1/share` to guests, for the tests: its
/// config, lock, state, cache, private (passdb), pid and log folders all in a folder of the test's
/// own, listening on a spare port of 127.0.0.1 only, so it touches nothing in /etc or /var and
/// never meets the machine's own Samba.
///
/// Stop it with `stop()` (in a `defer`): SIGTERM, then SIGKILL of its process group, each step
/// bounded. smbd must run in a process group of its own, because when it ends it sends SIGTERM to
/// its whole group (which would otherwise reach the test process and the mediafs daemons beside
/// it): `ChildProcess` makes that group, and `--no-process-group` keeps smbd from trying to make a
/// session of its own (`setsid` fails for a group leader, and smbd then exits: "Failed to create
/// session").
final class SambaServer {
    /// Why a server could not be had: no smbd, or one that would not start (its log says more).
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    let folder: String
    let configuration: String
    let port: Int
    let logPath: String
    private let daemon: ChildProcess
    private var stopped = false

    /// The smbd program, where Debian and most others install it; nil when none is there.
    static var program: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"])
            .map { $0 + "/smbd" }.first { access($0, X_OK) == 0 }
    }

    /// The smbclient program, looked up like `program`.
    static var client: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"])
            .map { $0 + "/smbclient" }.first { access($0, X_OK) == 0 }
    }

    /// The smb.conf the server runs with: the share's lines are those mount-scripts/README.md
    /// gives; the global ones keep the server private to the test. smbd makes none of the folders
    /// it is given (the init does); `disable netbios` needs no nmbd; `map to guest = Bad User` lets
    /// `smbclient -N` in as the guest (`guest`, by default `nobody`) with an empty private passdb; `load printers`,
    /// `printing`, `printcap name` and `disable spoolss` keep it from looking for printers (CUPS);
    /// `rpc start on demand helpers = no` keeps it from starting samba-dcerpcd, so that smbd and
    /// its connection processes are all there is to stop (smbclient's `get` needs no RPC).
    static func configuration(folder: String, port: Int, share: String, guest: String = "nobody") -> String {
        """
        [global]
          server role = standalone server
          smb ports = \(port)
          interfaces = 127.0.0.1
          bind interfaces only = yes
          disable netbios = yes
          lock directory = \(folder)/lock
          state directory = \(folder)/state
          cache directory = \(folder)/cache
          private dir = \(folder)/private
          pid directory = \(folder)/pid
          ncalrpc dir = \(folder)/ncalrpc
          log file = \(folder)/log/smbd.log
          passdb backend = tdbsam:\(folder)/private/passdb.tdb
          map to guest = Bad User
          guest account = \(guest)
          load printers = no
          printing = bsd
          printcap name = /dev/null
          disable spoolss = yes
          rpc start on demand helpers = no
        [share]
          path = \(share)
          read only = yes
          guest ok = yes
          ea support = no
          store dos attributes = no

        """
    }

    /// A server started as `init` does, or the running test cancelled (not failed) where smbd
    /// cannot start on this machine.
    static func startedOrCancelled(folder: String, share: String, guest: String = "nobody") throws -> SambaServer {
        do {
            return try SambaServer(folder: folder, share: share, guest: guest)
        } catch let error as Unavailable {
            try Test.cancel("smbd cannot start: \(error)")
        }
    }

    /// Starts smbd in the foreground over `share` and waits, at most `timeout` seconds, until it
    /// accepts connections. A port taken between choosing and binding it is retried on another.
    /// Clients are let in as the user `guest`, and read the share as that user.
    /// - Throws: `Unavailable` when smbd is missing, exits, or does not answer in time.
    init(folder: String, share: String, guest: String = "nobody", timeout: Double = 15) throws {
        guard let program = Self.program else { throw Unavailable(description: "smbd is not installed") }
        for name in ["lock", "state", "cache", "private", "pid", "ncalrpc", "log"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
        }
        self.folder = folder
        configuration = folder + "/smb.conf"
        logPath = folder + "/smbd.out"
        var attempt = 0
        while true {
            attempt += 1
            let port = try Loopback.sparePort()
            try Self.configuration(folder: folder, port: port, share: share, guest: guest)
                .write(toFile: configuration, atomically: true, encoding: .utf8)
            let daemon = try ChildProcess([program, "--foreground", "--no-process-group", "--debug-stdout", "--debuglevel=1",
                                           "--configfile=" + configuration],
                                          stdout: .appending(logPath), stderr: .appending(logPath))
            let answered = Wait.until(timeout, poll: 0.02) { !daemon.isRunning || Loopback.accepts(port: port) } && daemon.isRunning
            if answered {
                self.port = port
                self.daemon = daemon
                return
            }
            let status = daemon.status
            Self.end(daemon)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            // smbd exits when it cannot bind: another process took the port after we let it go.
            if status != nil && log.contains("Address already in use") && attempt < 3 { continue }
            let what = status.map { "smbd exited (\($0)) without listening on 127.0.0.1:\(port)" }
                ?? "smbd did not accept connections on 127.0.0.1:\(port) within \(timeout) s"
            throw Unavailable(description: what + "; its output (\(logPath)):\n" + String(log.suffix(3000)))
        }
    }

    deinit { stop() }

    /// Ends smbd and its connection processes. Safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        Self.end(daemon)
    }

    /// `smbclient //127.0.0.1/share -p PORT -N -c COMMANDS` with the server's config (so nothing
    /// in /etc/samba is read), bounded by `timeout` seconds, run in `directory`.
    func client(_ commands: String, directory: String, timeout: Double = 120) throws -> CommandResult {
        guard let client = Self.client else { throw Unavailable(description: "smbclient is not installed") }
        return try Command.run([client, "--configfile=" + configuration, "//127.0.0.1/share", "-p", String(port), "-N",
                                "-c", commands], timeout: timeout, directory: directory)
    }

    /// SIGTERM to smbd (which passes it on to its group), then SIGKILL to the group; bounded.
    private static func end(_ daemon: ChildProcess) {
        if daemon.isRunning {
            daemon.signal(SIGTERM)
            daemon.wait(timeout: 5)
        }
        // Connection processes smbd forked, whether or not it is still there.
        daemon.kill9(timeout: 5)
    }
}
