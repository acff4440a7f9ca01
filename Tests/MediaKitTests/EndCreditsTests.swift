import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// A film's own credits (`SceneList.endCredits`, `EndCredits`): a roll of names on black and cards
/// of names (a scene after them, then a short card not long enough to be credits) found within
/// half a second at both ends, with and without keyframes where they start;
/// nothing found where a film ends on a lit city at night crushed towards black, on specks on
/// black, or starts with a title card on black.
@Suite(.serialized) struct EndCreditsTests {
    static let missing: String? = {
        do {
            return try CreditsFilms.films().missing
        } catch {
            return "\(error)"
        }
    }()

    static let files: [String] = (try? CreditsFilms.films().films.flatMap(\.files)) ?? []

    @Test(.enabled(if: missing == nil, "the real clips cannot be had: \(missing ?? "")"), arguments: files)
    func creditsOnBlackFoundOrNot(file: String) throws {
        let film = try #require(try CreditsFilms.films().films.first { $0.files.contains(file) })
        let started = Deadline.now()
        let (list, cost) = try SceneDetector(file: try CreditsFilms.mediaFile(file), request: AnalysisRequest(), probed: nil).run()
        let seconds = Double(Deadline.now() - started) / 1e9
        print("credits \(file): \(String(format: "%.3f", seconds)) s, decoded \(cost.decoded) of \(cost.frames) frames; "
              + "found \(list.endCredits ?? []), expected \(film.credits.map { "\($0)" } ?? "none")")
        let found = try #require(list.endCredits)
        guard let truth = film.credits else {
            #expect(found.isEmpty, "\(file): credits found where there are none: \(found)")
            return
        }
        let credits = try #require(found.first, "\(file): the credits at frames \(truth) not found")
        #expect(found.count == 1)
        #expect(credits.kind == .credits && credits.foundBy == .textOnBlack && credits.sharedWith == 0)
        #expect(abs(credits.start - Double(truth[0]) / 25) <= 0.5, "\(file): start \(credits.start) s")
        #expect(abs(credits.end - Double(truth[1]) / 25) <= 0.5, "\(file): end \(credits.end) s")
    }
}

extension EndCreditsTests {
    /// Every frame's tone, as the analysis reads it: no frame of real footage (a lit city at night
    /// crushed towards black among it, and the scene films' shots), of test patterns or of specks
    /// on black is text on black; no frame of the credits is a picture. The cards of text on black
    /// that are not credits (a title first, a card after the scene after the credits) are left out.
    @Test(.enabled(if: missing == nil, "the real clips cannot be had: \(missing ?? "")"))
    func everyFrameOfTheCreditsIsDarkAndNoFrameOfAPictureIsText() throws {
        var pictures = 0, credits = 0
        for film in try CreditsFilms.films().films {
            let file = film.files[0]
            let tones = try Self.tones(of: try CreditsFilms.mediaFile(file))
            #expect(tones.count == film.frames, "\(file)")
            for (frame, tone) in tones {
                if let truth = film.credits, frame >= truth[0], frame < truth[1] {
                    credits += 1
                    #expect(tone.isDark, "\(file): frame \(frame) of the credits taken for a picture")
                } else if !film.otherText.contains(where: { frame >= $0[0] && frame < $0[1] }) {
                    pictures += 1
                    #expect(tone != .textOnBlack, "\(file): frame \(frame) taken for text on black")
                }
            }
        }
        // The scene films: shots of every real clip and of test patterns, none of them text.
        for film in try SceneFilms.films().films {
            for (frame, tone) in try Self.tones(of: try SceneFilms.mediaFile(film.files[0])) {
                pictures += 1
                #expect(tone != .textOnBlack, "\(film.files[0]): frame \(frame) taken for text on black")
            }
        }
        print("tones: \(credits) frames of credits, \(pictures) frames of pictures")
    }

    /// The tone of every frame of `file`, by number, each group of pictures decoded whole.
    static func tones(of file: MediaFile) throws -> [Int: PictureTone] {
        let session = try SceneDetector(file: file, request: AnalysisRequest(), probed: nil).openSession()
        let pictures = PictureMaker()
        let survey = try StreamSurvey(session, pictures: pictures) { _ in }
        var tones: [Int: PictureTone] = [:]
        for (index, key) in survey.keyframes.enumerated() {
            let end = index + 1 < survey.keyframes.count ? survey.keyframes[index + 1] - 1 : survey.times.count - 1
            let group = try session.groupPictures(key...end, exactFrom: key, survey: survey, pictures: pictures) { PictureTone(of: $0) }
            tones.merge(group) { kept, _ in kept }
        }
        return tones
    }
}
