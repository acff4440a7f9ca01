import SystemPackage

/// `MediaService.episodeAudio(of:request:)`: Chromaprint's raw fingerprints of a file's first
/// audio stream over its head and its tail (`SegmentWindows`), each timed on the video's clock.
enum EpisodeFingerprinter {
    /// The fingerprints of `file`'s head and tail; nil where it has no audio stream.
    /// - Throws: `MediaError`: `.unreadable` when a read failed (no fingerprint is given short),
    ///   `.timedOut` past `request.timeout`, `.notMedia`, `.sourceChanged`, `.damaged`, `.library`.
    static func fingerprints(of file: MediaFile, request: AnalysisRequest) throws -> EpisodeAudio? {
        let deadline = Deadline(seconds: request.timeout)
        guard let reader = try AudioReader(file: file, deadline: deadline, pause: request.pause) else { return nil }
        let printer = try Chromaprinter()
        let head = SegmentWindows.head(duration: reader.duration)
        let tail = SegmentWindows.tail(duration: reader.duration)
        let total = max(1e-9, (head.upperBound - head.lowerBound) + (tail.upperBound - tail.lowerBound))
        var done = 0.0
        func fingerprint(_ window: ClosedRange<Double>) throws -> AudioFingerprint {
            try printer.start()
            var start: Double?
            try reader.read(from: window.lowerBound, to: window.upperBound, rate: Int32(printer.sampleRate)) {
                (time: Double, samples: UnsafeBufferPointer<Int16>) in
                if start == nil { start = time }
                try printer.feed(samples)
                done += Double(samples.count) / Double(printer.sampleRate)
                request.progress(min(1, done / total))
            }
            return AudioFingerprint(start: start ?? window.lowerBound, itemSeconds: printer.itemSeconds,
                                    items: try printer.finish())
        }
        let audio = EpisodeAudio(head: try fingerprint(head), tail: try fingerprint(tail), duration: reader.duration)
        request.progress(1)
        return audio
    }
}
