/// The options a mediafs mount is made with, as libfuse arguments.
public struct MountOptions: Sendable, Equatable {
    /// Shown as the mount's source in `mount` and /proc/mounts.
    public var fileSystemName: String
    /// Options the user gave with `-o`, passed to libfuse as they are (`allow_other`, …).
    public var extra: [String]
    /// Worker threads libfuse may run at most.
    public var maxThreads: UInt32 = 16

    public init(fileSystemName: String, extra: [String] = []) {
        self.fileSystemName = fileSystemName
        self.extra = extra
    }

    /// What every mediafs mount has: read-only, permissions checked by the kernel, and removed by
    /// libfuse's helper if the daemon dies (with `MountWatchdog` for when that helper loses its race).
    static let fixed = ["ro", "default_permissions", "auto_unmount", "subtype=mediafs"]

    /// The type /proc/self/mountinfo shows for a mediafs mount (`fuse.` and the subtype).
    public static let fileSystemType = "fuse.mediafs"

    /// The argument vector for `fuse_session_new`.
    var arguments: [String] {
        let options = Self.fixed + ["fsname=" + Self.escape(fileSystemName)] + extra
        return ["mediafs", "-o", options.joined(separator: ",")]
    }

    /// Escapes `,` and `\` the way libfuse's option parser reads them back.
    static func escape(_ value: String) -> String {
        var escaped = ""
        for character in value {
            if character == "," || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
