/// Reads the chapters of a Matroska or WebM file without libavformat, keeping what it drops:
/// every `ChapterDisplay` (libavformat keeps the last), every edition, the flags and UIDs.
///
/// It reads the EBML header, the Segment's top-level elements up to the first Cluster (SeekHead,
/// Info, Chapters usually come first), and then whatever the SeekHeads point to that was not found
/// yet (mkvpropedit may move Chapters to the end of the file). Only those elements are read, each
/// bounded in size; the clusters, and so the bulk of a large file, are never touched.
enum MatroskaChapterReader {
    /// The largest Chapters element read (16 MiB); larger is taken as damage.
    static let maximumChaptersSize: UInt64 = 16 << 20
    /// The largest SeekHead or Info element read (1 MiB).
    static let maximumIndexSize: UInt64 = 1 << 20
    /// Top-level elements looked at before giving up on the linear scan.
    static let maximumTopLevelElements = 4096

    /// The chapters of the Matroska file open in `file`; an empty list when it has none.
    /// - Throws: `MediaError.damaged` where the structure is broken, `.unsupported` for an EBML
    ///   document that is not Matroska or WebM, `.io` when reading fails.
    static func read(_ file: FileReader) throws -> ChapterList {
        let segment = try locateSegment(file)
        let layout = try MatroskaLayout.scan(file, segment: segment)
        var duration: Double?
        if let info = layout.info {
            duration = try readInfo(file, info)
        }
        guard let chaptersElement = layout.chapters else {
            return ChapterList(source: .matroska, editions: [])
        }
        let bytes = try readData(file, chaptersElement, maximum: maximumChaptersSize, what: "Chapters")
        let editions = try MatroskaChapterParser.editions(in: bytes, duration: duration)
        return ChapterList(source: .matroska, editions: editions)
    }

    /// Where the Segment's data is: from its first child to the end of the segment, or of the file
    /// for an unknown size or a file cut short.
    static func locateSegment(_ file: FileReader) throws -> Range<Int64> {
        let ebml = try readHeader(file, at: 0)
        guard ebml.id == MatroskaID.ebml, let ebmlSize = ebml.size else {
            throw MediaError.damaged(reason: "no EBML header")
        }
        let header = try readData(file, ebml, maximum: 4096, what: "EBML header")
        let docType = try EBML.children(of: header, in: 0..<header.count)
            .first { $0.id == MatroskaID.docType }
            .map { EBML.string(header, $0.data) } ?? "matroska"
        guard docType == "matroska" || docType == "webm" else {
            throw MediaError.unsupported(reason: "EBML document type \"\(docType)\" is not Matroska")
        }
        var position = ebml.dataStart + Int64(ebmlSize)
        for _ in 0..<16 {
            let element = try readHeader(file, at: position)
            if element.id == MatroskaID.segment {
                let end = element.size.map { element.dataStart.addingReportingOverflow(Int64(clamping: $0)) }
                let limit = end.map { $0.overflow ? file.length : min($0.partialValue, file.length) } ?? file.length
                return element.dataStart..<max(element.dataStart, limit)
            }
            guard let size = element.size, size < UInt64(Int64.max) - UInt64(element.dataStart) else { break }
            position = element.dataStart + Int64(size)
        }
        throw MediaError.damaged(reason: "no Segment after the EBML header")
    }

    /// The Info element's duration in seconds, where it gives one.
    static func readInfo(_ file: FileReader, _ element: EBMLElement) throws -> Double? {
        let bytes = try readData(file, element, maximum: maximumIndexSize, what: "Info")
        var scale: UInt64 = 1_000_000
        var duration: Double?
        for child in try EBML.children(of: bytes, in: 0..<bytes.count) {
            switch child.id {
            case MatroskaID.timestampScale: scale = try EBML.unsigned(bytes, child.data)
            case MatroskaID.duration: duration = try EBML.float(bytes, child.data)
            default: break
            }
        }
        guard let duration, duration.isFinite, duration >= 0 else { return nil }
        return duration * Double(scale) / 1e9
    }

    /// The element header at `offset` of the file.
    static func readHeader(_ file: FileReader, at offset: Int64) throws -> EBMLElement {
        let bytes = try file.read(at: offset, count: 12)
        var cursor = ByteCursor(bytes)
        return try EBML.header(&cursor, baseOffset: offset)
    }

    /// The whole data of `element`, at most `maximum` bytes.
    static func readData(_ file: FileReader, _ element: EBMLElement, maximum: UInt64, what: String) throws -> [UInt8] {
        guard let size = element.size else { throw MediaError.damaged(reason: "\(what) has no size") }
        guard size <= maximum else { throw MediaError.damaged(reason: "\(what) of \(size) bytes is over the bound of \(maximum)") }
        return try file.readExactly(at: element.dataStart, count: Int(size), what: what)
    }
}
