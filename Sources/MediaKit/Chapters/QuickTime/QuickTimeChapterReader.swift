/// Reads the chapters of a QuickTime/MP4 file (mov, mp4, m4a, m4b) without libavformat, keeping
/// what it drops: every chapter text track (one language each; libavformat keeps the last read)
/// and the chapter image track's samples (libavformat exposes only the first as `attached_pic`).
///
/// Chapter tracks are the tracks named by a `tref`/`chap` reference (usually from the first
/// audio or video track). The first text track among them gives the chapters' times; each text
/// track adds a title in its language. A video track of JPEG or PNG samples among them holds the
/// chapter images. Without chapter text tracks, the Nero `chpl` list is used.
enum QuickTimeChapterReader {
    /// The largest text sample read: the 16-bit length, 64 KiB of text, and room for a few atoms.
    static let maximumTextSample = 2 + 65_535 + 1_024
    /// The most bytes of text samples read for one track (4 MiB): thousands of chapters with long
    /// titles fit, and a damaged table cannot make the reader read gigabytes.
    static let maximumTextPerTrack = 4 << 20

    /// The chapters of the QuickTime file open in `file`; an empty list when it has none.
    /// - Throws: `MediaError.damaged` where the structure is broken, `.unsupported` for a
    ///   compressed movie header, `.io` when reading fails.
    static func read(_ file: FileReader) throws -> ChapterList {
        let movie = try QuickTimeMovie(file)
        let referenced = movie.chapterTracks
        let textTracks = referenced.filter(\.isText)
        if let primary = textTracks.first {
            var chapters = try timeline(of: primary, in: movie)
            for track in textTracks {
                try addTitles(from: track, to: &chapters, in: movie, file: file)
            }
            if let images = referenced.first(where: { $0.imageCodec != nil }) {
                try addArtwork(from: images, to: &chapters, in: movie)
            }
            if !chapters.isEmpty {
                return ChapterList(source: .quickTimeTracks, editions: [ChapterList.Edition(chapters: chapters)])
            }
        }
        if let nero = movie.nero {
            let chapters = try NeroChapters.chapters(movie.bytes, nero, duration: movie.seconds)
            return ChapterList(source: .neroChpl, editions: chapters.isEmpty ? [] : [ChapterList.Edition(chapters: chapters)])
        }
        return ChapterList(source: .quickTimeTracks, editions: [])
    }

    /// The bytes of `artwork`'s sample.
    /// - Throws: `MediaError.damaged` when the track or the sample is not there.
    static func image(_ file: FileReader, artwork: ChapterList.Artwork) throws -> ChapterImage {
        let movie = try QuickTimeMovie(file)
        guard let track = movie.track(id: artwork.trackID), let codec = track.imageCodec, let table = track.sampleTable else {
            throw MediaError.damaged(reason: "no chapter image track \(artwork.trackID)")
        }
        let samples = try QuickTimeSampleTable.samples(movie.bytes, table)
        guard samples.indices.contains(artwork.sample) else {
            throw MediaError.damaged(reason: "no sample \(artwork.sample) in chapter image track \(artwork.trackID)")
        }
        let sample = samples[artwork.sample]
        let bytes = try file.readExactly(at: sample.offset, count: sample.size, what: "chapter image \(artwork.sample)")
        return ChapterImage(bytes: bytes, codec: codec)
    }

    /// One chapter per sample of `track`, with its time range and no titles yet.
    private static func timeline(of track: QuickTimeTrack, in movie: QuickTimeMovie) throws -> [ChapterList.Chapter] {
        guard track.timescale > 0, let table = track.sampleTable else { return [] }
        let scale = Double(track.timescale)
        return try QuickTimeSampleTable.samples(movie.bytes, table).enumerated().map { index, sample in
            ChapterList.Chapter(uid: UInt64(index + 1), start: Double(sample.time) / scale,
                                end: Double(sample.time + sample.duration) / scale, titles: [])
        }
    }

    /// Adds to each chapter the title `track` shows at the chapter's start, in the track's language.
    private static func addTitles(from track: QuickTimeTrack, to chapters: inout [ChapterList.Chapter],
                                  in movie: QuickTimeMovie, file: FileReader) throws {
        guard track.timescale > 0, let table = track.sampleTable else { return }
        let samples = try QuickTimeSampleTable.samples(movie.bytes, table)
        var budget = maximumTextPerTrack
        for index in chapters.indices {
            guard let sampleIndex = sampleIndex(at: chapters[index].start, chapterIndex: index, in: samples, timescale: track.timescale) else { continue }
            let sample = samples[sampleIndex]
            let count = min(sample.size, maximumTextSample)
            budget -= count
            guard budget >= 0 else {
                throw MediaError.damaged(reason: "chapter text track \(track.id) holds more than \(maximumTextPerTrack) bytes of titles")
            }
            let bytes = try file.read(at: sample.offset, count: count)
            let text = QuickTimeText.decode(bytes)
            if !text.isEmpty {
                chapters[index].titles.append(ChapterList.Title(text: text, languages: track.languages))
            }
        }
    }

    /// Ties each chapter to the image sample shown at its start.
    private static func addArtwork(from track: QuickTimeTrack, to chapters: inout [ChapterList.Chapter],
                                   in movie: QuickTimeMovie) throws {
        guard let codec = track.imageCodec, track.timescale > 0, let table = track.sampleTable else { return }
        let samples = try QuickTimeSampleTable.samples(movie.bytes, table)
        for index in chapters.indices {
            guard let sampleIndex = sampleIndex(at: chapters[index].start, chapterIndex: index, in: samples, timescale: track.timescale),
                  samples[sampleIndex].size > 0 else { continue }
            chapters[index].artwork = ChapterList.Artwork(trackID: track.id, sample: sampleIndex, codec: codec)
        }
    }

    /// The sample for the chapter at `chapterIndex`, starting at `seconds`: the sample with the
    /// same index if it starts then (within a millisecond; this keeps zero-length chapters apart),
    /// else the sample playing at `seconds`, else none. Sample times never decrease, so the
    /// search is binary.
    private static func sampleIndex(at seconds: Double, chapterIndex: Int, in samples: [QuickTimeSample], timescale: UInt32) -> Int? {
        let scale = Double(timescale)
        let tolerance = 0.001
        func start(_ i: Int) -> Double { Double(samples[i].time) / scale }
        if samples.indices.contains(chapterIndex), abs(start(chapterIndex) - seconds) <= tolerance {
            return chapterIndex
        }
        // The last sample that starts at or before `seconds`.
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if start(middle) - tolerance <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = low - 1
        let end = Double(samples[candidate].time + samples[candidate].duration) / scale
        return seconds < end ? candidate : nil
    }
}
