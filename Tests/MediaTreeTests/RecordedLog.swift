import Logging
import Synchronization

/// A logger whose lines are kept, to check what was logged and how often.
final class RecordedLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing here.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    /// The lines so far, as `level: message`.
    var recorded: [String] { lines.withLock { $0 } }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lines.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }
}
