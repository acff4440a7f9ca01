import CChromaprint

/// Chromaprint's fingerprinter, `CHROMAPRINT_ALGORITHM_DEFAULT`: the one owner of a
/// `ChromaprintContext`, freed in `deinit`. Takes mono 16-bit samples at its own rate
/// (`sampleRate`, 11,025 a second), which spares it a resampling of its own, and gives the raw
/// fingerprint: a 32-bit item every `itemSamples`, each item summing about `spanSamples` of audio
/// from its start. Used by one thread at a time.
final class Chromaprinter {
    private let context: OpaquePointer
    /// Samples a second it takes.
    let sampleRate: Int
    /// Samples between items.
    let itemSamples: Int
    /// Samples of audio each item sums from its start (`chromaprint_get_delay`): an item changes
    /// as long as any of them does.
    let spanSamples: Int

    /// The corresponding C function is `chromaprint_new`.
    /// - Throws: `MediaError.library` when it cannot be made (out of memory).
    init() throws {
        guard let context = chromaprint_new(Int32(CHROMAPRINT_ALGORITHM_DEFAULT.rawValue)) else {
            throw MediaError.library(function: "chromaprint_new", code: 0, message: "no fingerprinter")
        }
        self.context = context
        sampleRate = Int(chromaprint_get_sample_rate(context))
        itemSamples = Int(chromaprint_get_item_duration(context))
        spanSamples = Int(chromaprint_get_delay(context))
    }

    deinit { chromaprint_free(context) }

    /// Seconds between items.
    var itemSeconds: Double { Double(itemSamples) / Double(sampleRate) }
    /// Seconds of audio each item sums.
    var spanSeconds: Double { Double(spanSamples) / Double(sampleRate) }

    /// Starts a fingerprint of mono audio at `sampleRate`. The corresponding C function is
    /// `chromaprint_start`.
    /// - Throws: `MediaError.library` when it fails.
    func start() throws {
        guard chromaprint_start(context, Int32(sampleRate), 1) == 1 else {
            throw MediaError.library(function: "chromaprint_start", code: 0, message: "cannot start a fingerprint")
        }
    }

    /// Feeds `samples` (mono, at `sampleRate`). The corresponding C function is `chromaprint_feed`.
    /// - Throws: `MediaError.library` when it fails.
    func feed(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        guard chromaprint_feed(context, base, Int32(samples.count)) == 1 else {
            throw MediaError.library(function: "chromaprint_feed", code: 0, message: "cannot fingerprint the audio")
        }
    }

    /// Ends the fingerprint begun by `start()`: its raw items. The corresponding C functions are
    /// `chromaprint_finish`, `chromaprint_get_raw_fingerprint` and `chromaprint_dealloc`.
    /// - Throws: `MediaError.library` when it fails.
    func finish() throws -> [UInt32] {
        guard chromaprint_finish(context) == 1 else {
            throw MediaError.library(function: "chromaprint_finish", code: 0, message: "cannot end the fingerprint")
        }
        var items: UnsafeMutablePointer<UInt32>?
        var count: Int32 = 0
        // Too little audio for one item gives none, and no error: an empty fingerprint.
        guard chromaprint_get_raw_fingerprint(context, &items, &count) == 1, let items else { return [] }
        defer { chromaprint_dealloc(items) }
        return Array(UnsafeBufferPointer(start: items, count: Int(max(0, count))))
    }
}
