import Foundation
import FuseBridge

/// A failure the user can act on: printed as "mediafs: MESSAGE" (`MediaFS.main`), the process then
/// exiting with the status of its kind.
struct CLIError: Error, CustomStringConvertible {
    /// What failed. Each kind has its own exit status (`status`), so that scripts, systemd and
    /// mount(8)'s helper (mount-scripts/mount.mediafs) can tell them apart without reading the
    /// message.
    enum Kind: String, CaseIterable, Sendable {
        /// A failure none of the others names: an unmount refused, files `warm` could not make, a
        /// cache folder that cannot be opened.
        case failed
        /// The kernel or fusermount3 refused the mount (`fuse_session_mount` failed).
        case mountRefused
        /// A bad option or argument: what swift-argument-parser rejects, a malformed `-o` list, or
        /// an `-o` option libfuse does not know.
        case usage
        /// The source is missing, unreadable or not a folder.
        case source
        /// No usable /dev/fuse.
        case fuseDevice
        /// The daemon ended before the mount answered, without saying why (it crashed, or was killed).
        case daemonEnded
        /// No pipe, no process: the daemon could not be started.
        case system
        /// The mount point is missing, not a folder, not empty, already a mount (or a dead one), or
        /// overlaps the source.
        case mountPoint
        /// The mount did not answer within `--mount-timeout`; the daemon was stopped.
        case noAnswer
    }

    let kind: Kind
    let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { message }
}

extension CLIError.Kind {
    /// The exit status, the one place it is chosen: sysexits(3)'s code where one says it, as
    /// swift-argument-parser's 64 (`EX_USAGE`, its status for every option it rejects) already
    /// does; mount(8)'s 32 for a mount the kernel refused, which sysexits has no word for; 1, what
    /// the parser gives any other error, for the rest. Never 0, and below 126 (the shell's).
    var status: Int32 {
        switch self {
        case .failed: 1
        case .mountRefused: 32  // mount(8): mount failure
        case .usage: 64  // EX_USAGE
        case .source: 66  // EX_NOINPUT: an input file did not exist or was not readable
        case .fuseDevice: 69  // EX_UNAVAILABLE: a service or file it needs is unavailable
        case .daemonEnded: 70  // EX_SOFTWARE: an internal software error
        case .system: 71  // EX_OSERR: cannot fork, cannot make a pipe
        case .mountPoint: 73  // EX_CANTCREAT: the output (here the mount) cannot be made
        case .noAnswer: 75  // EX_TEMPFAIL: may work if tried again
        }
    }

    /// What the status says, for `--help` (each line within 80 columns, where the help wraps).
    var meaning: String {
        switch self {
        case .failed: "any other failure (of unmount, warm or cache, say)"
        case .mountRefused: "the kernel or fusermount3 refused the mount"
        case .usage: "a bad option or argument (also an -o option libfuse rejects)"
        case .source: "the source is missing, unreadable or not a folder"
        case .fuseDevice: "no usable /dev/fuse"
        case .daemonEnded: "the daemon ended before the mount answered"
        case .system: "the daemon could not be started (no pipe, no process)"
        case .mountPoint: "the mount point is missing, not empty, already mounted or in the source"
        case .noAnswer: "the mount did not answer within --mount-timeout (the daemon is stopped)"
        }
    }

    /// The statuses and their meanings, by status, as `--help` shows them.
    static var helpTable: String {
        let rows = allCases.sorted { $0.status < $1.status }.map { kind in
            let status = String(kind.status)
            return String(repeating: " ", count: 3 - status.count) + status + "  " + kind.meaning
        }
        return (["  0  success"] + rows).joined(separator: "\n")
    }
}

extension CLIError {
    /// What a mount's `FuseError` says failed: libfuse rejecting the options is the user's (an
    /// `-o` option it does not know), the kernel refusing the mount is the mount's.
    init(_ error: FuseError) {
        switch error {
        case .badOptions: self.init(.usage, "\(error)")
        case .mountFailed: self.init(.mountRefused, "\(error)")
        case .loopFailed: self.init(.failed, "\(error)")
        }
    }

    /// The line the background daemon sends on its ready pipe when it fails (`ReadyPipe`), which
    /// the command that started it reads back with `init(readyLine:)`: "failed KIND: MESSAGE".
    var readyLine: String { "failed \(kind.rawValue): \(message)" }

    /// The failure a daemon's ready line tells; nil for a line that is no failure.
    init?(readyLine line: String) {
        guard line.hasPrefix("failed") else { return nil }
        let rest = line.dropFirst("failed".count)
        guard let colon = rest.firstIndex(of: ":") else {
            self.init(.failed, String(rest))
            return
        }
        let word = rest[..<colon].trimmingCharacters(in: .whitespaces)
        let message = rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        self.init(Kind(rawValue: word) ?? .failed, message)
    }

    /// Prints "mediafs: MESSAGE" on standard error and ends the process with the kind's status.
    func exit() -> Never {
        FileHandle.standardError.write(Data("mediafs: \(message)\n".utf8))
        Foundation.exit(kind.status)
    }
}
