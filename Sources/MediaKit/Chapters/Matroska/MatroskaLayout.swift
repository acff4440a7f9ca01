/// Where a Matroska Segment's Info and Chapters elements are, found by scanning its top level and
/// following its SeekHeads.
struct MatroskaLayout {
    var info: EBMLElement?
    var chapters: EBMLElement?

    /// Scans the top-level elements of `segment` (the range of the Segment's data) up to the first
    /// Cluster or element of unknown size, then follows the SeekHeads to what was not found.
    /// SeekPosition is relative to the start of the Segment's data.
    static func scan(_ file: FileReader, segment: Range<Int64>) throws -> MatroskaLayout {
        var layout = MatroskaLayout()
        var seekHeads: [Int64] = []  // positions of SeekHeads to read, absolute
        var seen: Set<Int64> = []    // SeekHeads already read
        var targets: [UInt32: [Int64]] = [:]

        func note(seekHead element: EBMLElement) throws {
            guard seen.insert(element.start).inserted else { return }
            let bytes = try MatroskaChapterReader.readData(file, element, maximum: MatroskaChapterReader.maximumIndexSize, what: "SeekHead")
            for (id, position) in try seekEntries(bytes) {
                let (absolute, overflow) = segment.lowerBound.addingReportingOverflow(Int64(clamping: position))
                guard !overflow, absolute < segment.upperBound else { continue }
                if id == MatroskaID.seekHead { seekHeads.append(absolute) } else { targets[id, default: []].append(absolute) }
            }
        }

        var position = segment.lowerBound
        for _ in 0..<MatroskaChapterReader.maximumTopLevelElements {
            guard position < segment.upperBound else { break }
            // A header cut by the end of a truncated file ends the scan; what was found stays.
            // A read that fails is thrown: what it would have found is not known to be absent.
            guard let element = try MediaError.unlessDamaged({ try MatroskaChapterReader.readHeader(file, at: position) }),
                  element.id != MatroskaID.cluster else { break }
            switch element.id {
            case MatroskaID.seekHead: try note(seekHead: element)
            case MatroskaID.info: layout.info = layout.info ?? element
            case MatroskaID.chapters: layout.chapters = layout.chapters ?? element
            default: break
            }
            guard let size = element.size, element.dataStart <= segment.upperBound,
                  size <= UInt64(segment.upperBound - element.dataStart) else { break }
            position = element.dataStart + Int64(size)
        }

        // SeekHeads named by other SeekHeads (one at the front pointing to a second at the end).
        var followed = 0
        while let next = seekHeads.first, followed < 8 {
            seekHeads.removeFirst()
            followed += 1
            if let element = try MediaError.unlessDamaged({ try MatroskaChapterReader.readHeader(file, at: next) }),
               element.id == MatroskaID.seekHead {
                try note(seekHead: element)
            }
        }

        // A seek entry that does not lead to the element it names is skipped, not trusted.
        func located(_ id: UInt32) throws -> EBMLElement? {
            for position in targets[id] ?? [] {
                if let element = try MediaError.unlessDamaged({ try MatroskaChapterReader.readHeader(file, at: position) }),
                   element.id == id { return element }
            }
            return nil
        }
        if layout.info == nil { layout.info = try located(MatroskaID.info) }
        if layout.chapters == nil { layout.chapters = try located(MatroskaID.chapters) }
        return layout
    }

    /// The (SeekID, SeekPosition) pairs of a SeekHead's data.
    static func seekEntries(_ bytes: [UInt8]) throws -> [(id: UInt32, position: UInt64)] {
        var entries: [(id: UInt32, position: UInt64)] = []
        for seek in try EBML.children(of: bytes, in: 0..<bytes.count) where seek.id == MatroskaID.seek {
            var id: UInt32?
            var position: UInt64?
            for field in try EBML.children(of: bytes, in: seek.data) {
                switch field.id {
                case MatroskaID.seekID where field.data.count <= 4: id = UInt32(try EBML.unsigned(bytes, field.data))
                case MatroskaID.seekPosition: position = try EBML.unsigned(bytes, field.data)
                default: break
                }
            }
            if let id, let position { entries.append((id, position)) }
        }
        return entries
    }
}
