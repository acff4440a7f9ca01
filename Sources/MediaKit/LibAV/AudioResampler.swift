import CAV

/// Decoded audio frames brought to one channel at one rate, as 16-bit or float samples: the one
/// owner of a `SwrContext`, freed in `deinit`. Made for the frames' format (`matches(_:)`); a
/// frame of another format (a stream that changes mid-way) needs another resampler.
/// Used by one thread at a time.
final class AudioResampler {
    /// The sample format given out: `AV_SAMPLE_FMT_S16` (Chromaprint's) or `AV_SAMPLE_FMT_FLT`.
    let format: AVSampleFormat
    /// Samples a second given out.
    let rate: Int32
    private let context: OpaquePointer
    private let inputRate: Int32
    private let inputFormat: Int32
    private var inputLayout = AVChannelLayout()
    /// Where `convert` writes, grown as frames need.
    private var scratch = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
    private var scratchBytes = 16

    /// A resampler from `frame`'s format, rate and channels to mono at `rate` in `format`.
    /// The corresponding C functions are `swr_alloc_set_opts2` and `swr_init`.
    /// - Throws: `MediaError.library` when libswresample takes neither.
    init(from frame: Frame, rate: Int32, format: AVSampleFormat) throws {
        let f = frame.pointer
        var mono = AVChannelLayout()
        av_channel_layout_default(&mono, 1)
        var input = AVChannelLayout()
        // A frame without a layout (a decoder that gives only a count) is taken in the default order.
        if f.pointee.ch_layout.nb_channels > 0 && f.pointee.ch_layout.order != AV_CHANNEL_ORDER_UNSPEC {
            try check(av_channel_layout_copy(&input, &f.pointee.ch_layout), "av_channel_layout_copy")
        } else {
            av_channel_layout_default(&input, max(1, f.pointee.ch_layout.nb_channels))
        }
        var made: OpaquePointer?
        let set = swr_alloc_set_opts2(&made, &mono, format, rate, &input, AVSampleFormat(f.pointee.format),
                                      f.pointee.sample_rate, 0, nil)
        guard set >= 0, let made else {
            av_channel_layout_uninit(&input)
            throw MediaError.library(function: "swr_alloc_set_opts2", code: set, message: averrorText(set))
        }
        let initialised = swr_init(made)
        guard initialised >= 0 else {
            var owned: OpaquePointer? = made
            swr_free(&owned)
            av_channel_layout_uninit(&input)
            throw MediaError.library(function: "swr_init", code: initialised, message: averrorText(initialised))
        }
        context = made
        self.format = format
        self.rate = rate
        inputRate = f.pointee.sample_rate
        inputFormat = f.pointee.format
        inputLayout = input
    }

    deinit {
        var owned: OpaquePointer? = context
        swr_free(&owned)
        av_channel_layout_uninit(&inputLayout)
        scratch.deallocate()
    }

    /// Whether `frame` has the format, rate and channels this resampler was made for.
    func matches(_ frame: Frame) -> Bool {
        let f = frame.pointer
        var layout = f.pointee.ch_layout
        return f.pointee.sample_rate == inputRate && f.pointee.format == inputFormat
            && (layout.order == AV_CHANNEL_ORDER_UNSPEC ? layout.nb_channels == inputLayout.nb_channels
                : av_channel_layout_compare(&layout, &inputLayout) == 0)
    }

    /// `frame`'s samples converted (nil: what the filter still holds, at the end), in a buffer of
    /// the resampler's valid until its next call; `Sample` must be of the resampler's `format`.
    /// The first samples come out a filter's length later; none is lost, and the output stays on
    /// the input's clock. The corresponding C functions are `swr_get_out_samples` and `swr_convert`.
    /// - Throws: `MediaError.library` when the conversion fails.
    func convert<Sample: ResampledSample>(_ frame: Frame?) throws -> UnsafeBufferPointer<Sample> {
        precondition(Sample.sampleFormat == format, "samples of another format than the resampler's")
        let count = frame.map { Int($0.pointer.pointee.nb_samples) } ?? 0
        let room = Int(swr_get_out_samples(context, Int32(count)))
        guard room > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        let bytes = room * MemoryLayout<Sample>.stride
        if bytes > scratchBytes {
            scratch.deallocate()
            scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
            scratchBytes = bytes
        }
        var out: UnsafeMutablePointer<UInt8>? = scratch.assumingMemoryBound(to: UInt8.self)
        let written: Int32
        if let frame {
            let channels = Int(max(1, frame.pointer.pointee.ch_layout.nb_channels))
            written = frame.pointer.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: channels) {
                swr_convert(context, &out, Int32(room), $0, Int32(count))
            }
        } else {
            written = swr_convert(context, &out, Int32(room), nil, 0)
        }
        guard written >= 0 else {
            throw MediaError.library(function: "swr_convert", code: written, message: averrorText(written))
        }
        return UnsafeBufferPointer(start: scratch.bindMemory(to: Sample.self, capacity: Int(written)), count: Int(written))
    }
}

/// A sample type `AudioResampler` gives out, and the libswresample format it is.
protocol ResampledSample {
    static var sampleFormat: AVSampleFormat { get }
    init()
}

extension Int16: ResampledSample {
    static var sampleFormat: AVSampleFormat { AV_SAMPLE_FMT_S16 }
}

extension Float: ResampledSample {
    static var sampleFormat: AVSampleFormat { AV_SAMPLE_FMT_FLT }
}
