import Foundation

/// What /proc/self/mountinfo says about mount points.
enum MountTable {
    /// Whether `path` (absolute, resolved) is a mount point now.
    static func isMountPoint(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && unescape(String(fields[4])) == path
        }
    }

    /// The file system type (`fuse.mediafs`, `ext4`, …) of the mount holding `path` (absolute,
    /// resolved): the last-mounted of the longest mount points that contain it.
    static func fileSystemType(containing path: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        var best: (point: String, type: String)?
        for line in text.split(separator: "\n") {
            // Fields: id parent major:minor root point options [optional…] - type source super-options
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count > 4, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            let point = unescape(fields[4])
            let contains = point == "/" || path == point || path.hasPrefix(point + "/")
            if contains && point.count >= (best?.point.count ?? -1) { best = (point, fields[dash + 1]) }
        }
        return best?.type
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes (`\040`).
    static func unescape(_ field: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(field.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.count >= 3,
               let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
