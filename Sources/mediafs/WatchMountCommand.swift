import ArgumentParser
import Foundation
import FuseBridge
import Logging
import MountLifecycle

/// `mediafs watch-mount --fd N --device MAJ:MIN MOUNTPOINT`: the mount's watchdog, started by the
/// daemon right after mounting (`MountWatchdog`); not for users, and not shown in the help.
/// Exits 0 once the daemon has ended and its mount is known not to be left dead, else 1.
struct WatchMountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: MountWatchdog.subcommand,
        abstract: "Remove the mount if its daemon dies and leaves it dead (started by the daemon).",
        shouldDisplay: false)

    /// The read end of the pipe whose write end only the daemon holds.
    @Option(help: .private)
    var fd: Int32

    /// The mount's device, as /proc/self/mountinfo writes it.
    @Option(help: .private)
    var device: String

    @Argument(help: .private)
    var mountpoint: String

    func validate() throws {
        let parts = device.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            throw ValidationError("--device must be MAJOR:MINOR (not '\(device)')")
        }
        guard mountpoint.hasPrefix("/") else { throw ValidationError("the mount point must be an absolute path") }
    }

    func run() throws {
        // Started through /proc/self/exe, it would show in ps and top as "exe".
        try? "mediafs-watch".write(toFile: "/proc/self/comm", atomically: false, encoding: .utf8)
        let outcome = MountWatchdog.watch(daemonPipe: fd, device: device, fileSystemType: MountOptions.fileSystemType,
                                          mountpoint: mountpoint)
        if outcome != .gone {
            LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
            let logger = Logger(label: "mediafs-watchdog")
            let message: Logger.Message = "the daemon of \(mountpoint) has ended; \(outcome)"
            if outcome.succeeded { logger.notice(message) } else { logger.error(message) }
        }
        if !outcome.succeeded { throw ExitCode(CLIError.Kind.failed.status) }
    }
}
