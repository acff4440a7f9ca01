import Dispatch
import Foundation
import FuseBridge
import Logging
import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// A probe that is slow on one file (a network share, a disk spinning up) does not hold the
/// others back: a folder's other files are probed while it waits, whatever the number of
/// processors (`EntryFanOut`).
@Suite struct SlowProbeTests {
    @Test func theOtherFilesOfAFolderAreProbedWhileTwoProbesStall() throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-slow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: source) }
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let clip = try TestMedia.file("clips/clip-vp9.webm")
        // Listed (and so taken) first.
        let names = (0..<2).map { "a-stalled-\($0).webm" } + (0..<12).map { "film-\($0).webm" }
        for name in names {
            let copy = source.appendingPathComponent(name)
            try FileManager.default.copyItem(at: clip, to: copy)
            // Settled: not waited for as a file being written.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: copy.path)
        }
        let media = StallingService(stalling: "a-stalled-")
        let tree = MediaTree(sourceRoot: source.path, media: media, logger: Logger(label: "test"))
        defer { tree.close() }

        // More files stall than there are processors on a small machine: the listing must still
        // probe the others meanwhile.
        let listed = Mutex<[DirectoryEntry]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let entries = try? NumberedTree(tree: tree).list(NodeKey.rootNumber)
            listed.withLock { $0 = entries }
            done.signal()
        }
        let othersProbed = media.waitUntil(seconds: 60) { $0.finished == 12 && $0.stalled == 2 }
        #expect(othersProbed, "probed while two probes stall: \(media.progress)")
        #expect(listed.withLock { $0 } == nil, "the listing waits for every probe")
        media.release()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let entries = try #require(listed.withLock { $0 })
        #expect(entries.count == names.count)
        #expect(entries.allSatisfy { $0.attributes.type == .directory }, "every file is a media folder")
    }

    /// A source holding `name` (the test library's VP9 clip), settled; its tree, by number; the
    /// number the root's listing gives the media folder (as readdirplus gives it: no node made).
    private func listedFilm(_ name: String, media: any MediaService) throws
        -> (source: URL, tree: MediaTree, numbered: NumberedTree, number: UInt64) {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("mediafs-at-once-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let film = source.appendingPathComponent(name)
        try FileManager.default.copyItem(at: try TestMedia.file("clips/clip-vp9.webm"), to: film)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: film.path)
        let tree = MediaTree(sourceRoot: source.path, media: media, logger: Logger(label: "test"))
        let numbered = NumberedTree(tree: tree)
        let number = numbered.enter(try numbered.keptListing(NodeKey.rootNumber), index: 0)
        return (source, tree, numbered, number)
    }

    /// `body` run on a thread of its own; its value where it returned within `seconds`, and the
    /// seconds it took.
    private func timed<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () -> T) -> (value: T?, seconds: Double) {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        Thread.detachNewThread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return (nil, seconds) }
        return (result.withLock { $0 }, Date().timeIntervalSince(start))
    }

    /// Gives `a-stalled-film.webm` of `source` a new version (settled) and looks it up on a thread
    /// of its own, where its probe stalls (`media`), once that probe is under way; signalled when
    /// the lookup is answered.
    private func lookUpNewVersionStalling(_ media: StallingService, numbered: NumberedTree, source: URL) throws -> DispatchSemaphore {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -30)],
                                              ofItemAtPath: source.appendingPathComponent("a-stalled-film.webm").path)
        media.stallAgain()
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            numbered.lookup(parent: NodeKey.rootNumber, name: "a-stalled-film.webm") { _ in answered.signal() }
        }
        #expect(media.waitUntil(seconds: 60) { $0.stalled == 1 }, "\(media.progress)")
        return answered
    }

    /// What libfuse's thread does at an `opendir` (`listingAtOnce`) of a media folder whose node must
    /// be made from a probe another thread has under way: it does not wait for that probe, and
    /// leaves the request to a worker (nil), which lists it once the probe is done.
    @Test func opendirDoesNotWaitForAProbeUnderWayElsewhere() throws {
        let media = StallingService(stalling: "a-stalled-")
        media.release()
        let (source, tree, numbered, number) = try listedFilm("a-stalled-film.webm", media: media)
        defer {
            tree.close()
            try? FileManager.default.removeItem(at: source)
        }
        let lookedUp = try lookUpNewVersionStalling(media, numbered: numbered, source: source)
        defer { lookedUp.wait() }

        let atOnce = timed(within: 20) { numbered.listingAtOnce(number).map { _ in "listed" } ?? "handed to a worker" }
        media.release()
        #expect(atOnce.value == "handed to a worker", "answered at once: \(atOnce)")
        let listing = try NumberedTree.wait { numbered.listing(of: number, reply: $0) }
        #expect(listing.entries.contains { $0.name == "info.json" })
    }

    /// Requests that meet a probe under way on another thread (a lookup, the attributes, the
    /// listing of the same media folder) do not wait for it: each call returns at once without an
    /// answer, and each is answered, from the one probe, once it is done (`MediaTree.resuming`).
    @Test func requestsMeetingAProbeUnderWayAreAnsweredWhenItIsDone() throws {
        let media = StallingService(stalling: "a-stalled-")
        media.release()
        let (source, tree, numbered, number) = try listedFilm("a-stalled-film.webm", media: media)
        defer {
            tree.close()
            try? FileManager.default.removeItem(at: source)
        }
        let first = try lookUpNewVersionStalling(media, numbered: numbered, source: source)

        let answers = Mutex<[String]>([])
        let answered = DispatchSemaphore(value: 0)
        @Sendable func note(_ what: String, _ success: Bool) {
            answers.withLock { $0.append(success ? what : "\(what) failed") }
            answered.signal()
        }
        let asked = timed(within: 20) { () -> Bool in
            numbered.lookup(parent: NodeKey.rootNumber, name: "a-stalled-film.webm") { note("lookup", (try? $0.get()) != nil) }
            numbered.attributes(of: number) { note("attributes", (try? $0.get()) != nil) }
            numbered.listing(of: number) { note("listing", (try? $0.get()) != nil) }
            return true
        }
        #expect(asked.value == true, "the calls return without waiting for the probe")
        #expect(answers.withLock { $0 }.isEmpty, "nothing answered before the probe is done")
        media.release()
        #expect(first.wait(timeout: .now() + 60) == .success)
        for _ in 0..<3 { #expect(answered.wait(timeout: .now() + 60) == .success) }
        #expect(answers.withLock { $0 }.sorted() == ["attributes", "listing", "lookup"])
        #expect(media.progress.stalled == 1, "one probe for all")
    }

    /// The same for a media file being written (modified just now, and again and again): the
    /// thread does not wait for it to settle.
    @Test func opendirDoesNotWaitForAFileBeingWrittenToSettle() throws {
        let (source, tree, numbered, number) = try listedFilm("film.webm", media: LocalMediaService(probeTimeout: 20))
        defer {
            tree.close()
            try? FileManager.default.removeItem(at: source)
        }
        let path = source.appendingPathComponent("film.webm").path
        let writing = Atomic(true)
        let stopped = DispatchSemaphore(value: 0)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
        Thread.detachNewThread {
            while writing.load(ordering: .relaxed) {
                try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
                usleep(50_000)
            }
            stopped.signal()
        }
        defer {
            writing.store(false, ordering: .relaxed)
            stopped.wait()
        }
        // Waiting for it to settle would take `MediaTree.longestSettle`.
        let atOnce = timed(within: 20) { numbered.listingAtOnce(number) == nil }
        #expect(atOnce.value == true && atOnce.seconds < MediaTree.longestSettle / 2, "\(atOnce)")
    }
}

