import CSpawn
import Glibc

/// A process of our own that removes the mount when the daemon has died and left it dead.
///
/// libfuse's `auto_unmount` helper (a `fusermount3` waiting on a socket to the daemon) usually
/// does this, but not always. When the socket closes, it opens the mount point and unmounts only
/// if that fails with ENOTCONN. The kernel releases a dying process's files in an order nobody
/// controls: if the socket goes before /dev/fuse, the helper's open reaches a connection that is
/// still up, its OPENDIR is queued, and when the last /dev/fuse reference goes the connection is
/// aborted and the open fails with ECONNABORTED instead; the helper then exits and the mount stays,
/// dead ("Transport endpoint is not connected"). The watchdog keeps looking until the outcome is
/// known (`watch`).
///
/// It is this same executable run again with the hidden subcommand `subcommand`, in a session of
/// its own, holding nothing of the daemon's but the read end of a pipe whose write end only the
/// daemon holds: end of file on it means the daemon has ended, however it ended. It must not
/// hold /dev/fuse (nor the helper's socket): a connection with its device still open never dies,
/// and every process reading the mount would hang.
public enum MountWatchdog {
    /// The mediafs subcommand that runs `watch` (not shown in the help).
    public static let subcommand = "watch-mount"
    /// How long the watchdog keeps looking once the daemon has ended, in seconds.
    public static let bound: Double = 10

    /// Starts the watchdog for the mount of type `fileSystemType` just made on `mountpoint`
    /// (absolute and resolved): runs `executable` (the mediafs program) as
    /// `watch-mount --fd 3 --device MAJ:MIN MOUNTPOINT`.
    ///
    /// The pipe's write end stays open in this process, close-on-exec and unused, until the
    /// process ends; the watchdog's output goes to this process's standard error when that is a
    /// file (a log file), else to /dev/null, never to a terminal.
    /// - Returns: the watchdog's process id.
    /// - Throws: `WatchdogError` when the mount is not in /proc/self/mountinfo, no pipe can be
    ///   made or the program cannot be started.
    static func start(executable: String, mountpoint: String, fileSystemType: String) throws(WatchdogError) -> pid_t {
        guard let mount = KernelMounts.entries(at: mountpoint).last, mount.fileSystemType == fileSystemType else {
            throw WatchdogError.unavailable("no \(fileSystemType) mount on \(mountpoint) in /proc/self/mountinfo")
        }
        var fds: [Int32] = [0, 0]
        guard cspawn_pipe2(&fds, O_CLOEXEC) == 0 else {
            throw WatchdogError.unavailable("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        defer { close(fds[0]) }
        do throws(SpawnError) {
            return try spawn(executable: executable, device: mount.device, mountpoint: mountpoint, pipe: fds[0]).start()
        } catch {
            close(fds[1])
            throw WatchdogError.cannotStart(error)
        }
    }

    /// How the watchdog is started: set apart from the daemon, holding only the read end of the
    /// pipe (as 3), /dev/null (as 0 and 1) and as 2 the daemon's standard error if that is a file
    /// (the log), else /dev/null; every other descriptor is closed in it, close-on-exec or not. It
    /// leads a session of its own (signals to the daemon's group or terminal do not reach it),
    /// runs in `/`, blocks no signal and has SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGALRM at their
    /// defaults (the daemon blocks the first three for its `sigwait`). Nobody waits for it: it is
    /// reaped after the daemon ends, by whoever inherits it.
    static func spawn(executable: String, device: String, mountpoint: String, pipe readEnd: Int32) -> Spawn {
        var spawn = Spawn(executable, [subcommand, "--fd", "3", "--device", device, mountpoint], argv0: "mediafs")
        spawn.standardInput = .null
        spawn.standardOutput = .null
        spawn.standardError = isFile(STDERR_FILENO) ? .descriptor(STDERR_FILENO) : .null
        spawn.passing = [readEnd]
        spawn.closesOtherDescriptors = true
        spawn.grouping = .newSession
        spawn.unblocksAllSignals = true
        spawn.defaultSignals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM]
        spawn.workingDirectory = "/"
        return spawn
    }

    private static func isFile(_ fd: Int32) -> Bool {
        var st = stat()
        return fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
    }
}

/// Why a mount's watchdog could not be started (the mount keeps libfuse's auto_unmount helper).
public enum WatchdogError: Error, Sendable, CustomStringConvertible {
    /// The mount is not in /proc/self/mountinfo, or no pipe could be made.
    case unavailable(String)
    /// The program could not be started.
    case cannotStart(SpawnError)

    public var description: String {
        switch self {
        case .unavailable(let reason): "no watchdog for the mount: \(reason)"
        case .cannotStart(let error): "no watchdog for the mount: \(error)"
        }
    }
}
