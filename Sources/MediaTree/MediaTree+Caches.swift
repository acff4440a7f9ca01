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

    /// Writes what the caches hold in memory only (their counters). Call before the process ends.
    public func flushCaches() {
        probeDatabase?.database.flush()
    }

    /// The disk cache's key of a thumbnail: the source version and the request, as text.
    static func diskKey(identity: FileIdentity, request: ThumbnailRequest) -> String {
        "thumbnail-1 \(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds) "
            + "\(request.streamIndex) \(String(request.time.bitPattern, radix: 16)) \(request.pick.rawValue) "
            + "\(request.width)x\(request.height)"
    }

    /// The thumbnail kept on disk under `key`, provided it is a whole PNG of the size asked for.
    static func thumbnail(from cache: DiskCache, key: String, request: ThumbnailRequest) -> Thumbnail? {
        guard let entry = cache.read(key), let meta = entry.meta,
              entry.bytes.count == PNGEncoder.encodedSize(width: request.width, height: request.height) else { return nil }
        let fields = meta.split(separator: " ")
        guard fields.count == 2, let bits = UInt64(fields[0], radix: 16) else { return nil }
        return Thumbnail(png: entry.bytes, frameTime: Double(bitPattern: bits), isKeyframe: fields[1] == "keyframe")
    }

    /// Keeps `thumbnail` on disk under `key`; the frame's time and kind go in the index.
    static func store(_ thumbnail: Thumbnail, in cache: DiskCache, key: String) {
        let meta = String(thumbnail.frameTime.bitPattern, radix: 16) + (thumbnail.isKeyframe ? " keyframe" : " frame")
        cache.store(thumbnail.png, meta: meta, for: key)
    }
}
