import Glibc
import Synchronization

/// What a request was answered with, so that it is answered once: a second answer (a bug, such as
/// a completion called twice) is dropped, never sent, as libfuse frees a request with its reply
/// and would read the freed one. The first dropped answer is named in one log line, with the
/// answer sent; the daemon goes on serving.
struct RequestAnswer: ~Copyable {
    /// One kind of reply, with what identifies it in a log line.
    enum Kind: Sendable, Equatable, CustomStringConvertible {
        case error(Int32), entry(inode: UInt64), attributes, open, bytes(count: Int), descriptor, statfs
        case xattrSize(Int), none

        var description: String {
            switch self {
            case .error(let code): code == 0 ? "success" : "error \(code) (\(String(cString: strerror(code))))"
            case .entry(let inode): "an entry for inode \(inode)"
            case .attributes: "attributes"
            case .open: "an open"
            case .bytes(let count): "\(count) bytes"
            case .descriptor: "bytes from a descriptor"
            case .statfs: "file system figures"
            case .xattrSize(let size): "an attribute size of \(size)"
            case .none: "no reply (a forget)"
            }
        }
    }

    /// What became of an answer.
    enum Outcome: Equatable {
        /// The request's first: send it.
        case send
        /// A later one, dropped; with the line to log for the first of them, nil after.
        case dropped(report: String?)
    }

    /// Not `private`: a private type here crashes the compiler's IR verifier.
    struct State {
        var sent: Kind?
        var reported = false
    }

    private let state = Mutex(State())

    /// Takes `kind` as the request's answer if it has none yet.
    func take(_ kind: Kind) -> Outcome {
        state.withLock { state in
            guard let sent = state.sent else {
                state.sent = kind
                return .send
            }
            guard !state.reported else { return .dropped(report: nil) }
            state.reported = true
            return .dropped(report: "a request answered twice: with \(sent), then with \(kind) (dropped)")
        }
    }

    var isAnswered: Bool { state.withLock { $0.sent != nil } }
}
