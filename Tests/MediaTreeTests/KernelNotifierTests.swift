import FuseBridge
import Glibc
import Logging
import MediaTree
import Synchronization
import Testing
import TestSupport

/// `KernelNotifier` against a recorder of the kernel's notifications (`KernelNotifications`), as
/// FuseSession attaches libfuse's: what it tells, to whom, and what it makes of the answers. No
/// mount, and nothing of FuseBridge's but its public face.
@Suite struct KernelNotifierTests {
    /// A tree where the kernel holds `clips/clip-vp9.webm/info.json` (looked up name by name), a
    /// notifier of it and, attached, a recorder answering as `answer` says.
    struct Setup {
        let fixture: TreeFixture
        let notifier: KernelNotifier
        let kernel: RecordedNotifications
        let movie = "clips/clip-vp9.webm"
        let clips: UInt64
        let folder: UInt64
        let info: UInt64

        init(attached: Bool = true, answer: @escaping @Sendable (RecordedNotifications.Call) -> Int32 = { _ in 0 }) throws {
            fixture = try TreeFixture(files: ["clips/clip-vp9.webm", "notes.txt"])
            clips = try fixture.lookup("clips").inode
            folder = try fixture.lookup(movie).inode
            info = try fixture.lookup(movie + "/info.json").inode
            notifier = KernelNotifier(numbered: fixture.numbered, logger: Logger(label: "test"))
            kernel = RecordedNotifications(answer: answer)
            if attached { notifier.attach(kernel) }
        }

        /// What the source watcher reports when the movie changes.
        func movieChanged() { notifier.sourceChanged(SourceChanges(paths: [SourcePath(movie)])) }
    }

    @Test func aChangeTellsTheKernelTheNameAndEveryNodeItHolds() throws {
        let setup = try Setup()
        setup.movieChanged()
        let calls = setup.kernel.calls
        #expect(calls.contains(.expire(parent: setup.clips, name: "clip-vp9.webm")), "\(calls)")
        #expect(calls.contains(.expire(parent: setup.folder, name: "info.json")), "\(calls)")
        for inode in [setup.clips, setup.folder, setup.info] {
            #expect(calls.contains(.inode(inode)), "\(inode) not in \(calls)")
        }
        // Expired only, never dropped: the kernel takes expiry.
        #expect(!calls.contains { if case .invalidate = $0 { true } else { false } }, "\(calls)")
        #expect(setup.notifier.delivered == calls.count)
    }

    @Test func nothingIsToldBeforeAttachOrAfterDetach() throws {
        let setup = try Setup(attached: false)
        setup.movieChanged()
        #expect(setup.kernel.calls.isEmpty)
        setup.notifier.attach(setup.kernel)
        setup.notifier.detach()
        setup.movieChanged()
        #expect(setup.kernel.calls.isEmpty && setup.notifier.delivered == 0)
    }

    /// What the kernel no longer holds (its lookups forgotten) it is not told of.
    @Test func aForgottenNodeIsNotTold() throws {
        let setup = try Setup()
        setup.fixture.numbered.forget(setup.info, count: 1)
        setup.movieChanged()
        #expect(!setup.kernel.calls.contains(.inode(setup.info)), "\(setup.kernel.calls)")
        #expect(setup.kernel.calls.contains(.inode(setup.folder)), "\(setup.kernel.calls)")
    }

    /// ENOENT (the kernel had dropped it) is no delivery and no error; the rest is still told.
    @Test func whatTheKernelDroppedIsNotCounted() throws {
        let setup = try Setup { call in if case .inode = call { -ENOENT } else { 0 } }
        setup.movieChanged()
        let calls = setup.kernel.calls
        let entries = calls.filter { if case .expire = $0 { true } else { false } }.count
        #expect(calls.count > entries && entries >= 2, "\(calls)")
        #expect(setup.notifier.delivered == entries)
    }

    /// A kernel before 6.2 cannot expire only (ENOSYS): the name is dropped instead, and expiry
    /// is not asked for again.
    @Test func withoutExpiryNamesAreDropped() throws {
        let setup = try Setup { call in if case .expire = call { -ENOSYS } else { 0 } }
        setup.movieChanged()
        setup.movieChanged()
        let calls = setup.kernel.calls
        #expect(calls.filter { if case .expire = $0 { true } else { false } }.count == 1, "\(calls)")
        #expect(calls.contains(.invalidate(parent: setup.clips, name: "clip-vp9.webm")), "\(calls)")
        #expect(calls.contains(.invalidate(parent: setup.folder, name: "info.json")), "\(calls)")
    }

    /// ENODEV: the connection is gone (unmounting); the rest of the batch is not sent.
    @Test func aGoneConnectionEndsTheBatch() throws {
        let setup = try Setup { _ in -ENODEV }
        setup.movieChanged()
        #expect(setup.kernel.calls.count == 1 && setup.notifier.delivered == 0, "\(setup.kernel.calls)")
    }

    /// Through the tree: a change to a file the kernel was shown reaches the notifier given to
    /// `watchSource`, which tells the kernel the file's number and name.
    @Test func theTreeReportsChangesToItsNotifier() throws {
        let fixture = try TreeFixture(files: ["notes.txt"])
        let notes = try fixture.lookup("notes.txt").inode
        let notifier = KernelNotifier(numbered: fixture.numbered, logger: Logger(label: "test"))
        let kernel = RecordedNotifications()
        notifier.attach(kernel)
        fixture.tree.watchSource(reportingTo: notifier)
        #expect(fixture.tree.waitUntilWatching(seconds: 10))
        try "changed".write(toFile: fixture.path("notes.txt"), atomically: true, encoding: .utf8)
        let told = Wait.until(10) { kernel.calls.contains(.inode(notes)) }
        #expect(told && kernel.calls.contains(.expire(parent: NodeKey.rootNumber, name: "notes.txt")), "\(kernel.calls)")
        #expect(fixture.tree.watchesEverySourceFolder)
    }
}

/// The kernel's notifications, recorded in order and answered as the test says (0: told).
final class RecordedNotifications: KernelNotifications {
    enum Call: Equatable, CustomStringConvertible {
        case expire(parent: UInt64, name: Name)
        case invalidate(parent: UInt64, name: Name)
        case inode(UInt64)

        var description: String {
            switch self {
            case .expire(let parent, let name): "expire \(parent)/\(name)"
            case .invalidate(let parent, let name): "invalidate \(parent)/\(name)"
            case .inode(let inode): "inode \(inode)"
            }
        }
    }

    private let recorded = Mutex<[Call]>([])
    private let answer: @Sendable (Call) -> Int32

    init(answer: @escaping @Sendable (Call) -> Int32 = { _ in 0 }) { self.answer = answer }

    var calls: [Call] { recorded.withLock { $0 } }

    func expireEntry(parent: UInt64, name: Name) -> Int32 { record(.expire(parent: parent, name: name)) }
    func invalidateEntry(parent: UInt64, name: Name) -> Int32 { record(.invalidate(parent: parent, name: name)) }
    func invalidateInode(_ inode: UInt64) -> Int32 { record(.inode(inode)) }

    private func record(_ call: Call) -> Int32 {
        recorded.withLock { $0.append(call) }
        return answer(call)
    }
}
