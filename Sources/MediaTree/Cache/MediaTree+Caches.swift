import Foundation
import Logging
import MediaKit

/// The tree's persistent caches: the probe database and the disk cache, both in `--cache-dir`.
extension MediaTree {
    /// Opens the caches of `settings.cacheDirectory`; with none, or an unusable folder (a warning
    /// in the log), the tree runs with its memory caches alone.
    static func openCaches(settings: TreeSettings, logger: Logger) -> (ProbeDatabase?, DiskCache?) {
        guard let directory = settings.cacheDirectory else { return (nil, nil) }
        do {
            let database = try CacheDatabase(directory: directory, logger: logger)
            let disk = try DiskCache(database: database, capacity: settings.diskCacheBytes, logger: logger)
            logger.info("cache folder \(directory): probe database and up to \(settings.diskCacheBytes >> 20) MiB of made files")
            return (ProbeDatabase(database: database), disk)
        } catch {
            logger.warning("the cache folder cannot be used, so nothing is kept across mounts (memory caching only): \(error)")
            return (nil, nil)
        }
    }

    /// Writes what the caches hold in memory only (facts waiting for their batch, the counters).
    /// Call before the process ends.
    public func flushCaches() {
        probeDatabase?.flush()
        probeDatabase?.database.flush()
    }
}
