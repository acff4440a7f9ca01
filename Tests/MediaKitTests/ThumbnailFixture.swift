import Foundation
import Glibc
@testable import MediaKit
import SystemPackage
import TestSupport

/// One file of the test library, probed, with what a thumbnail request needs.
struct LibraryVideo {
    let file: MediaFile
    let info: MediaInfo
    let video: MediaInfo.Stream

    init(_ relativePath: String) throws {
        let url = try TestMedia.file(relativePath)
        var st = stat()
        guard stat(url.path, &st) == 0 else { throw StoredPNG.Malformed(description: "cannot stat \(url.path)") }
        file = MediaFile(path: FilePath(url.path), size: Int64(st.st_size),
                         modificationNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        info = try Prober.probe(path: FilePath(url.path), size: file.size)
        guard let video = info.streams.first(where: \.isMovingVideo) else {
            throw StoredPNG.Malformed(description: "\(relativePath) has no video")
        }
        self.video = video
    }

    /// The frame's time from its index, for a constant frame rate `rate` (e.g. 25 or 24000/1001).
    func request(_ time: Double, _ pick: FramePick = .exact, box: ThumbnailBox = .width(320)) throws -> ThumbnailRequest {
        guard let size = ThumbnailGeometry.outputSize(of: video, box: box) else {
            throw StoredPNG.Malformed(description: "no size")
        }
        return ThumbnailRequest(streamIndex: video.index, time: time, pick: pick, width: size.width, height: size.height)
    }

    /// A thumbnail from `service`, read back, with the frame index from its strip.
    func thumbnail(_ service: LocalMediaService, at time: Double, _ pick: FramePick = .exact,
                   box: ThumbnailBox = .width(320)) throws -> (thumbnail: Thumbnail, png: StoredPNG, index: Int) {
        let request = try request(time, pick, box: box)
        let thumbnail = try service.thumbnail(of: file, request: request)
        let png = try StoredPNG(thumbnail.bytes)
        let turns = ThumbnailGeometry.clockwiseQuarterTurns(rotation: video.rotation)
        return (thumbnail, png, FrameIndexStrip.read(png, clockwiseQuarterTurns: turns))
    }
}
