import ArgumentParser
import Foundation
import Logging
import MediaTree

/// `mediafs cache stats|clear`: what the cache folder holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the cache folder (probe database, made images and extracted tracks).",
        subcommands: [Stats.self, Clear.self])

    struct Folder: ParsableArguments {
        @Option(help: ArgumentHelp("The cache folder (default: $XDG_CACHE_HOME/mediafs, else ~/.cache/mediafs).",
                                   valueName: "path"))
        var cacheDir: String?

        /// The folder's database, or a failure naming the folder.
        func open() throws -> (folder: String, database: CacheDatabase, files: DiskCache) {
            guard let folder = CacheFolder.resolve(cacheDir) else { throw CLIError(.usage, "--cache-dir is empty") }
            let logger = Logger(label: "mediafs")
            do {
                let database = try CacheDatabase(directory: folder, logger: logger)
                // The bound is the mount's business; here nothing is evicted.
                let files = try DiskCache(database: database, capacity: .max, logger: logger)
                return (folder, database, files)
            } catch {
                throw CLIError(.failed, "\(error)")
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the cache folder's size, entries and hit rate.",
            discussion: "Counters add up over every mount that used the folder since it was last cleared.")

        @OptionGroup var folder: Folder

        func run() throws {
            let (path, database, files) = try folder.open()
            let usage = try files.usage()
            let probes = try ProbeDatabase(database: database).count()
            let counters = try database.counterValues()
            let hits = counters["file_hits"] ?? 0
            let misses = counters["file_misses"] ?? 0
            let rate = hits + misses == 0 ? "-" : String(format: "%.1f%%", 100 * Double(hits) / Double(hits + misses))
            print("""
                cache folder:    \(path)
                made files:      \(usage.files) entries, \(ByteSize.text(usage.fileBytes)) (\(usage.fileBytes) bytes)
                track sets:      \(usage.trackSets) sets, \(ByteSize.text(usage.trackBytes)) (\(usage.trackBytes) bytes)
                total:           \(ByteSize.text(usage.fileBytes + usage.trackBytes)) (bounded by the mount's --cache-size)
                probes kept:     \(probes)
                hits:            \(hits)
                misses:          \(misses)
                hit rate:        \(rate)
                damaged, remade: \(counters["file_damaged"] ?? 0)
                damaged rows:    \(counters["probe_rows_damaged"] ?? 0) (probes and listing facts, read again)
                evicted:         \(counters["file_evictions"] ?? 0)
                """)
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove every made file, extracted track and kept probe, and reset the counters.",
            discussion: "Safe while mounted: a running mount makes again what it needs.")

        @OptionGroup var folder: Folder

        func run() throws {
            let (path, database, files) = try folder.open()
            let before = try files.usage()
            try files.clear()
            try ProbeDatabase(database: database).clear()
            try database.resetCounters()
            print("cleared \(path): \(before.files) made files (\(ByteSize.text(before.fileBytes))), "
                  + "\(before.trackSets) track sets (\(ByteSize.text(before.trackBytes))) and every kept probe")
        }
    }
}
