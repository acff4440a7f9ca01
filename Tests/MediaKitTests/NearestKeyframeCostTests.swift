@testable import MediaKit
import Testing
import TestSupport

/// What a nearest-keyframe thumbnail costs where the index lists the keyframes (MP4, Matroska,
/// WebM): one keyframe decoded, before or after the time, whichever is nearer; and the same
/// answer as a search decoding keyframes forward.
@Suite struct NearestKeyframeCostTests {
    /// (file, time, the nearest keyframe's frame index): the keyframe before the time, the one
    /// after it, and a time just past the middle of a GOP.
    @Test(arguments: [
        ("feature-1080p.mp4", 0.9, 0), ("feature-1080p.mp4", 1.1, 50), ("feature-1080p.mp4", 25.5, 650),
        ("movie-1080p.mkv", 1.0, 0), ("movie-1080p.mkv", 1.5, 48), ("movie-1080p.mkv", 25.0, 576),
        ("clips/clip-vp9.webm", 0.4, 0), ("clips/clip-vp9.webm", 1.2, 60),
    ])
    func oneKeyframeIsDecoded(path: String, time: Double, expected: Int) throws {
        let video = try LibraryVideo(path)
        let service = LocalMediaService()
        let (thumbnail, _, index) = try video.thumbnail(service, at: time, .nearestKeyframe)
        #expect(index == expected)
        #expect(thumbnail.isKeyframe)
        #expect(service.thumbnails.statistics.framesDecoded == 1, "at \(time) in \(path)")
    }

    /// Times 0.7 s apart up to the small feature's last keyframe (keyframes 2 s apart, so the
    /// times fall all over the GOPs): each answer is the keyframe nearest by the frames' own times.
    @Test func everyAnswerIsTheNearestKeyframe() throws {
        let video = try LibraryVideo("feature-1080p.mp4")  // 25 fps, a keyframe every 50 frames
        let service = LocalMediaService()
        for step in 0..<40 {
            let time = 0.05 + Double(step) * 0.7  // never halfway between two keyframes
            let (_, _, index) = try video.thumbnail(service, at: time, .nearestKeyframe)
            let before = Int(time * 25) / 50 * 50
            let expected = Double(before + 50) / 25 - time < time - Double(before) / 25 ? before + 50 : before
            #expect(index == expected, "at \(time)")
        }
    }
}
