import Foundation
import Glibc
import Testing
import TestSupport

/// Every name of the source is shown byte for byte (issue 18): a video, a plain file and a folder
/// whose names are not UTF-8 (Latin-1, as copied from an old Windows or Samba share) are listed
/// with their exact bytes, read and browsed; `info.json` names the file escaped, with its bytes.
@Suite(.mounts) struct ByteNamesTests {
    @Test func namesThatAreNotUTF8AreListedReadAndBrowsed() throws {
        let folder = try TempFolder("byte-names")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let made = folder.path("made.mp4")
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240:r=10:d=3",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", made,
        ], timeout: 60), "ffmpeg")
        let video = Array("bad".utf8) + [0xFF] + Array(".mp4".utf8)
        let plain = Array("plain".utf8) + [0xE9] + Array(".txt".utf8)
        let subfolder = Array("dir".utf8) + [0xE9]
        let inner = Array("inner".utf8) + [0xE0] + Array(".mp4".utf8)
        let film = Array(try Data(contentsOf: URL(fileURLWithPath: made)))
        let src = BytePath(source)
        #expect(src.appending(video).write(film))
        #expect(src.appending(plain).write(Array("caf".utf8) + [0xE9, 0x0A]))
        #expect(src.appending(subfolder).makeFolder())
        #expect(src.appending(subfolder).appending(inner).write(film))

        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { mount in
            let mnt = BytePath(mount.point)
            #expect(mnt.names() == [video, plain, subfolder].sorted { $0.lexicographicallyPrecedes($1) })
            #expect(mnt.appending(plain).read() == src.appending(plain).read())
            #expect(mnt.appending(subfolder).names() == [inner], "inner\\xe0.mp4")
            let folder = mnt.appending(video)
            #expect(folder.isFolder, "the video behind a Latin-1 name is a media folder")
            #expect(folder.appending(video).read() == film)
            let info = try #require(folder.appending(Array("info.json".utf8)).read())
            let json = try #require(try JSONSerialization.jsonObject(with: Data(info)) as? [String: Any])
            #expect(json["file"] as? String == "bad\\xFF.mp4")
            #expect(json["file_bytes"] as? [Int] == video.map(Int.init))
            let png = try #require(folder.appending(Array("thumbs/at-1s.png".utf8)).read())
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.suffix(8) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
            #expect(mnt.appending(subfolder).appending(inner).isFolder)
        }
    }
}

/// A path as bytes, for names that are not UTF-8 (a Swift `String` cannot hold them as they are).
struct BytePath {
    let bytes: [UInt8]

    init(_ path: String) { bytes = Array(path.utf8) }
    private init(bytes: [UInt8]) { self.bytes = bytes }

    func appending(_ name: [UInt8]) -> BytePath { BytePath(bytes: bytes + [UInt8(ascii: "/")] + name) }

    private func withPath<T>(_ body: (UnsafePointer<CChar>) -> T) -> T {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    var isFolder: Bool {
        var st = stat()
        return withPath { stat($0, &st) } == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// The names the folder lists, sorted by bytes.
    func names() -> [[UInt8]] {
        guard let folder = withPath({ opendir($0) }) else { return [] }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The whole file, or nil when it cannot be read.
    func read() -> [UInt8]? {
        let fd = withPath { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += buffer[0..<count]
        }
    }

    func write(_ content: [UInt8]) -> Bool {
        let fd = withPath { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return content.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == content.count
    }

    func makeFolder() -> Bool { withPath { mkdir($0, 0o755) } == 0 }
}
