import Foundation
import FuseBridge
import Glibc

/// A daemon's open file descriptors, as /proc/PID/fd shows them, and the check an orderly unmount
/// makes with them (after gocryptfs's tests/test_helpers/mount_unmount.go): the descriptors held
/// just before `fusermount3 -u`, by kind, against those held once the mount had answered its
/// first request.
///
/// Some kinds grow by design while a mount serves, and are allowed to, up to a bound taken from
/// the code that keeps them; every other kind must be back to its count at mount time:
///
/// | kind            | allowed beyond mount time | why                                                   |
/// |-----------------|---------------------------|-------------------------------------------------------|
/// | source file     | 2 × processors + 2        | decode sessions kept 30 s (2 per processor), files a  |
/// |                 |                           | probe opened kept 5 s for the work after it (2)        |
/// | cache database  | 10                        | GRDB's pool opens reader connections as reads overlap |
/// |                 |                           | and keeps them: up to 5, each the file and its WAL     |
/// | event loop      | 5                         | libdispatch's epoll, eventfd and up to 3 timerfds,     |
/// |                 |                           | made at the first timer, kept for the process's life   |
/// | pipe            | 2 × 16                    | libfuse's splice pipe, one per worker thread (16 at    |
/// |                 |                           | most), kept until an idle worker ends                  |
/// | anything else   | 0                         | /dev/fuse, sockets, inotify, files of the cache folder |
/// |                 |                           | (images, tracks), files elsewhere: nothing keeps these |
///
/// Waiting for the kept ones to go would add 30 s to every mount that made a thumbnail, and the
/// mount options have no way to keep none; counting kinds keeps the check exact where a leak can
/// be told from a cache (a file of the cache folder held after its release) and bounded where it
/// cannot (a source file held past its last close shows once more than the sessions can hold are).
public struct DaemonDescriptors: Sendable, CustomStringConvertible {
    /// What each descriptor names: a path, `pipe:[…]`, `socket:[…]`, `anon_inode:[…]`, `/dev/fuse`.
    public let targets: [Int32: String]

    /// The descriptors `pid` holds now (none once it is gone).
    public init(of pid: pid_t) {
        targets = Processes.descriptors(of: pid)
    }

    init(targets: [Int32: String]) {
        self.targets = targets
    }

    public var count: Int { targets.count }

    public var description: String {
        targets.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// A kind of descriptor, for the allowance (see the table above).
    public enum Kind: String, CaseIterable, Sendable {
        case sourceFile = "source file"
        case cacheDatabase = "cache database"
        case eventLoop = "event loop"
        case pipe
        case other = "other"

        /// How many more of this kind the daemon may hold than at mount time.
        public var allowance: Int {
            switch self {
            case .sourceFile: 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) + 2
            case .cacheDatabase: 10
            case .eventLoop: 5
            case .pipe: 2 * Int(MountOptions(fileSystemName: "").maxThreads)
            case .other: 0
            }
        }

        /// The kind of a descriptor naming `target`, for a mount of `source` (resolved).
        static func of(_ target: String, source: String) -> Kind {
            if target.hasPrefix(source + "/") { return .sourceFile }
            if ["probes.sqlite", "probes.sqlite-wal", "probes.sqlite-shm"].contains((target as NSString).lastPathComponent) {
                return .cacheDatabase
            }
            if ["anon_inode:[eventpoll]", "anon_inode:[eventfd]", "anon_inode:[timerfd]"].contains(target) { return .eventLoop }
            if target.hasPrefix("pipe:[") { return .pipe }
            return .other
        }
    }

    /// The kinds of which this set holds more than `baseline` did beyond their allowance, each with
    /// the descriptors of that kind that `baseline` did not hold (the leaked ones are among them).
    /// - Parameter source: the mount's source folder.
    public func excess(over baseline: DaemonDescriptors, source: String) -> [(kind: Kind, count: Int, new: [String])] {
        let root = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
        func byKind(_ set: DaemonDescriptors) -> [Kind: [Int32: String]] {
            Dictionary(grouping: set.targets) { Kind.of($0.value, source: root) }.mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0.value) }) }
        }
        let now = byKind(self)
        let then = byKind(baseline)
        return Kind.allCases.compactMap { kind in
            let held = now[kind] ?? [:]
            let before = then[kind] ?? [:]
            guard held.count > before.count + kind.allowance else { return nil }
            let new = held.filter { before[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return (kind, held.count - before.count, new)
        }
    }
}
