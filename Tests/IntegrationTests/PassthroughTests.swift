import Foundation
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
    static let readers = #"""
    import mmap, os, sys
    src, mnt = sys.argv[1], sys.argv[2]
    a = open(src, "rb").read()
    files = [open(mnt, "rb") for _ in range(4)]
    for i, f in enumerate(files):
        f.seek(i * 100003)
        assert f.read(70001) == a[i * 100003:i * 100003 + 70001], i
    m = mmap.mmap(files[0].fileno(), 0, prot=mmap.PROT_READ)
    assert len(m) == len(a) and m[:] == a
    m.close()
    for f in files: f.close()
    for _ in range(3):
        with open(mnt, "rb") as f:
            assert f.read() == a
    print("ok")
    """#

    @Test(arguments: [true, false])
    func originalsReadWholeWithAndWithoutPassthrough(passthrough: Bool) throws {
        try LibraryMount.with("passthrough-\(passthrough)", arguments: passthrough ? [] : ["--no-passthrough"]) { library in
            for relative in ["feature-1080p.mp4", "clips/Holiday Café 2021.mp4"] {
                expectSuccess(try Command.python(Self.readers, [library.source + "/" + relative,
                                                                library.path(Library.original(relative))]), relative)
            }
            let log = try String(contentsOfFile: library.mount.logPath, encoding: .utf8)
            #expect(log.contains(Self.passthroughLine) == (passthrough && Self.passthroughPossible), "\(log)")
        }
    }
}
