import Foundation
@testable import MediaKit
@testable import MediaTree
import Synchronization
import SystemPackage
import Testing
import TestSupport

/// The representative frame (`RepresentativeFrameRecipe`): the keyframe nearest a third of the
/// film, or a later try where that one is almost black.
@Suite struct RepresentativeFrameTests {
    /// Answers the first thumbnail asked for as black, and notes every time asked for.
    final class DarkFirstFrame: ForwardingMediaService {
        let base: any MediaService = LocalMediaService(probeTimeout: 20)
        let asked = Mutex<[Double]>([])

        func thumbnail(of file: MediaFile, request: ThumbnailRequest) throws -> Thumbnail {
            var made = try base.thumbnail(of: file, request: request)
            if asked.withLock({ $0.append(request.time); return $0.count }) == 1 { made.meanLuma = 0 }
            return made
        }
    }

    @Test func aThirdOfTheWayThroughElseTheNextLitOne() throws {
        let url = try TestMedia.file("feature-1080p.mp4")
        let size = Int64(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int)
        let media = DarkFirstFrame()
        let info = try media.probe(path: FilePath(url.path), size: size)
        let recipe = try #require(RepresentativeFrameRecipe(info: info))
        let duration = try #require(info.container.duration)
        #expect(recipe.requests.map(\.time).map { ($0 / duration * 100).rounded() } == [33, 40, 50, 60, 25])
        #expect(recipe.requests.allSatisfy { $0.pick == .nearestKeyframe && $0.format == .jpeg && $0.width <= 1920 })
        let file = MediaFile(path: FilePath(url.path), size: size, modificationNanoseconds: 0)
        let made = try recipe.make(from: file, media: media)
        // The third was black: the frame is the keyframe nearest 40 %.
        #expect(media.asked.withLock { $0 } == Array(recipe.requests.map(\.time).prefix(2)))
        let second = try LocalMediaService().thumbnail(of: file, request: recipe.requests[1])
        #expect(made.bytes == second.bytes && made.bytes.count == recipe.size)
        #expect(made.frame?.time == second.frameTime && made.frame?.isKeyframe == true)
    }
}
