import Foundation
@testable import MediaKit
import TestSupport

/// The films of `bench/credits_films.py`, made the first time a test asks (in
/// `.build/test-media/credits`, kept while their recipe holds): shots of the real clips that end
/// in a roll of names on black, in cards of names with a scene after them, or in what could be
/// taken for credits and is not (a lit city at night crushed towards black, specks on black), and
/// one with a title card on black first; each encoded with libx264's defaults and a fixed GOP.
enum CreditsFilms {
    struct Film: Decodable {
        var name: String
        var files: [String]
        var frames: Int
        /// The credits' first frame and the first frame after them; nil for a film without.
        var credits: [Int]?
        /// Cards of text on black that are not credits (a title first, a card after a scene after
        /// the credits), each as its first frame and the first frame after.
        var otherText: [[Int]]
    }

    struct Made: Decodable {
        var films: [Film]
        /// Why the real clips could not be had (then no film is made).
        var missing: String?
    }

    static let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/credits")
    private static let made = Result { try make() }

    static func films() throws -> Made { try made.get() }

    static func mediaFile(_ file: String) throws -> MediaFile {
        try SceneFilms.mediaFile(atPath: folder.appendingPathComponent(file).path)
    }

    private static func make() throws -> Made {
        let script = TestMedia.packageRoot.appendingPathComponent("bench/credits_films.py").path
        let result = try Command.run(["python3", script, folder.path], timeout: 900)
        guard result.succeeded else { throw FFmpegFrames.Failed(description: "bench/credits_films.py: \(result)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Made.self, from: Data(contentsOf: folder.appendingPathComponent("credits.json")))
    }
}
