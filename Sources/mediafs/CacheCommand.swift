import ArgumentParser
import Foundation
import Logging
import MediaTree

/// `mediafs cache stats|clear`: what the cache folder holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the cache folder (probe database and made files).",
        subcommands: [Stats.self, Clear.self])

    struct Folder: ParsableArguments {
        @Option(help: ArgumentHelp("The cache folder (default: $XDG_CACHE_HOME/mediafs, else ~/.cache/mediafs).",
                                   valueName: "path"))
        var cacheDir: String?

        /// The folder's database, or a failure naming the folder.
        func open() throws -> (folder: String, database: CacheDatabase, files: DiskCache) {
            guard let folder = CacheFolder.resolve(cacheDir) else { throw failure("--cache-dir is empty") }
            let logger = Logger(label: "mediafs")
            do {
                let database = try CacheDatabase(directory: folder, logger: logger)
                // The bound is the mount's business; here nothing is evicted.
                let files = try DiskCache(database: database, capacity: .max, logger: logger)
                return (folder, database, files)
            } catch {
                throw failure("\(error)")
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
            let tracks = TrackSets.usage(in: path)
            let counters = try database.counterValues()
            let hits = counters["file_hits"] ?? 0
            let misses = counters["file_misses"] ?? 0
            let rate = hits + misses == 0 ? "-" : String(format: "%.1f%%", 100 * Double(hits) / Double(hits + misses))
            print("""
                cache folder:    \(path)
                made files:      \(usage.entries) entries, \(ByteSize.text(usage.bytes)) (\(usage.bytes) bytes)
                track sets:      \(tracks.sets) sets, \(ByteSize.text(tracks.bytes)) (\(tracks.bytes) bytes; not bounded by --cache-size)
                probes kept:     \(probes)
                hits:            \(hits)
                misses:          \(misses)
                hit rate:        \(rate)
                damaged, remade: \(counters["file_damaged"] ?? 0)
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
            let tracks = TrackSets.usage(in: path)
            try files.clear()
            try ProbeDatabase(database: database).clear()
            try database.resetCounters()
            try TrackSets.clear(in: path)
            print("cleared \(path): \(before.entries) made files (\(ByteSize.text(before.bytes))), "
                  + "\(tracks.sets) track sets (\(ByteSize.text(tracks.bytes))) and every kept probe")
        }
    }
}

/// The extracted tracks a cache folder keeps in `tracks/`, one folder per set (see TrackStore).
enum TrackSets {
    /// How many sets `<folder>/tracks` holds and the bytes of their files.
    static func usage(in folder: String) -> (sets: Int, bytes: Int64) {
        let root = folder + "/tracks"
        let sets = (try? FileManager.default.contentsOfDirectory(atPath: root))?.filter { !$0.hasPrefix(".") } ?? []
        var bytes: Int64 = 0
        if let walk = FileManager.default.enumerator(atPath: root) {
            for case let relative as String in walk {
                let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + relative)
                if attributes?[.type] as? FileAttributeType == .typeRegular {
                    bytes += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
                }
            }
        }
        return (sets.count, bytes)
    }

    /// Removes every set. A running mount makes a set again when one of its tracks is asked for.
    static func clear(in folder: String) throws {
        let root = folder + "/tracks"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for entry in entries { try FileManager.default.removeItem(atPath: root + "/" + entry) }
    }
}
