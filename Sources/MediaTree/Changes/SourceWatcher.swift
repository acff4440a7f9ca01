import Foundation
import Glibc
import SystemPackage
import Logging
import Synchronization

/// Watches every folder of the source with inotify, on a thread of its own, and hands each batch
/// of changes (coalesced by `ChangeBatcher`) to `report`, on that thread.
///
/// Folders are watched from the root down when the thread starts, and new folders as they come
/// (created, or moved in). A lost record of events (the kernel's queue overflowed) is reported as
/// "everything may have changed", and the folders are walked again. When the per-user limit of
/// watches is reached (ENOSPC), one warning is logged and the folders not watched are seen only as
/// the tree's own checks of the source see them (`watchesEverything` is then false).
///
/// `@unchecked`: its `var`s are the watcher thread's alone; other threads touch only atomics.
final class SourceWatcher: @unchecked Sendable {
    private let root: String
    private let logger: Logger
    private let report: @Sendable (SourceChanges) -> Void
    private let inotify: Inotify
    /// A pipe whose write end `stop()` writes to, waking the thread's `poll`.
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled once the folders there were at the start are watched.
    private let watching = DispatchSemaphore(value: 0)
    private let limitReached = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    // Touched by the watcher's thread only.
    private var folders: [SourcePath: Int32] = [:]
    private var watches: [Int32: SourcePath] = [:]
    private var batcher: ChangeBatcher

    /// - Parameter root: the source folder's absolute path, with links resolved.
    /// - Throws: `Errno` when no inotify instance or pipe can be made.
    init(root: String, logger: Logger, batcher: ChangeBatcher = ChangeBatcher(),
         report: @escaping @Sendable (SourceChanges) -> Void) throws(Errno) {
        self.root = root
        self.logger = logger
        self.report = report
        self.batcher = batcher
        inotify = try Inotify()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Errno(rawValue: errno) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Whether every folder of the source is watched (no watch limit was reached).
    var watchesEverything: Bool { !limitReached.load(ordering: .relaxed) }

    /// Starts the thread; it first watches the folders there are, then waits for events.
    func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "mediafs-watch"
        thread.start()
    }

    /// Ends the thread and waits for it: once this returns, `report` is not called again.
    func stop() {
        guard started.load(ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
    }

    /// Waits until the folders there were at the start are watched (at most `seconds`); whether
    /// they are. Changes made after that are all reported.
    func waitUntilWatching(seconds: Double) -> Bool {
        guard watching.wait(timeout: .now() + seconds) == .success else { return false }
        watching.signal()
        return true
    }

    private func run() {
        watchTree(from: .root)
        watching.signal()
        var polled = [pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let timeout = batcher.nextDue.map { Int32(max(0, ($0 - Self.now()) * 1000).rounded(.up)) } ?? -1
            let ready = poll(&polled, 2, timeout)
            if ready < 0 && errno != EINTR {
                logger.error("watching the source stopped: poll: \(String(cString: strerror(errno)))")
                return
            }
            if polled[1].revents != 0 { return }
            if polled[0].revents != 0 {
                // A bounded drain: under steady traffic (a library being copied in) the batches
                // that are due still go out, at the latest a second after their first event.
                var events = inotify.read()
                var reads = 0
                while !events.isEmpty {
                    let now = Self.now()
                    for event in events { handle(event, at: now) }
                    reads += 1
                    if reads >= 16 || batcher.nextDue.map({ $0 <= now }) == true { break }
                    events = inotify.read()
                }
            }
            let batch = batcher.take(at: Self.now())
            if !batch.isEmpty { report(batch) }
        }
    }

    private func handle(_ event: Inotify.Event, at now: Double) {
        if event.has(IN_Q_OVERFLOW) {
            logger.notice("the source's change events overflowed the kernel's queue: everything is looked at again")
            batcher.noteEverything(at: now)
            watchTree(from: .root)
            return
        }
        if event.has(IN_IGNORED) {
            if let rel = watches.removeValue(forKey: event.watch), folders[rel] == event.watch { folders[rel] = nil }
            return
        }
        guard let folder = watches[event.watch] else { return }
        guard !event.name.bytes.isEmpty else {
            // The folder itself: its own name is reported by its parent's watch, except the root's.
            if folder.isRoot && (event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF)) {
                logger.warning("the source folder \(root) was removed or moved")
                batcher.noteEverything(at: now)
            }
            return
        }
        let rel = folder.appending(event.name)
        if event.has(IN_ISDIR) {
            if event.has(IN_MOVED_FROM) || event.has(IN_DELETE) { unwatchTree(at: rel) }
            if event.has(IN_CREATE) || event.has(IN_MOVED_TO) { watchTree(from: rel) }
        }
        batcher.note(rel, at: now)
    }

    /// Watches the folder at `start` and every folder under it (not through links).
    private func watchTree(from start: SourcePath) {
        var stack = [start]
        while let rel = stack.popLast() {
            let path = AbsolutePath(bytes: rel.isRoot ? Array(root.utf8) : Array(root.utf8) + [0x2F] + rel.bytes)
            do {
                let wd = try inotify.watch(path)
                watches[wd] = rel
                folders[rel] = wd
            } catch let error where error == .noSpace {
                if !limitReached.exchange(true, ordering: .relaxed) {
                    logger.warning("""
                        the inotify watch limit is reached (sysctl fs.inotify.max_user_watches): changes in folders \
                        of \(root) not watched are seen within the kernel's cache time only
                        """)
                }
                return
            } catch {
                continue  // gone meanwhile, or not readable: nothing to show in it either
            }
            stack += Self.subfolders(of: path).map { rel.appending($0) }
        }
    }

    /// Stops watching `rel` and the folders under it (moved away or removed).
    private func unwatchTree(at rel: SourcePath) {
        for (folder, wd) in folders where folder.isWithin(rel) {
            folders[folder] = nil
            watches[wd] = nil
            inotify.unwatch(wd)
        }
    }

    /// The names of the folders in the folder at `path` (symbolic links are not followed).
    private static func subfolders(of path: AbsolutePath) -> [Name] {
        ((try? DirectoryReader.entries(of: path)) ?? []).filter { entry in
            guard entry.type == DT_UNKNOWN else { return entry.type == DT_DIR }
            var st = stat()
            return AbsolutePath(bytes: path.bytes + [0x2F] + entry.name.bytes).withCString { lstat($0, &st) } == 0
                && (st.st_mode & S_IFMT) == S_IFDIR
        }.map(\.name)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
