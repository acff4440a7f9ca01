import ArgumentParser
import CLinux
import Foundation
import Synchronization
import Glibc
import MediaTree

/// Reads files whole and discards them, `jobs` at a time, folder by folder; analyses media files.
struct WarmReader {
    let jobs: Int

    /// The files that could not be read, with the reason; `groups` one after the other (a media
    /// folder's files, or a film's beside it), the files of each `jobs` at a time.
    func read(_ groups: [(folder: String, files: [String])], progress: WarmProgress) -> [(String, String)] {
        let failures = Locked<[(String, String)]>([])
        for (folder, mine) in groups {
            let next = Locked(0)
            let started = Date()
            let finished = DispatchGroup()
            for _ in 0..<min(jobs, max(1, mine.count)) {
                finished.enter()
                Thread.detachNewThread {
                    defer { finished.leave() }
                    while true {
                        let index = next.update { n -> Int in
                            defer { n += 1 }
                            return n
                        }
                        guard index < mine.count else { return }
                        switch Self.readWhole(mine[index]) {
                        case .success(let bytes):
                            progress.done(bytes: bytes)
                        case .failure(let reason):
                            failures.update { $0.append((mine[index], reason.reason)) }
                            progress.done(bytes: 0)
                        }
                    }
                }
            }
            finished.wait()
            progress.folderDone(folder, files: mine.count, seconds: Date().timeIntervalSince(started))
        }
        return failures.update { $0 }
    }

    /// Analyses each media folder (or film) of `paths`, one at a time (each takes every processor):
    /// those that failed, with the reason.
    static func analyse(_ paths: [String], progress: WarmProgress) -> [(String, String)] {
        var failures: [(String, String)] = []
        for path in paths {
            let started = Date()
            if let reason = analyse(path) { failures.append((path + " (its analysis)", reason)) }
            progress.done(bytes: 0)
            progress.folderDone(path, files: 1, seconds: Date().timeIntervalSince(started))
        }
        return failures
    }

    /// Asks the daemon for the analysis of the media folder (or film) at `path`
    /// (`user.mediafs.analysis`, answered once it is done): nil, or why it failed. A folder that
    /// is no media folder (a film without video in the server layout) has nothing to analyse.
    static func analyse(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = getxattr(path, MediaTree.analysisAttribute, &buffer, buffer.count)
            if n >= 0 { return nil }
            switch errno {
            case EINTR: continue
            case ENODATA, ENOTSUP: return nil
            case ERANGE: buffer = [UInt8](repeating: 0, count: buffer.count * 4)
            default: return String(cString: strerror(errno))
            }
        }
    }

    /// Reads `path` to its end; the bytes read, or why not.
    static func readWhole(_ path: String) -> Result<Int64, ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var total: Int64 = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer, 1 << 20)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
            if n == 0 { return .success(total) }
            total += Int64(n)
        }
    }
}

/// Why a file could not be read (the system's message).
struct ReadFailure: Error {
    let reason: String
}
