/// Which file names are worth probing as media. Anything else passes through unprobed.
enum MediaNames {
    static let extensions: Set<String> = [
        // video
        "mp4", "m4v", "mov", "qt", "mkv", "webm", "avi", "mpg", "mpeg", "m2v", "vob", "ts", "m2ts", "mts",
        "wmv", "asf", "flv", "ogv", "3gp", "3g2", "mxf", "divx", "rm", "rmvb", "f4v",
        // audio that may carry chapters or cover art
        "m4a", "m4b", "mka", "mp3", "flac", "ogg", "oga", "opus", "wav", "aac", "wma", "ac3", "dts",
    ]

    static func isCandidate(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
