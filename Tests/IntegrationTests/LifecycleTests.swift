import Foundation
import FuseBridge
import Glibc
import MountLifecycle
import Testing
import TestSupport

/// Mounting and unmounting: the ways a mount ends (ExitStatusTests: the ways one fails to start).
@Suite struct LifecycleTests {
    /// How a test ends a mount.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case fusermount, fusermountLazy, sigint, sigterm
        var testDescription: String { rawValue }
    }

    @Test(.mounts, arguments: Ending.allCases)
    func endsCleanlyWhileALargeReadIsInFlight(_ ending: Ending) throws {
        let busy = ending != .fusermount
        try LibraryMount.with("end-\(ending.rawValue)", ending: .byTheTest, prepare: { source in
            // A large plain file (sparse in the source; read through the mount it is 512 MiB of bytes):
            // still being read when the mount ends, and read to its end within the bounds below
            // on a loaded machine (a lazy unmount's daemon ends once the reader has closed it).
            expectSuccess(try Command.run(["truncate", "-s", "512M", source + "/large.bin"]))
        }) { library in
            var reader: ChildProcess?
            if busy {
                let dd = try ChildProcess(["/bin/dd", "if=" + library.path("large.bin"), "of=/dev/null", "bs=4k"])
                reader = dd
                // In flight: a first MiB read through the mount, most of the file still to come.
                Wait.until(10) { !dd.isRunning || Processes.bytesRead(by: dd.pid) ?? 0 >= 1 << 20 }
                #expect(dd.isRunning, "the read ended before the mount did")
            }
            defer { reader?.kill9() }
            let status: TestSupport.ExitStatus?
            switch ending {
            case .fusermount:
                let result = try library.mount.unmount()
                expectSuccess(result.fusermount)
                status = result.daemon
            case .fusermountLazy:
                expectSuccess(try Command.run(["fusermount3", "-u", "-z", library.mount.point]))
                // The daemon ends once the reader has closed the file, so after its 512 MiB, read
                // as fast as the machine's load lets it (more than 15 s beside another test run).
                _ = reader?.wait(timeout: 120)
                status = library.mount.daemon.wait(timeout: 15)
            case .sigint:
                status = library.mount.signal(SIGINT)
            case .sigterm:
                status = library.mount.signal(SIGTERM)
            }
            #expect(status == .exited(0), "daemon: \(String(describing: status)); log:\n\(library.mount.log)")
            #expect(library.mount.waitUntilUnmounted(timeout: 10), "still mounted")
            if let reader {
                #expect(reader.wait(timeout: 15) != nil, "the reader hangs after the mount ended")
            }
        }
    }

    /// SIGKILL cannot be handled; libfuse's auto_unmount helper or our watchdog removes the mount,
    /// so no dead mount is left (WatchdogTests checks the watchdog alone).
    @Test(.mounts) func aKilledDaemonLeavesNoDeadMount() throws {
        try LibraryMount.with("sigkill", ending: .byTheTest) { library in
            // The daemon alone, as `kill -9 PID` does: libfuse's auto_unmount helper (a fusermount3)
            // and the watchdog (`mediafs watch-mount`, in a session of its own) survive it.
            #expect(library.mount.signal(SIGKILL) == .signalled(SIGKILL))
            let gone = library.mount.waitUntilUnmounted(timeout: 30)
            let helpers = gone ? "" : ((try? Command.run(["ps", "-eo", "pid,pgid,stat,args"]))?.stdout ?? "")
                .split(separator: "\n").filter { $0.contains("fusermount3") || $0.contains("watch-mount") }.joined(separator: "\n")
            #expect(gone, "still mounted 30 s after SIGKILL; helpers:\n\(helpers)\nlog:\n\(library.mount.log)")
            var st = stat()
            #expect(stat(library.mount.point, &st) == 0, "stat of the mount point: \(String(cString: strerror(errno)))")
            #expect(library.mount.teardownSteps.isEmpty)
        }
    }

    /// Without --foreground, `mediafs mount` returns once the mount answers; `mediafs unmount` ends it.
    @Test(.mounts) func backgroundMountAndUnmountCommand() throws {
        let folder = try TempFolder("background")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let point = try folder.makeFolder("mnt")
        let pidFile = folder.path("mediafs.pid")
        defer {
            if KernelMounts.isMountPoint(point) { _ = try? Command.run(["fusermount3", "-u", "-z", point]) }
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGKILL)
            }
        }
        // With no cache folder (''), which the daemon must get as it is, not as a path.
        let mounted = try Command.run([Mount.binary, "mount", "--pid-file", pidFile, "--log-file", folder.path("log"),
                                       "--cache-dir", "", source, point], timeout: 30)
        expectSuccess(mounted)
        #expect(KernelMounts.entries(at: point).contains { $0.fileSystemType == MountOptions.fileSystemType }, "not mounted on return")
        let pid = pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(pid > 0)
        if pid > 0 { Daemons.register(pid) }
        let daemonArguments = ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").split(separator: "\0", omittingEmptySubsequences: false)
        if let at = daemonArguments.firstIndex(of: "--cache-dir") {
            #expect(daemonArguments[at + 1] == "", "the daemon's --cache-dir: \(daemonArguments[at + 1])")
        } else {
            Issue.record("the daemon got no --cache-dir: \(daemonArguments)")
        }
        expectSuccess(try Command.run(["ls", point + "/feature-1080p.mp4"]))
        // Already mounted: a second mount on the same point is refused with a clear message and
        // the mount point's status (EX_CANTCREAT).
        let again = try Command.run([Mount.binary, "mount", source, point], timeout: 30)
        #expect(again.exitCode == 73 && again.stderr.contains("already a mount point"), "\(again)")

        expectSuccess(try Command.run([Mount.binary, "unmount", point], timeout: 30))
        #expect(!KernelMounts.isMountPoint(point))
        Wait.until(10) { pid <= 0 || !ChildProcess.isAlive(pid) }
        #expect(pid > 0 && !ChildProcess.isAlive(pid), "the daemon outlived its mount")
        let notMounted = try Command.run([Mount.binary, "unmount", point])
        #expect(notMounted.exitCode == 1 && notMounted.stderr.contains("is not mounted"), "\(notMounted)")
    }

    @Test func helpAndVersion() throws {
        for command in [["--help"], ["mount", "--help"], ["unmount", "--help"]] {
            let result = try Command.run([Mount.binary] + command)
            #expect(result.succeeded && result.stdout.contains("USAGE"), "\(command): \(result)")
        }
        // The version the build was given (the Makefile's scripts/version.sh), which the tests are
        // built with too; `unknown` without one.
        let given = ProcessInfo.processInfo.environment["MEDIAFS_VERSION"] ?? ""
        let expected = given.isEmpty ? "unknown" : given
        let version = try Command.run([Mount.binary, "--version"])
        #expect(version.succeeded && version.stdout == expected + "\n", "\(version)")
    }
}
