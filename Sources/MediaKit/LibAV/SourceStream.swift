import CAV

/// A stream of the open input as the track outputs see it: its parameters, and the shift that
/// makes its times relative to the start of the file.
///
/// Times are shifted as the ffmpeg command shifts them: by the file's start time, so a track
/// starts where it starts in the file (an AC-3 track 16 ms after the video stays 16 ms after 0)
/// and the subtitles line up with the original as players show it.
struct SourceStream {
    /// Valid while the `InputFile` it came from is alive; the extractor keeps both.
    let stream: UnsafeMutablePointer<AVStream>
    let index: Int
    let timeBase: AVRational
    /// The file's start time in this stream's time base, subtracted from every timestamp.
    let offset: Int64
    let language: String
    let title: String?

    init(stream: UnsafeMutablePointer<AVStream>, fileStart: Int64, language: String) {
        self.stream = stream
        self.index = Int(stream.pointee.index)
        self.timeBase = stream.pointee.time_base
        self.offset = fileStart == cav_nopts_value() ? 0 : av_rescale_q(fileStart, cav_time_base_q(), stream.pointee.time_base)
        self.language = language
        self.title = Metadata.dictionary(stream.pointee.metadata)["title"]
    }

    var codecParameters: UnsafeMutablePointer<AVCodecParameters> { stream.pointee.codecpar }
}
