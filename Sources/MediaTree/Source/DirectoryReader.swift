import Glibc
import SystemPackage

/// Reads a folder of the source. The corresponding C functions are opendir, readdir and closedir.
enum DirectoryReader {
    /// The entries of the folder at `path`, without "." and "..": each name, as bytes (a name need
    /// not be UTF-8), and its `d_type` (`DT_DIR`, `DT_REG`, `DT_LNK`, or `DT_UNKNOWN` on file
    /// systems that do not say).
    /// - Throws: the `errno` of opendir.
    static func entries(of path: AbsolutePath) throws(Errno) -> [(name: Name, type: Int32)] {
        guard let dir = path.withCString({ opendir($0) }) else { throw Errno(rawValue: errno) }
        defer { closedir(dir) }
        var found: [(name: Name, type: Int32)] = []
        while let entry = readdir(dir) {
            let name = Name(bytes: withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) })
            if name.isComponent { found.append((name, Int32(entry.pointee.d_type))) }
        }
        return found
    }

    /// The names in the folder at `path`.
    static func names(of path: AbsolutePath) throws(Errno) -> [Name] {
        try entries(of: path).map(\.name)
    }
}
