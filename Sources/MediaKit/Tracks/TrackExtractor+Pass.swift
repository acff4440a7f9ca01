import CAV
import Glibc

extension TrackExtractor {
    /// Reads the source once, from the start, handing each packet to the sinks of its stream.
    ///
    /// This thread demuxes; a second one (`PacketRelay`) writes the packets to the sinks, so the
    /// two overlap. Stops at the end of the file; at a read error (a damaged file), after which
    /// the sinks complete what they have; when no sink is left working; or past the deadline,
    /// which fails every sink still working with `MediaError.timedOut`.
    ///
    /// A truncated file often just ends (libavformat says end of file, not error): when the audio
    /// and video packets read end well before the duration the container declares, the pass counts
    /// as cut short too.
    /// The corresponding C function is `av_read_frame`.
    func readAll() -> PassEnd {
        var end = PassEnd(cutShort: nil)
        let relay: PacketRelay
        do {
            relay = try PacketRelay()
        } catch {
            failAll(error as? MediaError ?? .library(function: "av_packet_alloc", code: cav_averror(ENOMEM), message: "out of memory"))
            return end
        }
        // Fixed for the pass: a stream whose sinks all failed is left to the writer to skip.
        let wanted = Set(sinks.keys)
        relay.startWriter(name: "track-writer") { [self] packet in
            write(packet)
            return hasWork
        }
        var timedOut = false
        var lastMilliseconds: Int64 = 0
        var lastMediaMilliseconds: Int64?
        let streams = context.pointee.streams
        let fileStart = context.pointee.start_time
        while let packet = relay.nextSlot() {
            if deadline.hasPassed {
                timedOut = true
                break
            }
            let result = av_read_frame(context, packet)
            if result == cav_error_eagain() {
                usleep(1000)
                continue
            }
            if result == cav_error_eof() { break }
            if result < 0 {
                if deadline.hasPassed {
                    timedOut = true
                } else {
                    let seconds = Double(lastMilliseconds) / 1000
                    end.cutShort = "reading stopped after \(seconds) s: \(averrorText(result))"
                }
                break
            }
            let index = Int(packet.pointee.stream_index)
            guard wanted.contains(index) else {
                relay.drop()
                continue
            }
            if let stream = streams?[index] {
                let packetEnd = Self.endMilliseconds(of: packet, in: stream, fileStart: fileStart)
                lastMilliseconds = max(lastMilliseconds, packetEnd)
                let type = stream.pointee.codecpar.pointee.codec_type
                if type == AVMEDIA_TYPE_AUDIO || type == AVMEDIA_TYPE_VIDEO {
                    lastMediaMilliseconds = max(lastMediaMilliseconds ?? 0, packetEnd)
                }
            }
            relay.keep(size: Int(packet.pointee.size))
        }
        relay.end(abandon: timedOut)
        // The writer has returned: the sinks are this thread's again.
        if timedOut { failAll(.timedOut(seconds: deadline.seconds)) }
        let duration = context.pointee.duration
        let declared: Int64? = duration != cav_nopts_value() && duration > 0 ? duration / 1000 : nil
        if end.cutShort == nil, hasWork, let declared, let media = lastMediaMilliseconds,
           media < declared - max(2000, declared / 50) {
            end.cutShort = "the file ends after \(Double(media) / 1000) s of the \(Double(declared) / 1000) s it declares"
        }
        return end
    }

    /// Hands one packet to the sinks of its stream; a sink that throws is dropped, its jobs failed.
    /// Runs on the relay's writer thread during the pass.
    private func write(_ packet: UnsafeMutablePointer<AVPacket>) {
        let index = Int(packet.pointee.stream_index)
        for sink in sinks(of: index) {
            do {
                try sink.consume(packet)
            } catch {
                drop(sink, streamIndex: index, error as? MediaError ?? .trackUnavailable(stream: index, reason: "\(error)"))
            }
        }
    }

    /// Where a packet ends, in milliseconds from the file's start; 0 when it has no time.
    static func endMilliseconds(of packet: UnsafeMutablePointer<AVPacket>, in stream: UnsafeMutablePointer<AVStream>,
                                fileStart: Int64) -> Int64 {
        let none = cav_nopts_value()
        let time = packet.pointee.pts != none ? packet.pointee.pts : packet.pointee.dts
        guard time != none else { return 0 }
        let endTime = time + max(0, packet.pointee.duration)
        let ms = av_rescale_q(endTime, stream.pointee.time_base, AVRational(num: 1, den: 1000))
        return fileStart == none ? ms : ms - fileStart / 1000
    }
}
