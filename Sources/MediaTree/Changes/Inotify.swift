import Glibc
import SystemPackage

/// One inotify instance: the descriptor, its watches and its events. The one owner of the
/// descriptor, closed in `deinit`. The corresponding C functions are inotify_init1,
/// inotify_add_watch, inotify_rm_watch and read.
final class Inotify {
    /// One event: the watch it came from, what happened (`IN_*` bits) and the name in the watched
    /// folder ("" for the folder itself).
    struct Event: Equatable {
        var watch: Int32
        var mask: UInt32
        var name: Name

        func has(_ bits: Int32) -> Bool { mask & UInt32(bitPattern: bits) != 0 }
    }

    /// What mediafs watches in each source folder.
    static let folderEvents = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY
                                     | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW
                                     | IN_EXCL_UNLINK)

    let descriptor: Int32

    /// - Throws: the `errno` of inotify_init1 (EMFILE: the per-user limit of instances).
    init() throws(Errno) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Watches the folder at `path`; the watch's number (the same for a folder already watched).
    /// - Throws: the `errno` (ENOSPC: the per-user limit of watches is reached).
    func watch(_ path: AbsolutePath) throws(Errno) -> Int32 {
        let wd = path.withCString { inotify_add_watch(descriptor, $0, Self.folderEvents) }
        guard wd >= 0 else { throw Errno(rawValue: errno) }
        return wd
    }

    func unwatch(_ wd: Int32) {
        _ = inotify_rm_watch(descriptor, wd)
    }

    /// The events waiting now; empty when there are none (the descriptor does not block).
    func read() -> [Event] {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        let count = Glibc.read(descriptor, buffer, capacity)
        guard count > 0 else { return [] }
        var events: [Event] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
            let nameLength = Int(event.len)
            let start = (buffer + offset + header).assumingMemoryBound(to: UInt8.self)
            let name = Name(bytes: nameLength == 0 ? [] : Array(UnsafeBufferPointer(start: start, count: strnlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), nameLength))))
            events.append(Event(watch: event.wd, mask: event.mask, name: name))
            offset += header + nameLength
        }
        return events
    }
}
