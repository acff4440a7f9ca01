/// Which file names are worth probing as media. Anything else passes through unprobed.
enum MediaNames {
    static let extensions: Set<String> = [
        // video
        "mp4", "m4v", "mov", "qt", "mkv", "webm", "avi", "mpg", "mpeg", "m2v", "vob", "ts", "m2ts", "mts",
        "wmv", "asf", "flv", "ogv", "3gp", "3g2", "mxf", "divx", "rm", "rmvb", "f4v",
        // audio that may carry chapters or cover art
        "m4a", "m4b", "mka", "mp3", "flac", "ogg", "oga", "opus", "wav", "aac", "wma", "ac3", "dts",
    ]

    /// Whether a file called `name` is one to probe: its extension (after the last dot, not a
    /// leading one) is a media extension, in any case.
    static func isCandidate(_ name: Name) -> Bool {
        guard let dot = name.bytes.lastIndex(of: 0x2E), dot != 0 else { return false }
        let ext = name.bytes[(dot + 1)...]
        guard ext.count <= 5, ext.allSatisfy({ $0 < 0x80 }) else { return false }
        return extensions.contains(String(decoding: ext, as: UTF8.self).lowercased())
    }
}
