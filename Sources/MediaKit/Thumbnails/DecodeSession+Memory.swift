import CAV

/// What a session holds: a decoder or none (asleep), and the memory that takes.
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
}
