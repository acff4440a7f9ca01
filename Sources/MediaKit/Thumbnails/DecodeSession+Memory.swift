import CAV

/// What a session holds: a decoder or none (asleep: `sleep()`, `wake(threads:)`), and the memory
/// that takes.
extension DecodeSession {
    /// Whether the decoder is open.
    var isAwake: Bool { openDecoder != nil }

    /// Threads of the open decoder (0 asleep).
    var threads: Int { openDecoder?.threads ?? 0 }

    /// The bytes the decoder's frames and tables take, as far as libavcodec lets them be
    /// estimated (`DecodeMemory`), for a decoder of `threads` threads, or the one open.
    func memoryEstimate(threads: Int? = nil) -> Int {
        DecodeMemory.estimate(stream: stream, decoder: openDecoder?.context,
                              threads: threads ?? max(1, self.threads), threading: key.pick.threading)
    }

    /// Frees the decoder and every frame (nearly all the session's memory); the file stays open.
    /// The next request seeks.
    func sleep() {
        shown = nil
        next = nil
        spare = nil
        openDecoder = nil
        needsSeek = true
    }

    /// Opens a decoder with `threads` threads if the session sleeps; the next request seeks.
    /// - Throws: `MediaError.damaged` (no decoder), `.library`.
    func wake(threads: Int) throws {
        guard openDecoder == nil else { return }
        openDecoder = try VideoDecoder(stream: stream, threading: key.pick.threading, threads: threads)
        needsSeek = true
    }

    /// `wake(threads:)` with the threads `reservation` allows its decoder, whose frame threads
    /// would take more than it reserved (`Reservation.decoderThreads(growth:)`).
    func wake(under reservation: DecodeSessionPool.Reservation) throws {
        try wake(threads: reservation.decoderThreads(growth: memoryEstimate(threads: VideoDecoder.maxThreads) - reservation.bytes))
    }
}

extension FramePick {
    /// How a decoder for such requests spreads over threads (see `DecodeSession.Key.pick`).
    var threading: VideoDecoder.Threading { self == .exact ? .frames : .slices }
}
