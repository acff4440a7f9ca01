import Foundation

/// One line of /proc/self/mountinfo.
public struct MountEntry: Sendable, CustomStringConvertible {
    /// "major:minor" of the mounted filesystem's device; for FUSE, major 0 and the minor is the
    /// connection number under /sys/fs/fuse/connections.
    public let device: String
    public let mountPoint: String
    public let options: String
    public let fileSystemType: String
    public let source: String

    /// The minor device number (the FUSE connection number).
    public var minor: Int? { device.split(separator: ":").last.flatMap { Int($0) } }

    public var description: String { "\(source) on \(mountPoint) type \(fileSystemType) (\(device), \(options))" }
}

/// What /proc/self/mountinfo says now.
public enum MountInfo {
    public static func entries() -> [MountEntry] {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 10, let separator = fields.firstIndex(of: "-"), separator + 2 < fields.count else { return nil }
            return MountEntry(device: fields[2], mountPoint: unescape(fields[4]), options: fields[5],
                              fileSystemType: fields[separator + 1], source: unescape(fields[separator + 2]))
        }
    }

    /// The entries mounted on `path` (the last one is on top).
    public static func entries(at path: String) -> [MountEntry] {
        entries().filter { $0.mountPoint == path }
    }

    public static func isMounted(_ path: String) -> Bool { !entries(at: path).isEmpty }

    /// Every fuse.mediafs mount whose mount point lies under `folder`.
    public static func mediafsMounts(under folder: String) -> [MountEntry] {
        entries().filter { $0.fileSystemType == "fuse.mediafs" && ($0.mountPoint == folder || $0.mountPoint.hasPrefix(folder + "/")) }
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
