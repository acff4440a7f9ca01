import Foundation
import Glibc

/// The mounts of this process's mount namespace, from /proc/self/mountinfo: the one reader of it
/// (the watchdog, the CLI's checks of mount points, the tests' harness).
public enum KernelMounts {
    /// One line of mountinfo, as far as mediafs and its tests need it.
    public struct Entry: Equatable, Sendable, CustomStringConvertible {
        /// "major:minor" of the mounted file system's device; for FUSE, major 0 and the minor is
        /// the connection number, which no other mount has while this one exists.
        public let device: String
        /// Where it is mounted, unescaped.
        public let mountPoint: String
        /// The options of this mount point (`ro,nosuid,nodev,relatime`).
        public let options: String
        /// `fuse.mediafs`, `ext4`, …
        public let fileSystemType: String
        /// What is mounted, unescaped: for mediafs, its source folder (`fsname=`).
        public let source: String

        /// The minor number of `device`: for FUSE, the connection's number under
        /// /sys/fs/fuse/connections.
        public var minor: Int? { device.split(separator: ":").last.flatMap { Int($0) } }

        public var description: String { "\(source) on \(mountPoint) type \(fileSystemType) (\(device), \(options))" }
    }

    /// Every mount, in the order they were made (empty if mountinfo cannot be read).
    public static func all() -> [Entry] {
        guard let text = readToEnd("/proc/self/mountinfo") else { return [] }
        return entries(in: text)
    }

    /// A file's text read until `read` says its end. A procfs file says its size is 0 and gives a
    /// page at a time, so a reader that trusts the size (Foundation's `String(contentsOfFile:)`)
    /// gets the first page only: past about 30 mounts, the newest were missing.
    static func readToEnd(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }

    /// The mounts on `path` (absolute and resolved, as the kernel writes it), in the order they
    /// were made: the last one is on top, the one a path lookup reaches.
    public static func entries(at path: String) -> [Entry] {
        all().filter { $0.mountPoint == path }
    }

    /// Whether anything is mounted on `path` (absolute and resolved) now.
    public static func isMountPoint(_ path: String) -> Bool {
        !entries(at: path).isEmpty
    }

    /// The entries of mountinfo text; lines that do not have its shape are left out.
    static func entries(in text: String) -> [Entry] {
        text.split(separator: "\n").compactMap { line in
            // Fields: id parent major:minor root point options [optional…] - type source super-options
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 5, let dash = fields[6...].firstIndex(of: "-"), dash + 2 < fields.count else { return nil }
            return Entry(device: fields[2], mountPoint: unescape(fields[4]), options: fields[5],
                         fileSystemType: fields[dash + 1], source: unescape(fields[dash + 2]))
        }
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
