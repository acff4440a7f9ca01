import MediaKit

/// An open track file of the cache folder: reads are spliced from its descriptor, and its set is
/// kept out of the disk cache's eviction until the file is released (the pin goes with it).
final class TrackFileContent: FileContent {
    private let file: SourceFileContent
    private let pin: DiskCache.Pin?

    init(file: SourceFileContent, pin: DiskCache.Pin?) {
        self.file = file
        self.pin = pin
    }

    func read(offset: Int64, count: Int, reply: @escaping Reply<[UInt8]>) { file.read(offset: offset, count: count, reply: reply) }
    var version: FileIdentity { file.version }
    var spliceDescriptor: Int32? { file.spliceDescriptor }
}
