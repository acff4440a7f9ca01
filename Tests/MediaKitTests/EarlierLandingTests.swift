@testable import MediaKit
import Testing

/// `EarlierLanding`: the seeks again after a demuxer landed too late go earlier than the last
/// seek and than where it landed, by 1 s, 4 s, 16 s; four seeks in all, none after one before
/// the stream's start.
@Suite struct EarlierLandingTests {
    /// Every seek `landing` makes where each lands `late` after where it went (nil: no frame).
    static func seeks(_ landing: EarlierLanding, late: Int64?) -> [Int64] {
        var landing = landing
        var seeks = [landing.seekTo]
        while let next = landing.next(landed: late.map { landing.seekTo + $0 }) { seeks.append(next) }
        return seeks
    }

    @Test func stepsBackFourTimesLongerEachTime() {
        let landing = EarlierLanding(first: 100_000, start: 0, oneSecond: 1000)
        #expect(Self.seeks(landing, late: nil) == [100_000, 99_000, 95_000, 79_000])
    }

    @Test func goesBackFromWhereItLandedWhenThatWasEarlier() {
        // Landing 500 before where it went (a keyframe before the time, too early for the
        // caller's purpose): the next seek counts back from there.
        let landing = EarlierLanding(first: 100_000, start: 0, oneSecond: 1000)
        #expect(Self.seeks(landing, late: -500) == [100_000, 98_500, 94_000, 77_500])
        // Landing later than where it went does not move the next seek later.
        #expect(Self.seeks(landing, late: 2000) == [100_000, 99_000, 95_000, 79_000])
    }

    @Test func stopsAfterASeekBeforeTheStart() {
        let landing = EarlierLanding(first: 3000, start: 1000, oneSecond: 1000)
        // 3000, 2000 (not before the start), -2000 (before it): nothing earlier to try.
        #expect(Self.seeks(landing, late: nil) == [3000, 2000, -2000])
    }
}
