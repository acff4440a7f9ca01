import CFuse
import Dispatch
import Foundation
import Logging
import MediaTree
import Synchronization

/// What the libfuse callbacks reach through the session's userdata: the tree by number (its node
/// table counts the kernel's lookups), the queue that does the tree's work, and the count of
/// requests not yet answered.
///
/// Callbacks that may wait on the tree (a probe, a listing) hand their request to `work` and
/// return at once, so libfuse's threads stay free to answer `ls` and reads of other files.
public final class FuseFileSystem: Sendable {
    public struct Timeouts: Sendable {
        /// Seconds the kernel may keep a name → inode answer.
        public var entry: Double = 1
        /// Seconds the kernel may keep attributes.
        public var attributes: Double = 1
        public init() {}
        /// Both times set to `seconds`.
        public init(seconds: Double) {
            entry = seconds
            attributes = seconds
        }
    }

    let tree: MediaTree
    let numbered: NumberedTree
    let logger: Logger
    let timeouts: Timeouts
    /// The buffers readdir replies are built in.
    let replyBuffers = ReplyBuffers()
    /// Open files and folders, by the number the kernel holds for each.
    let handles = OpenHandles()
    /// Originals read by the kernel itself, where it can.
    let passthrough: Passthrough
    /// Tells the kernel what source changes made stale; give it to `MediaTree.watchSource(reportingTo:)`.
    public let notifier: KernelNotifier
    /// Runs requests that may block on the tree (a probe, a listing). Threads of its own, more than
    /// the cores: a slow probe holds one, never libfuse's loop; images are made on the tree's own
    /// generation pool, so these threads only wait for probes and the disk.
    let work = WorkerPool(name: "mediafs-request", threads: 16)
    private let pending = Atomic<Int>(0)

    /// - Parameter passthrough: whether to ask the kernel to read originals itself (FUSE
    ///   passthrough); without it, or where the kernel cannot, their reads are spliced by the daemon.
    public init(tree: MediaTree, logger: Logger, timeouts: Timeouts = Timeouts(), passthrough: Bool = true) {
        self.tree = tree
        self.logger = logger
        self.timeouts = timeouts
        self.passthrough = Passthrough(wanted: passthrough, logger: logger)
        numbered = NumberedTree(tree: tree)
        notifier = KernelNotifier(numbered: numbered, logger: logger)
    }

    /// The file system a request belongs to (the session's userdata).
    static func from(_ request: fuse_req_t) -> FuseFileSystem {
        from(userdata: fuse_req_userdata(request))
    }

    /// The file system whose session has `userdata`.
    static func from(userdata: UnsafeMutableRawPointer?) -> FuseFileSystem {
        Unmanaged<FuseFileSystem>.fromOpaque(userdata!).takeUnretainedValue()
    }

    func requestStarted() { pending.add(1, ordering: .relaxed) }
    func requestFinished() { pending.subtract(1, ordering: .releasing) }

    /// Requests received and not yet answered.
    var pendingRequests: Int { pending.load(ordering: .acquiring) }

    /// Runs `body` with `request` on the work queue.
    func async(_ request: Request, _ body: @escaping @Sendable (Request) -> Void) {
        work.submit { body(request) }
    }
}
