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
