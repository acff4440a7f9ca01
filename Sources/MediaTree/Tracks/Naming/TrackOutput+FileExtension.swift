import MediaKit

extension TrackOutput {
    /// The file name extension of an entry made this way, with its dot. Every one is four bytes long
    /// (`TrackPlan.maxBaseBytes` counts on it).
    var fileExtension: String {
        switch self {
        case .audioMatroska: return ".mka"
        case .videoMatroska: return ".mkv"
        case .subtitleSRT, .subtitleSRTReadFromPictures, .subtitleSRTReadFromPicturesForced: return ".srt"
        case .subtitleWebVTT: return ".vtt"
        case .subtitleASS: return ".ass"
        case .bitmapSUP: return ".sup"
        case .bitmapMatroska: return ".mks"
        case .vobSubPictures: return ".sub"
        case .vobSubIndex: return ".idx"
        }
    }
}
