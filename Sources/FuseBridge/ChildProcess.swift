import CFuse
import Glibc

/// Runs helper programs: waited for (`run`), or started and left running on their own (`spawn`).
enum ChildProcess {
    /// Runs `path` with `arguments`, its output discarded; the exit status, or -1 if it could not start.
    /// The corresponding C function is posix_spawn.
    static func run(_ path: String, _ arguments: [String]) -> Int32 {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, Glibc.environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Starts `path` with `arguments` set apart from this process, and returns without waiting;
    /// `name` (default: `path`) is its argv[0].
    ///
    /// The child leads a session of its own (signals to this process's group or terminal do not
    /// reach it), runs in `/`, blocks no signal and has SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGALRM
    /// at their defaults. It holds only the descriptors given: `passing` as its descriptor 3 and
    /// `standardError` (if any) as its 2; 0 and 1 are /dev/null, and every other descriptor of this
    /// process is closed in it, whatever its close-on-exec flag. Nobody waits for it: it is reaped
    /// after this process ends, by whoever inherits it.
    /// - Returns: its process id.
    /// - Throws: `FuseError.cannotStart` with the error posix_spawn gave.
    /// The corresponding C functions are posix_spawn and posix_spawn_file_actions_addclosefrom_np.
    static func spawn(_ path: String, named name: String? = nil, _ arguments: [String], passing fd: Int32,
                      standardError: Int32?) throws(FuseError) -> pid_t {
        let argv = ([name ?? path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Each dup2 clears close-on-exec on its copy (glibc does so even for dup2(3, 3)); then
        // everything above 3 is closed.
        posix_spawn_file_actions_adddup2(&actions, fd, 3)
        if let standardError {
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        cfuse_spawn_addclosefrom(&actions, 4)
        cfuse_spawn_addchdir(&actions, "/")

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
                                                    | Int32(CFUSE_POSIX_SPAWN_SETSID)))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, Glibc.environ)
        guard result == 0 else { throw FuseError.cannotStart(program: path, code: result) }
        return pid
    }
}
