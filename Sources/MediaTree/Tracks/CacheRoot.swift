import Foundation
import Glibc
import Logging
import MediaKit
import Synchronization

/// The folder holding the track folders: `<cache>/tracks`, or a private folder under /tmp when the
/// cache folder cannot be written (with a warning), made on first use and removed by `close()`.
final class CacheRoot: Sendable {
    private struct State {
        var root: String?
        var isPrivate = false
    }

    private let configured: String?
    private let logger: Logger
    private let state = Mutex(State())

    /// Checks the configured folder at once, so that a mount that cannot use it says so when it starts.
    init(configured: String?, logger: Logger) {
        self.configured = configured
        self.logger = logger
        if configured != nil { _ = try? root() }
    }

    /// The folder of the set `key` of `plan`: `<root>/<key>`, made unless `create` is false.
    /// - Throws: `TreeError.io` when no folder can be made.
    func folder(for key: TrackSetKey, plan: TrackPlan, create: Bool = true) throws -> String {
        let path = try root() + "/" + Self.name(for: key, plan: plan)
        if create { try makeFolder(path) }
        return path
    }

    /// The track cache's root, made on first use.
    func root() throws -> String {
        try state.withLock { s in
            if let root = s.root { return root }
            var problem: String?
            if let configured {
                let wanted = configured + "/tracks"
                do {
                    try makeFolder(wanted)
                    try checkWritable(wanted)
                    s.root = wanted
                    return wanted
                } catch {
                    problem = "the cache folder \(wanted) cannot be written (\(error))"
                }
            }
            var template = Array("/tmp/mediafs-tracks-XXXXXX".utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                let reason = String(cString: strerror(errno))
                logger.error("\(problem ?? "no cache folder"), and no private folder can be made under /tmp: \(reason)")
                throw TreeError.io(path: "/tmp/mediafs-tracks-XXXXXX", reason: reason)
            }
            let made = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if let problem { logger.warning("\(problem): tracks are kept in \(made) until unmount") }
            s.root = made
            s.isPrivate = true
            return made
        }
    }

    /// Removes the private folder, if one was made.
    func close() {
        let privateRoot: String? = state.withLock { s in
            defer { if s.isPrivate { s.root = nil; s.isPrivate = false } }
            return s.isPrivate ? s.root : nil
        }
        if let privateRoot { try? FileManager.default.removeItem(atPath: privateRoot) }
    }

    /// 32 hex digits: two 64-bit FNV-1a hashes of the identity, the part and the plan. The manifest
    /// repeats what was hashed and is compared in full, so a collision makes a pass, never a wrong file.
    static func name(for key: TrackSetKey, plan: TrackPlan) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let planText = (try? encoder.encode(plan)).map { String(decoding: $0, as: UTF8.self) } ?? "\(plan)"
        let identity = key.identity
        let text = "mediafs-tracks v\(TrackManifest.currentVersion)|\(identity.device)|\(identity.inode)|\(identity.size)|"
            + "\(identity.modificationNanoseconds)|\(key.visual ? "visual" : "main")|\(planText)"
        return hex(fnv1a(text, basis: 0xcbf2_9ce4_8422_2325)) + hex(fnv1a(text, basis: 0x6c62_272e_07bb_0142))
    }

    private static func fnv1a(_ text: String, basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw TreeError.io(path: path, reason: "cannot make the folder: \(error.localizedDescription)")
        }
    }

    private func checkWritable(_ path: String) throws {
        var template = Array("\(path)/.check-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TreeError.io(path: path, reason: String(cString: strerror(errno))) }
        Glibc.close(fd)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }
}
