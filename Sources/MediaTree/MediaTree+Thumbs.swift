import MediaKit
import SystemPackage

extension MediaTree {
    /// `thumbs/` as `list` gives it. Every listed name is in the default box and within the
    /// duration, so all are one size, worked out once instead of from each name.
    func thumbsListing(rel: String, info: MediaInfo, stat: SourceStat) -> [DirectoryEntry] {
        guard let stream = thumbnailStream(of: info),
              let box = ThumbnailGeometry.outputSize(of: stream, box: settings.thumbnailBox) else { return [] }
        let size = Int64(PNGEncoder.encodedSize(width: box.width, height: box.height))
        return ThumbnailListing.names(duration: thumbnailDuration(of: stream, info: info), interval: settings.thumbnailInterval)
            .map { name in
                var attributes = fileAttributes(of: .thumbnail(rel: rel, name: name), stat: stat)
                attributes.size = size
                return DirectoryEntry(name: name, attributes: attributes)
            }
    }

    /// Hands the thumbnail named `name` of the media file at `rel` to `completion`: from the memory
    /// cache at once, or from the disk cache or made on the generation pool (shared with everyone
    /// asking for the same frame meanwhile). Never blocks the caller on a decode.
    /// - Throws: `TreeError.notFound` at once where the name means no thumbnail of this file;
    ///   the completion gets `TreeError.io` where the frame cannot be made.
    func thumbnail(rel: String, name: String, stat: SourceStat,
                   completion: @escaping @Sendable (Result<MadeImage, Error>) -> Void) throws {
        let info = try probe(rel: rel, stat: stat)
        guard let request = thumbnailRequest(name: name, info: info) else { throw TreeError.notFound }
        let identity = stat.identity
        let file = MediaFile(path: FilePath(absolute(rel)), size: identity.size,
                             modificationNanoseconds: identity.modificationNanoseconds)
        let shownAs = absolute(rel) + "/thumbs/" + name
        let diskKey = Self.diskKey(identity: identity, request: request)
        images.request(.thumbnail(identity, request), work: { [media, statistics, diskCache] in
            if let diskCache, let kept = Self.thumbnail(from: diskCache, key: diskKey, request: request) {
                TreeStatistics.count(statistics.thumbnailsFromDisk)
                return MadeImage(png: kept.bytes, frameTime: kept.frameTime, isKeyframe: kept.isKeyframe)
            }
            do {
                let made = try media.thumbnail(of: file, request: request)
                TreeStatistics.count(statistics.thumbnailsMade)
                if let diskCache { Self.store(made, in: diskCache, key: diskKey) }
                return MadeImage(png: made.bytes, frameTime: made.frameTime, isKeyframe: made.isKeyframe)
            } catch {
                TreeStatistics.count(statistics.thumbnailFailures)
                throw TreeError.io(path: shownAs, reason: "\(error)")
            }
        }, completion: completion)
    }
}
