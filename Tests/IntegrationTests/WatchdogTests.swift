import Foundation
import Glibc
import Testing
import TestSupport

/// The mount's watchdog (`mediafs watch-mount`): it removes a mount its daemon left dead, holds
/// nothing of the daemon's but its pipe, and ends with the daemon however the mount ends.
@Suite(.mounts) struct WatchdogTests {
    /// A mount of an empty folder: the watchdog does not care what is served. Every test here
    /// ends the mount itself.
    static func withMount<T>(_ name: String, _ body: (Mount) throws -> T) throws -> T {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let point = try folder.makeFolder("mnt")
        return try Mount.with(source: source, point: point, log: folder.path("mediafs.log"), ending: .byTheTest, body)
    }

    /// The watchdog of `mount`, checked to be the only one.
    static func watchdog(of mount: Mount, sourceLocation: SourceLocation = #_sourceLocation) throws -> pid_t {
        let found = Processes.watchdogs(of: mount.point)
        return try #require(found.count == 1 ? found.first : nil, "watchdogs of \(mount.point): \(found)",
                            sourceLocation: sourceLocation)
    }

    /// The race libfuse's helper loses, made certain: the helper is stopped before the daemon is
    /// killed and killed after it, so it never looks; the watchdog alone must remove the mount.
    @Test func theWatchdogAloneRemovesTheMountOfAKilledDaemon() throws {
        try Self.withMount("watchdog-alone") { mount in
            let watchdog = try Self.watchdog(of: mount)
            let helpers = Processes.autoUnmountHelpers(of: mount.point)
            let helper = try #require(helpers.count == 1 ? helpers.first : nil, "auto_unmount helpers: \(helpers)")
            kill(helper, SIGSTOP)
            defer { kill(helper, SIGKILL) }
            #expect(mount.signal(SIGKILL) == .signalled(SIGKILL))
            kill(helper, SIGKILL)
            #expect(Processes.waitUntilGone(helper, timeout: 5), "libfuse's helper outlived SIGKILL")

            #expect(mount.waitUntilUnmounted(timeout: 10), "still mounted 10 s after SIGKILL; log:\n\(mount.log)")
            #expect(Processes.waitUntilGone(watchdog, timeout: 5), "the watchdog outlived its work")
            #expect(mount.log.contains("detached it"), "log:\n\(mount.log)")
            var st = stat()
            #expect(stat(mount.point, &st) == 0, "stat of the mount point: \(String(cString: strerror(errno)))")
            #expect(mount.teardownSteps.isEmpty)
        }
    }

    /// How a test ends a mount.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case fusermount, unmountCommand, sigint, sigterm, sigkill
        var testDescription: String { rawValue }
    }

    /// The watchdog holds only /dev/null and its end of the pipe, the daemon's /dev/fuse is
    /// close-on-exec, and the watchdog is gone soon after the daemon, whichever way the mount ends.
    @Test(arguments: Ending.allCases)
    func theWatchdogHoldsNothingAndEndsWithTheDaemon(_ ending: Ending) throws {
        try Self.withMount("watchdog-\(ending.rawValue)") { mount in
            let watchdog = try Self.watchdog(of: mount)
            // Once started (loading libraries opens files for a moment), it waits on the pipe.
            #expect(Processes.waitUntilReading(watchdog, fd: 3, timeout: 10), "the watchdog does not wait on its pipe")
            let held = Processes.descriptors(of: watchdog)
            #expect(held.keys.sorted() == [0, 1, 2, 3], "the watchdog holds \(held)")
            #expect(held[0] == "/dev/null" && held[1] == "/dev/null", "\(held)")
            #expect(held[2] == mount.logPath, "its errors go to the daemon's log file: \(held)")
            #expect(held[3]?.hasPrefix("pipe:") == true, "\(held)")
            let daemonFuse = Processes.descriptors(of: mount.daemon.pid).filter { $0.value == "/dev/fuse" }.map(\.key)
            #expect(!daemonFuse.isEmpty && daemonFuse.allSatisfy { Processes.isCloseOnExec($0, of: mount.daemon.pid) == true },
                    "the daemon's /dev/fuse descriptors \(daemonFuse) must be close-on-exec")
            // In a session of its own: signals to the daemon's group do not reach it.
            #expect(getsid(watchdog) == watchdog)

            let status: TestSupport.ExitStatus?
            switch ending {
            case .fusermount: status = try mount.unmount().daemon
            case .unmountCommand:
                expectSuccess(try Command.run([Mount.binary, "unmount", mount.point], timeout: 30))
                status = mount.daemon.wait(timeout: 15)
            case .sigint: status = mount.signal(SIGINT)
            case .sigterm: status = mount.signal(SIGTERM)
            case .sigkill: status = mount.signal(SIGKILL)
            }
            #expect(status == (ending == .sigkill ? .signalled(SIGKILL) : .exited(0)), "daemon: \(String(describing: status))")
            #expect(mount.waitUntilUnmounted(timeout: 10), "still mounted; log:\n\(mount.log)")
            #expect(Processes.waitUntilGone(watchdog, timeout: 5), "the watchdog outlived the daemon")
            #expect(!mount.log.contains("mediafs-watchdog") || ending == .sigkill, "log:\n\(mount.log)")
            #expect(mount.teardownSteps.isEmpty)
        }
    }

    /// Many daemons killed while the processor is busy: every mount must go. Off by default (it
    /// loads both cores); MEDIAFS_STRESS=N runs N rounds. Without the watchdog, 1 round in 40 to 60
    /// left a dead mount on a loaded 2-core machine.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_STRESS"] != nil))
    func manyKilledDaemonsUnderLoadLeaveNoDeadMount() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["MEDIAFS_STRESS"] ?? "") ?? 40
        let burners = try (0..<2).map { _ in try ChildProcess(["/bin/sh", "-c", "while :; do :; done"]) }
        defer { burners.forEach { $0.kill9() } }
        var dead: [String] = []
        var byWatchdog = 0
        for round in 1...rounds {
            try Self.withMount("stress-\(round)") { mount in
                _ = try Command.run(["ls", mount.point], timeout: 10)
                _ = mount.signal(SIGKILL)
                if !mount.waitUntilUnmounted(timeout: 15) { dead.append("round \(round): \(mount.log)") }
                for watchdog in Processes.watchdogs(of: mount.point) { Processes.waitUntilGone(watchdog, timeout: 15) }
                if mount.log.contains("detached it") { byWatchdog += 1 }
            }
        }
        print("\(rounds) daemons killed; the watchdog removed \(byWatchdog) of the mounts (before libfuse's helper, or instead of it)")
        #expect(dead.isEmpty, "\(dead.count) of \(rounds) mounts stayed dead:\n\(dead.joined(separator: "\n"))")
    }
}
