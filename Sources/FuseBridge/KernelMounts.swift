import Foundation

/// The mounts of this process's mount namespace, from /proc/self/mountinfo: the one reader of it
/// (the watchdog, and the CLI's checks of mount points).
public enum KernelMounts {
    /// One line of mountinfo, as far as mediafs needs it.
    public struct Entry: Equatable, Sendable {
        /// "major:minor" of the mounted file system's device; for FUSE, major 0 and the minor is
        /// the connection number, which no other mount has while this one exists.
        public let device: String
        public let mountPoint: String
        /// `fuse.mediafs`, `ext4`, …
        public let fileSystemType: String
    }

    /// Every mount, in the order they were made (empty if mountinfo cannot be read).
    public static func all() -> [Entry] {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            // Fields: id parent major:minor root point options [optional…] - type source super-options
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 4, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { return nil }
            return Entry(device: fields[2], mountPoint: unescape(fields[4]), fileSystemType: fields[dash + 1])
        }
    }

    /// The mounts on `path` (absolute and resolved, as the kernel writes it), in the order they
    /// were made: the last one is on top, the one a path lookup reaches.
    public static func entries(at path: String) -> [Entry] {
        all().filter { $0.mountPoint == path }
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes (`\040`).
    static func unescape(_ field: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(field.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "\\"), rest.count >= 3,
               let value = UInt8(String(decoding: rest.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
