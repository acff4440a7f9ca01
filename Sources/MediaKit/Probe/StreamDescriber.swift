import CAV

/// Turns an `AVStream` into a `MediaInfo.Stream`.
enum StreamDescriber {
    static func describe(_ stream: UnsafeMutablePointer<AVStream>) -> MediaInfo.Stream {
        let s = stream.pointee
        let par = s.codecpar.pointee
        let tags = Metadata.dictionary(s.metadata)
        let kind = kind(par.codec_type)
        let timeBase = av_q2d(s.time_base)
        var result = MediaInfo.Stream(
            index: Int(s.index), kind: kind,
            codec: par.codec_id == AV_CODEC_ID_NONE ? nil : String(cString: avcodec_get_name(par.codec_id)),
            codecLongName: avcodec_descriptor_get(par.codec_id).flatMap { $0.pointee.long_name.map { String(cString: $0) } },
            profile: avcodec_profile_name(par.codec_id, par.profile).map { String(cString: $0) },
            bitRate: par.bit_rate > 0 ? par.bit_rate : nil,
            startTime: s.start_time == cav_nopts_value() ? nil : Prober.microseconds(Double(s.start_time) * timeBase),
            duration: s.duration == cav_nopts_value() ? nil : Prober.microseconds(Double(s.duration) * timeBase),
            frameCount: s.nb_frames > 0 ? s.nb_frames : nil,
            language: tags["language"],
            title: tags["title"],
            disposition: dispositionNames(s.disposition),
            tags: tags)
        if s.disposition & AV_DISPOSITION_ATTACHED_PIC != 0, s.attached_pic.size > 0 {
            result.attachedPictureSize = Int(s.attached_pic.size)
        }
        switch kind {
        case .video:
            result.width = Int(par.width)
            result.height = Int(par.height)
            if let sar = ratio(par.sample_aspect_ratio), sar != "1:1" { result.sampleAspectRatio = sar }
            result.displayAspectRatio = displayAspect(width: par.width, height: par.height, sar: par.sample_aspect_ratio)
            if par.format >= 0, let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)) {
                result.pixelFormat = String(cString: name)
            }
            result.rotation = rotation(stream)
            describeColor(stream, into: &result)
            result.frameRate = fraction(s.r_frame_rate)
            result.averageFrameRate = fraction(s.avg_frame_rate)
        case .audio:
            result.sampleRate = Int(par.sample_rate)
            var layout = par.ch_layout
            result.channels = Int(layout.nb_channels)
            var buffer = [CChar](repeating: 0, count: 64)
            if av_channel_layout_describe(&layout, &buffer, buffer.count) >= 0 {
                result.channelLayout = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        default:
            break
        }
        return result
    }

    static func kind(_ type: AVMediaType) -> MediaInfo.Kind {
        switch type {
        case AVMEDIA_TYPE_VIDEO: return .video
        case AVMEDIA_TYPE_AUDIO: return .audio
        case AVMEDIA_TYPE_SUBTITLE: return .subtitle
        case AVMEDIA_TYPE_DATA: return .data
        case AVMEDIA_TYPE_ATTACHMENT: return .attachment
        default: return .unknown
        }
    }

    /// The names of the set disposition bits. The corresponding C function is `av_disposition_to_string`.
    static func dispositionNames(_ disposition: Int32) -> [String] {
        (0..<31).compactMap { bit -> String? in
            let flag = Int32(1) << Int32(bit)
            guard disposition & flag != 0, let name = av_disposition_to_string(flag) else { return nil }
            return String(cString: name)
        }
    }

    /// Rotation in degrees from the stream's display matrix, as ffprobe reports it.
    /// The corresponding C function is `av_display_rotation_get`.
    static func rotation(_ stream: UnsafeMutablePointer<AVStream>) -> Double? {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
              size >= 9 * MemoryLayout<Int32>.size else { return nil }
        let degrees = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        return degrees.isNaN ? nil : degrees
    }

    static func fraction(_ q: AVRational) -> String? {
        q.num > 0 && q.den > 0 ? "\(q.num)/\(q.den)" : nil
    }

    static func ratio(_ q: AVRational) -> String? {
        q.num > 0 && q.den > 0 ? "\(q.num):\(q.den)" : nil
    }

    static func displayAspect(width: Int32, height: Int32, sar: AVRational) -> String? {
        guard width > 0, height > 0 else { return nil }
        let sarNum = sar.num > 0 && sar.den > 0 ? Int64(sar.num) : 1
        let sarDen = sar.num > 0 && sar.den > 0 ? Int64(sar.den) : 1
        var num = Int64(width) * sarNum, den = Int64(height) * sarDen
        let g = gcd(num, den)
        num /= g; den /= g
        return "\(num):\(den)"
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
}
