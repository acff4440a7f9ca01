import Foundation
import Glibc

/// What tests through a mount check beyond the `TreeClient` calls: a file mapped into memory,
/// attributes as text, the mount's counters.
extension MountedTreeClient {
    /// The whole file at `relative` as `mmap` shows it (`MAP_PRIVATE`, read-only), as many bytes as
    /// `fstat` gives; empty for an empty file.
    public func mapped(_ relative: String) throws(CallError) -> [UInt8] {
        let fd = open(path(relative), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failed("open", relative) }
        defer { close(fd) }
        var st = Glibc.stat()
        guard fstat(fd, &st) == 0 else { throw failed("fstat", relative) }
        guard st.st_size > 0 else { return [] }
        guard let memory = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0), memory != MAP_FAILED else {
            throw failed("mmap", relative)
        }
        defer { munmap(memory, Int(st.st_size)) }
        return [UInt8](UnsafeRawBufferPointer(start: memory, count: Int(st.st_size)))
    }

    /// The value of the extended attribute `name` of `relative`, as text.
    public func attributeText(_ name: String, of relative: String) throws(CallError) -> String {
        String(decoding: try extendedAttribute(name, of: relative), as: UTF8.self)
    }

    /// The names of the extended attributes of `relative` (`llistxattr`).
    public func attributeNames(of relative: String) throws(CallError) -> [String] {
        let full = path(relative)
        while true {
            let size = Self.llistxattr(full, nil, 0)
            guard size >= 0 else { throw failed("listxattr", relative) }
            var list = [CChar](repeating: 0, count: size)
            let got = list.withUnsafeMutableBufferPointer { Self.llistxattr(full, $0.baseAddress, $0.count) }
            if got < 0 && errno == ERANGE { continue }  // grew between the two calls
            guard got >= 0 else { throw failed("listxattr", relative) }
            return list.prefix(got).split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
    }

    /// glibc's `llistxattr` (sys/xattr.h, which Swift's Glibc module does not import), found once.
    nonisolated(unsafe) private static let llistxattr: @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int = {
        guard let symbol = dlsym(nil, "llistxattr") else { fatalError("no llistxattr in the C library") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int).self)
    }()

    /// `user.mediafs.stats` of the mount's root, as numbers by name (the non-numbers left out).
    public func statistics() throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(try extendedAttribute("user.mediafs.stats", of: "")))
        return ((object as? [String: Any]) ?? [:]).compactMapValues { $0 as? Int }
    }

    /// The JSON object in the file at `relative`.
    public func json(_ relative: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(try read(relative)))
        guard let dictionary = object as? [String: Any] else { throw HarnessError("\(relative) holds no JSON object") }
        return dictionary
    }

    /// The names `relative` lists, in the folder's order (`readdir` alone, as `ls -U`: no entry
    /// is stat'ed, so no track file's pass runs), without `.` and `..`.
    public func names(_ relative: String) throws(CallError) -> [String] {
        guard let folder = opendir(path(relative)) else { throw failed("opendir", relative) }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw failed("readdir", relative) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// The names `relative` lists sorted as `ls` sorts them in the C locale (by bytes).
    public func sortedNames(_ relative: String) throws(CallError) -> [String] {
        try names(relative).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
