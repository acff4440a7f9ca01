import Glibc
import SystemPackage

/// A source file opened for bounded reads at offsets: the one owner of its descriptor, closed in
/// `deinit`.
///
/// The container readers (Matroska, QuickTime) never read a whole file: they read headers and the
/// few elements they need, each read bounded by `maximumRead` and by `length`.
final class FileReader {
    let path: FilePath
    /// The bytes of the file that reads may reach: the size the caller saw, or the file's size
    /// from `fstat` when the caller gave none.
    let length: Int64
    private let descriptor: Int32

    /// The largest single read a reader may ask for (64 MiB): a bound on memory whatever a damaged
    /// or hostile file claims.
    static let maximumRead = 64 << 20

    /// Opens `path` read-only, by its bytes.
    /// - Parameter length: the file's size as the caller saw it; nil or negative to ask `fstat`.
    /// - Throws: `MediaError.io` if the file cannot be opened or stat'ed.
    /// The corresponding C functions are `open` and `fstat`.
    init(path: FilePath, length: Int64? = nil) throws {
        let (fd, size) = try Self.open(path)
        self.path = path
        self.descriptor = fd
        self.length = length.flatMap { $0 >= 0 ? $0 : nil } ?? size
    }

    /// A descriptor of `path` opened read-only (by its bytes), the caller its owner, and the
    /// file's size.
    /// - Throws: `MediaError.io` if the file cannot be opened or stat'ed.
    /// The corresponding C functions are `open` and `fstat`.
    static func open(_ path: FilePath) throws -> (descriptor: Int32, size: Int64) {
        let fd = path.withPlatformString { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw MediaError.io(function: "open", code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw MediaError.io(function: "fstat", code: code)
        }
        return (fd, Int64(info.st_size))
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset`; fewer only where `length` ends first.
    /// - Throws: `MediaError.damaged` if `count` is over `maximumRead` or negative; `.unreadable`
    ///   if `pread` fails or the file ends before `length` (it was cut while being read).
    /// The corresponding C function is `pread`.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard count >= 0, count <= FileReader.maximumRead else {
            throw MediaError.damaged(reason: "a read of \(count) bytes at \(offset) is over the bound of \(FileReader.maximumRead)")
        }
        guard offset >= 0, offset < length else { return [] }
        let wanted = Int(min(Int64(count), length - offset))
        switch PositionalRead.read(descriptor, offset: offset, count: wanted) {
        case .success(let bytes):
            guard bytes.count == wanted else {
                throw MediaError.unreadable(ReadFault(offset: offset + Int64(bytes.count), kind: .shrunk(size: length)))
            }
            return bytes
        case .failure(let failure):
            throw MediaError.unreadable(ReadFault(offset: offset, kind: .failed(errno: failure.code)))
        }
    }

    /// Exactly `count` bytes from `offset`.
    /// - Throws: `MediaError.damaged` naming `what` when the file ends first.
    func readExactly(at offset: Int64, count: Int, what: String) throws -> [UInt8] {
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw MediaError.damaged(reason: "\(what) at \(offset) (\(count) bytes) goes past the end of the file (\(length) bytes)")
        }
        return bytes
    }
}
