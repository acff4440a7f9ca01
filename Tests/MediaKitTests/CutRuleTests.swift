@testable import MediaKit
import Testing

/// `CutRule` on steps made by hand: a cut stands out from the changes around it, also where the
/// film holds each picture for several frames (a slow camera's clip, animation on twos), and two
/// cuts either side of a still shot are each found.
@Suite struct CutRuleTests {
    /// Steps of `frames` frames: `change` at every `every`th frame (a new picture), a decoder's
    /// noise between, and `special` at the frames given.
    static func steps(frames: Int, every: Int, change: Double, special: [Int: Double]) -> [Int: Double] {
        var steps: [Int: Double] = [:]
        for frame in 1..<frames { steps[frame] = frame % every == 0 ? change : 0.000_01 }
        steps.merge(special) { _, new in new }
        return steps
    }

    @Test func aPictureHeldForFramesIsComparedWithTheChangesOfPictureAroundIt() {
        let rule = CutRule()
        // A 2.5 fps clip at 25 fps: a new picture every tenth frame, each 0.4 s of motion on.
        let motion = Self.steps(frames: 120, every: 10, change: 0.002, special: [60: 0.0056])
        #expect(rule.cuts(in: motion).isEmpty, "a change 2.8 times the changes either side is motion")
        let cut = Self.steps(frames: 120, every: 10, change: 0.002, special: [60: 0.009])
        #expect(rule.cuts(in: cut).map(\.frame) == [60])
        // Animation on twos: a cut among drawings.
        let twos = Self.steps(frames: 60, every: 2, change: 0.004, special: [30: 0.05])
        #expect(rule.cuts(in: twos).map(\.frame) == [30])
        // Pictures held longer than a cadence (a slide show) are each a shot of their own.
        let held = Self.steps(frames: 200, every: 60, change: 0.002, special: [120: 0.0056])
        #expect(rule.cuts(in: held).map(\.frame) == [120])
    }

    @Test func aCutStandsOutFromMotionAtEveryFrame() {
        let rule = CutRule()
        let motion = Self.steps(frames: 60, every: 1, change: 0.003, special: [30: 0.0072])
        #expect(rule.cuts(in: motion).isEmpty)
        let cut = Self.steps(frames: 60, every: 1, change: 0.003, special: [30: 0.008])
        #expect(rule.cuts(in: cut).map(\.frame) == [30])
        #expect(rule.cuts(in: [30: 0.05]).map(\.frame) == [], "alone, a step must be as large as `alone`")
        #expect(rule.cuts(in: [30: 0.09]).map(\.frame) == [30])
    }

    @Test func theCutsEitherSideOfAStillShotAreBothFound() {
        // A moving shot, a cut to a still picture held about a second, a cut to a shot whose
        // first step is large (a game of life's first generation) and which moves on.
        var steps: [Int: Double] = [:]
        for frame in 1..<50 { steps[frame] = 0.007 }
        steps[50] = 0.21
        for frame in 51..<77 { steps[frame] = 0.000_01 }
        steps[77] = 0.18
        steps[78] = 0.065
        for frame in 79..<120 { steps[frame] = 0.008 }
        let cuts = CutRule().cuts(in: steps)
        #expect(cuts.map(\.frame) == [50, 77])
        // The same, the still shot held for eight frames (a short black between two shots).
        for frame in 58..<77 { steps[frame] = nil }
        var shorter: [Int: Double] = [:]
        for (frame, step) in steps { shorter[frame < 58 ? frame : frame - 19] = step }
        #expect(CutRule().cuts(in: shorter).map(\.frame) == [50, 58])
    }

    @Test func aCutAfterAStillPictureIsFound() {
        // A title card held two seconds, then a shot that moves.
        var steps: [Int: Double] = [:]
        for frame in 1..<50 { steps[frame] = 0.000_01 }
        steps[50] = 0.04
        for frame in 51..<100 { steps[frame] = 0.002 }
        let cuts = CutRule().cuts(in: steps)
        #expect(cuts.map(\.frame) == [50])
        #expect(cuts.first.map { abs($0.strength - 0.16) < 1e-9 } == true)
    }
}
