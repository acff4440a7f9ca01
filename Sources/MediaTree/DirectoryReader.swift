import Glibc

/// Reads a folder of the source. The corresponding C functions are opendir, readdir and closedir.
enum DirectoryReader {
    /// The entries of the folder at `path`, without "." and "..": each name and its `d_type`
    /// (`DT_DIR`, `DT_REG`, `DT_LNK`, or `DT_UNKNOWN` on file systems that do not say).
    /// - Throws: the `errno` of opendir.
    static func entries(of path: String) throws(Errno) -> [(name: String, type: Int32)] {
        guard let dir = opendir(path) else { throw Errno(errno) }
        defer { closedir(dir) }
        var found: [(name: String, type: Int32)] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { found.append((name, Int32(entry.pointee.d_type))) }
        }
        return found
    }
}
