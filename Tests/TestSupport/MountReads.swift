import Foundation
import Glibc

/// What reading a file whole gave: its bytes (a digest of them, and whether `stat` gave their
/// length before the read), or the errno that `stat`, `open` or `read` failed with.
public enum ReadOutcome: Equatable, Sendable, CustomStringConvertible {
    case bytes(digest: String, count: Int, statSize: Int)
    case failed(errno: Int32)

    public var description: String {
        switch self {
        case .bytes(let digest, let count, let statSize):
            return "\(count) bytes (stat \(statSize)) \(digest.prefix(12))"
        case .failed(let code):
            return "failed: \(String(cString: strerror(code)))"
        }
    }

    /// The same bytes as `other` (both read).
    public func sameBytes(as other: ReadOutcome) -> Bool {
        guard case .bytes(let mine, let count, _) = self, case .bytes(let theirs, let their, _) = other else { return false }
        return mine == theirs && count == their
    }

    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// Reads files whole through a mount with Python, as a script copying them out would: `stat`, then
/// `open` and `read` to the end, in one process for all of them.
public enum MountReads {
    /// The Python program: each path given, one line: `OK digest count statSize path` or `ERR errno path`.
    public static let script = #"""
    import hashlib, os, sys
    for path in sys.argv[1:]:
        try:
            size = os.stat(path).st_size
            with open(path, "rb") as f:
                data = f.read()
            print("OK", hashlib.sha256(data).hexdigest(), len(data), size, path, sep="\t", flush=True)
        except OSError as e:
            print("ERR", e.errno, path, sep="\t", flush=True)
    """#

    /// Each of `paths`, read in order.
    /// - Throws: `HarnessError` when Python fails or says nothing of a path.
    public static func read(_ paths: [String], timeout: Double = 300) throws -> [String: ReadOutcome] {
        guard !paths.isEmpty else { return [:] }
        let result = try Command.run([Command.pythonPath, "-c", script] + paths, timeout: timeout)
        guard result.succeeded else { throw HarnessError("reading through the mount: \(result)") }
        var outcomes: [String: ReadOutcome] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 5, fields[0] == "OK", let count = Int(fields[2]), let size = Int(fields[3]) {
                outcomes[fields[4]] = .bytes(digest: fields[1], count: count, statSize: size)
            } else if fields.count == 3, fields[0] == "ERR", let code = Int32(fields[1]) {
                outcomes[fields[2]] = .failed(errno: code)
            }
        }
        let missing = paths.filter { outcomes[$0] == nil }
        guard missing.isEmpty else { throw HarnessError("no outcome for \(missing.prefix(5)) in \(result)") }
        return outcomes
    }
}
