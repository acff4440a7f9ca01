/// The words a track's file name is made of: codec display names, channel layouts, flags, and
/// which subtitle codecs are text and which are pictures.
enum TrackLabels {
    /// The name people know a codec by (`AC-3`, `Timed Text`), from libavcodec's short name; an
    /// unknown codec keeps its short name.
    static func codecName(_ codec: String) -> String {
        if codec.hasPrefix("pcm_") { return "PCM" }
        return codecNames[codec] ?? codec
    }

    private static let codecNames: [String: String] = [
        // audio
        "aac": "AAC", "ac3": "AC-3", "eac3": "E-AC-3", "dts": "DTS", "opus": "Opus",
        "vorbis": "Vorbis", "flac": "FLAC", "mp3": "MP3", "mp2": "MP2", "truehd": "TrueHD",
        "mlp": "MLP", "alac": "ALAC", "wmav2": "WMA",
        // subtitles
        "subrip": "SRT", "srt": "SRT", "ass": "ASS", "ssa": "SSA", "mov_text": "Timed Text",
        "webvtt": "WebVTT", "text": "Text", "hdmv_pgs_subtitle": "PGS", "dvd_subtitle": "VobSub",
        "dvb_subtitle": "DVB", "xsub": "XSUB",
        // video (alternative angles)
        "h264": "H.264", "hevc": "HEVC", "vp8": "VP8", "vp9": "VP9", "av1": "AV1",
        "mpeg2video": "MPEG-2", "mpeg4": "MPEG-4", "mjpeg": "MJPEG", "prores": "ProRes",
    ]

    /// `mono`, `stereo`, `5.1`, `7.1`, or `N ch`; nil when the channel count is unknown.
    /// - Parameters:
    ///   - layout: libavutil's description of the layout (`5.1(side)`, `stereo`, `6 channels`).
    static func channels(count: Int?, layout: String?) -> String? {
        if let layout {
            if layout.hasPrefix("5.1") { return "5.1" }
            if layout.hasPrefix("7.1") { return "7.1" }
        }
        guard let count, count > 0 else { return nil }
        switch count {
        case 1: return "mono"
        case 2: return "stereo"
        default: return "\(count) ch"
        }
    }

    /// Text subtitle codecs that libavcodec decodes to ASS events, converted to SRT and WebVTT.
    static let textSubtitleCodecs: Set<String> = ["subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"]
    /// Text subtitle codecs that are also given as they are, as `.ass`.
    static let assSubtitleCodecs: Set<String> = ["ass", "ssa"]
    /// Picture subtitle codecs, remuxed: PGS as `.sup`, the others into Matroska (`.mks`).
    static let bitmapSubtitleCodecs: Set<String> = ["hdmv_pgs_subtitle", "dvd_subtitle", "dvb_subtitle", "xsub"]

    /// The flags shown in a name, in this order, by libavformat's disposition names.
    static let flags: [(disposition: String, shown: String)] = [
        ("default", "default"), ("forced", "forced"), ("hearing_impaired", "SDH"),
        ("comment", "commentary"), ("visual_impaired", "visual impaired"),
    ]
}