/// A media service whose probes of files named with a prefix wait until `release()`; it counts
/// the probes waiting and those done.
private final class StallingService: ForwardingMediaService {
    let base: any MediaService = LocalMediaService(probeTimeout: 20)
    let prefix: String
    private let gate = DispatchSemaphore(value: 0)
    private let state = Mutex(Progress())
    private let changed = NSCondition()

    struct Progress: Sendable, CustomStringConvertible {
        var stalled = 0
        var finished = 0
        var released = false
        var description: String { "\(stalled) stalled, \(finished) other probes done" }
    }

    init(stalling prefix: String) { self.prefix = prefix }

    var progress: Progress { state.withLock { $0 } }

    func probe(path: FilePath, size: Int64) throws -> MediaInfo {
        if path.lastComponent?.string.hasPrefix(prefix) == true {
            let waits = state.withLock { progress -> Bool in
                progress.stalled += 1
                return !progress.released
            }
            notify()
            // Bounded, so that a failing test ends.
            if waits { _ = gate.wait(timeout: .now() + 120) }
            return try base.probe(path: path, size: size)
        }
        let info = try base.probe(path: path, size: size)
        state.withLock { $0.finished += 1 }
        notify()
        return info
    }

    /// Makes later probes of files with the prefix stall again, until `release()`.
    func stallAgain() {
        state.withLock { progress in
            progress.released = false
            progress.stalled = 0
        }
    }

    /// Lets every stalled probe (and any later one) go on.
    func release() {
        let waiting = state.withLock { progress -> Int in
            progress.released = true
            return progress.stalled
        }
        for _ in 0..<waiting { gate.signal() }
    }

    /// Waits until `condition` holds of the progress, at most `seconds`; whether it held.
    func waitUntil(seconds: Double, _ condition: (Progress) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        changed.lock()
        defer { changed.unlock() }
        while !condition(progress) {
            if !changed.wait(until: deadline) { return condition(progress) }
        }
        return true
    }

    private func notify() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }
}
