/// What a track job makes of its stream: a remux into a container, or a subtitle format.
public enum TrackOutput: String, Codable, Sendable, CaseIterable {
    /// Audio remuxed into Matroska without re-encoding.
    case audioMatroska
    /// Video remuxed into Matroska without re-encoding.
    case videoMatroska
    /// Text subtitles decoded and written as SubRip.
    case subtitleSRT
    /// Text subtitles decoded and written as WebVTT.
    case subtitleWebVTT
    /// ASS/SSA subtitles as they are, header and events.
    case subtitleASS
    /// PGS picture subtitles remuxed as a raw SUP stream.
    case bitmapSUP
    /// Other picture subtitles (VobSub, DVB) remuxed into Matroska.
    case bitmapMatroska
    /// DVD subtitles (VobSub) as the `.sub` of a VobSub pair: the packets in MPEG-2 program
    /// stream packs, as mkvextract writes them (`VobSubSink`).
    case vobSubPictures
    /// DVD subtitles (VobSub) as the `.idx` of a VobSub pair: the header (size, palette) and
    /// each packet's time and place in the `.sub`.
    case vobSubIndex
    /// Picture subtitles (PGS, DVD, DVB, XSUB) read into text with Tesseract, written as SubRip:
    /// every event, its times the picture's (`PictureTextSink`).
    case subtitleSRTReadFromPictures
    /// The same, the events marked forced only; a stream without forced events gives none
    /// (`MediaError.trackUnavailable`).
    case subtitleSRTReadFromPicturesForced

    /// The libavformat muxer of the outputs that are remuxed; nil for the converted subtitles and
    /// the VobSub pair and the text read from pictures, which MediaKit writes itself.
    var muxerName: String? {
        switch self {
        case .audioMatroska, .videoMatroska, .bitmapMatroska: return "matroska"
        case .subtitleASS: return "ass"
        case .bitmapSUP: return "sup"
        case .subtitleSRT, .subtitleWebVTT, .vobSubPictures, .vobSubIndex,
             .subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced: return nil
        }
    }
}
