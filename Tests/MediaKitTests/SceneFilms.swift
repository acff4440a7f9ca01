import Foundation
@testable import MediaKit
import TestSupport

/// The films of `bench/scene_films.py`, made the first time a test asks (in
/// `.build/test-media/scenes`, kept while its recipe holds): shots of real clips from Debian
/// packages (fetched with `apt-get download` into `.build/test-media/footage`) and of lavfi test
/// patterns, joined at known frames by hard cuts (jump cuts among them), a dissolve and a fade
/// through black, each encoded with libx264's defaults and with a fixed GOP.
enum SceneFilms {
    struct Film: Decodable {
        var name: String
        var files: [String]
        var frames: Int
        var cuts: [Int]
    }

    struct Made: Decodable {
        var films: [Film]
        /// Why the real clips could not be had (the test-pattern film is made all the same).
        var missing: String?
    }

    static let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/scenes")
    private static let made = Result { try make() }

    static func films() throws -> Made { try made.get() }

    static func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    static func mediaFile(_ file: String) throws -> MediaFile { try mediaFile(atPath: path(file)) }

    /// The file at `path` as the media service takes it: its size and modification time read now.
    static func mediaFile(atPath path: String) throws -> MediaFile {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes[.modificationDate] as! Date).timeIntervalSince1970
        return MediaFile(path: .init(path), size: (attributes[.size] as! NSNumber).int64Value,
                         modificationNanoseconds: Int64(modified * 1e9))
    }

    private static func make() throws -> Made {
        let script = TestMedia.packageRoot.appendingPathComponent("bench/scene_films.py").path
        let result = try Command.run(["python3", script, folder.path], timeout: 900)
        guard result.succeeded else { throw FFmpegFrames.Failed(description: "bench/scene_films.py: \(result)") }
        return try JSONDecoder().decode(Made.self, from: Data(contentsOf: folder.appendingPathComponent("films.json")))
    }
}
