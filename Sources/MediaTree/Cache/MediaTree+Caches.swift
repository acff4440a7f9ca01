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
        "thumbnail-2 \(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds) "
            + "\(request.streamIndex) \(String(request.time.bitPattern, radix: 16)) \(request.pick.rawValue) "
            + "\(request.width)x\(request.height) \(request.format.rawValue)"
    }

    /// The disk cache's key of a chapter image or cover made from a frame or converted artwork;
    /// nil for a stored PNG (served as stored, not kept).
    static func diskKey(identity: FileIdentity, plan: ImagePlan) -> String? {
        let file = "\(identity.device) \(identity.inode) \(identity.size) \(identity.modificationNanoseconds)"
        switch plan {
        case .stored:
            return nil
        case .converted(let picture, let codec, let width, let height, let format):
            let source: String
            switch picture {
            case .cover: source = "cover"
            case .chapterArtwork(let index): source = "chapter-\(index)"
            }
            return "picture-2 \(file) converted \(source) \(codec) \(width)x\(height) \(format.rawValue)"
        case .frame(let frame):
            let times = frame.times.map { String($0.bitPattern, radix: 16) }.joined(separator: ",")
            return "picture-2 \(file) frame \(frame.streamIndex) \(times) \(frame.width)x\(frame.height) \(frame.format.rawValue)"
        }
    }

    /// The thumbnail kept on disk under `key`, provided it is a whole image of the size asked for.
    static func thumbnail(from cache: DiskCache, key: String, request: ThumbnailRequest) -> Thumbnail? {
        let size = request.encodedSize
        guard let image = image(from: cache, key: key, size: size), let frameTime = image.frameTime else { return nil }
        return Thumbnail(bytes: image.bytes, format: request.format, frameTime: frameTime, isKeyframe: image.isKeyframe ?? false)
    }

    /// The image kept on disk under `key`, provided it is whole: `size` bytes.
    static func image(from cache: DiskCache, key: String, size: Int) -> MadeImage? {
        guard let entry = cache.read(key), entry.bytes.count == size else { return nil }
        let fields = (entry.meta ?? "").split(separator: " ")
        guard fields.count == 2, let bits = UInt64(fields[0], radix: 16) else { return MadeImage(bytes: entry.bytes) }
        return MadeImage(bytes: entry.bytes, frameTime: Double(bitPattern: bits), isKeyframe: fields[1] == "keyframe")
    }

    /// Keeps `thumbnail` on disk under `key`; the frame's time and kind go in the index.
    static func store(_ thumbnail: Thumbnail, in cache: DiskCache, key: String) {
        store(MadeImage(bytes: thumbnail.bytes, frameTime: thumbnail.frameTime, isKeyframe: thumbnail.isKeyframe), in: cache, key: key)
    }

    /// Keeps `image` on disk under `key`; a frame's time and kind go in the index.
    static func store(_ image: MadeImage, in cache: DiskCache, key: String) {
        let meta = image.frameTime.map { String($0.bitPattern, radix: 16) + (image.isKeyframe == true ? " keyframe" : " frame") }
        cache.store(image.bytes, meta: meta, for: key)
    }
}
