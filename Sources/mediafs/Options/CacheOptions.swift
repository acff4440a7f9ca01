import ArgumentParser
import MediaTree

/// What is kept: made images in memory, the cache folder and its bound.
struct CacheOptions: TreeOptions {
    @Option(help: ArgumentHelp("Mebibytes of made images kept in memory.", valueName: "MiB"))
    var memoryCache: Int = 256

    @Option(help: ArgumentHelp("The cache folder: the probe database, made files and extracted tracks kept across mounts "
                               + "(default: $XDG_CACHE_HOME/mediafs, else ~/.cache/mediafs).", valueName: "path"))
    var cacheDir: String?

    @Option(help: ArgumentHelp("The most made files may take on disk: bytes, or with K, M, G, T (500M, 2G).",
                               valueName: "size"))
    var cacheSize: String = "2G"

    func apply(to settings: inout TreeSettings) throws {
        guard memoryCache >= 0 else { throw ValidationError("--memory-cache must not be negative") }
        settings.memoryCacheBytes = memoryCache << 20
        guard let diskBytes = ByteSize.parse(cacheSize) else {
            throw ValidationError("--cache-size must be a size like 500M or 2G (not '\(cacheSize)')")
        }
        settings.diskCacheBytes = diskBytes
        settings.cacheDirectory = CacheFolder.resolve(cacheDir)
    }
}
