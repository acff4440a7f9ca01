import Foundation
import Glibc
import Testing
import TestSupport

/// Originals read by the kernel straight from the source (FUSE passthrough, Linux 6.9 and later,
/// as root), and as before through the daemon with `--no-passthrough`: the same bytes either way,
/// also with several opens of one file at once, reopened, and mapped.
@Suite(.mounts) struct PassthroughTests {
    static let passthroughLine = "originals are read by the kernel directly (FUSE passthrough)"

    /// Whether this kernel and user can pass files through: Linux 6.9 or later, as root.
    static var passthroughPossible: Bool {
        guard geteuid() == 0 else { return false }
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let parts = release.split(separator: ".").prefix(2).compactMap { Int($0.prefix { $0.isNumber }) }
        return parts.count == 2 && (parts[0], parts[1]) >= (6, 9)
    }

    /// Opens at once, reopens (the second open of an unchanged file used to keep the page cache,
    /// which a passed-through file may not), reads at odd offsets and an mmap all see the source.
    static func checkReaders(source: String, mounted: String) throws {
        let a = Array(try Data(contentsOf: URL(fileURLWithPath: source)))
        let files = (0..<4).map { _ in open(mounted, O_RDONLY | O_CLOEXEC) }
        defer { files.filter { $0 >= 0 }.forEach { close($0) } }
        try #require(files.allSatisfy { $0 >= 0 }, "open: \(String(cString: strerror(errno)))")
        for (i, fd) in files.enumerated() {
            var buffer = [UInt8](repeating: 0, count: 70001)
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(i * 100003)) }
            let expected = a[min(i * 100003, a.count)..<min(i * 100003 + 70001, a.count)]
            #expect(got == expected.count && buffer.prefix(max(got, 0)) == expected, "open \(i)")
        }
        let memory = mmap(nil, a.count, PROT_READ, MAP_SHARED, files[0], 0)
        try #require(memory != nil && memory != MAP_FAILED, "mmap: \(String(cString: strerror(errno)))")
        #expect(Array(UnsafeRawBufferPointer(start: memory, count: a.count)) == a, "mmap")
        munmap(memory, a.count)
        let folder = (mounted as NSString).deletingLastPathComponent, name = (mounted as NSString).lastPathComponent
        for _ in 0..<3 { #expect(try MountedTreeClient(point: folder).read(name) == a, "read again") }
    }

    @Test(arguments: [true, false])
    func originalsReadWholeWithAndWithoutPassthrough(passthrough: Bool) throws {
        try LibraryMount.with("passthrough-\(passthrough)", arguments: passthrough ? [] : ["--no-passthrough"]) { library in
            for relative in ["feature-1080p.mp4", "clips/Holiday Café 2021.mp4"] {
                try Self.checkReaders(source: library.source + "/" + relative, mounted: library.path(Library.original(relative)))
            }
            let log = try String(contentsOfFile: library.mount.logPath, encoding: .utf8)
            #expect(log.contains(Self.passthroughLine) == (passthrough && Self.passthroughPossible), "\(log)")
        }
    }
}
