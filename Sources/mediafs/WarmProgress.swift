import ArgumentParser
import CLinux
import Foundation
import Synchronization
import Glibc
import MediaTree

/// Progress on stderr: a bar redrawn in place on a terminal, one line per media folder otherwise.
final class WarmProgress: Sendable {
    private let total: Int
    private let terminal: Bool
    /// What is counted: files read, or media files analysed.
    private let unit: String
    /// Files read and their bytes, from the readers' threads.
    private let reads = Mutex<(count: Int, bytes: Int64)>((0, 0))
    private let started = Date()

    init(total: Int, terminal: Bool, unit: String = "files") {
        self.total = total
        self.terminal = terminal
        self.unit = unit
    }

    func start(folders: Int, part: LibraryPart?) {
        let what = unit == "files" ? "warming \(total) files in \(folders) media folders" : "analysing \(total) media files"
        write(what + (part.map { " (part \($0))" } ?? "") + "\n")
    }

    func done(bytes read: Int64) {
        let count = reads.withLock { done in
            done.count += 1
            done.bytes += read
            return done.count
        }
        if terminal { write("\r" + bar(count)) }
    }

    func folderDone(_ folder: String, files: Int, seconds: Double) {
        guard !terminal else { return }
        let what = unit == "files" ? "warmed \(folder): \(files) files" : "analysed \(folder)"
        write(what + " in \(String(format: "%.1f", seconds)) s\n")
    }

    func finish(failures: Int) {
        let (count, bytes) = reads.withLock { $0 }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        let summary = unit == "files" ? "\(count) files, \(String(format: "%.1f", Double(bytes) / 1e6)) MB in \(seconds) s"
            : "\(count) \(unit) in \(seconds) s"
            + (failures > 0 ? ", \(failures) failed" : "")
        write((terminal ? "\r" + bar(count) + "\n" : "") + "done: " + summary + "\n")
    }

    /// `[#########           ]  45% 123/270 files`, with `count` files read.
    private func bar(_ count: Int) -> String {
        let width = 30
        let share = total == 0 ? 1 : Double(count) / Double(total)
        let filled = Int(share * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + String(format: "%3d%%", Int(share * 100)) + " \(count)/\(total) \(unit)"
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

/// A value behind a lock that escaping closures can capture (a `Mutex` cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }

    /// Runs `body` on the value under the lock.
    func update<T: Sendable>(_ body: (inout Value) -> T) -> T {
        value.withLock { body(&$0) }
    }
}
