import ArgumentParser
import Foundation
import MountLifecycle
import Glibc

/// `mediafs unmount MOUNTPOINT`: `fusermount3 -u`, which also ends the daemon.
struct UnmountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmount",
        abstract: "Unmount a mediafs mount; its daemon then exits.")

    @Flag(name: [.customShort("z"), .long], help: "Detach now even if files on the mount are open.")
    var lazy = false

    @Argument(help: "The folder mediafs is mounted on.")
    var mountpoint: String

    func run() throws {
        var st = stat()
        guard stat(mountpoint, &st) == 0 || errno == ENOTCONN else { throw CLIError(.failed, "'\(mountpoint)' does not exist") }
        // A dead mount (ENOTCONN) cannot be resolved; its path is taken as given.
        let path = MountPreflight.absolute(MountPreflight.resolve(mountpoint))
        guard MountTable.isMountPoint(path) else { throw CLIError(.failed, "'\(path)' is not mounted") }
        // fusermount3 says why it failed on this command's standard error; in a process group of
        // its own, holding nothing else of this process's.
        var spawn = Spawn("/bin/fusermount3", lazy ? ["-u", "-z", path] : ["-u", path])
        spawn.closesOtherDescriptors = true
        spawn.grouping = .newProcessGroup
        let status = try spawn.run()
        guard status == .exited(0) else {
            let how = if case .exited(let code) = status { "exited \(code)" } else { "\(status)" }
            throw CLIError(.failed, "could not unmount '\(path)' (fusermount3 \(how)); if it is busy, close the files open on it or use --lazy")
        }
    }
}
