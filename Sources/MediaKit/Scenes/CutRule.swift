/// Where the change from one frame to the next is a hard cut: a step that stands out from the
/// changes around it. A dissolve or a fade changes the picture as much, but spread over many
/// frames, each step like its neighbours; motion changes it a little at every frame. A cut is
/// one step several times any of its neighbours' (two frames either side), and large enough not
/// to be noise.
///
/// A film of fewer pictures a second than it has frames (animation drawn on twos or threes, a
/// slow camera's clip taken to 25 fps) holds each picture for a few frames: the steps between
/// them are nothing, and every change of picture would stand out from those. Where the changes
/// of picture on one side keep such a cadence, the nearest two are neighbours too: each holds as
/// much motion as the step does. A still shot between two cuts (black, a title) keeps none: the
/// cut after it is no neighbour of the cut before.
struct CutRule {
    /// The least step (`PictureSignature.distance`) that may be a cut.
    var least = 0.005
    /// How many times its largest neighbour a step must be.
    var ratio = 2.5
    /// How many times the largest change of picture in a cadence a step must be: each spans
    /// several frames of motion, which in a slow clip varies more from one picture to the next.
    var cadenceRatio = 4.0
    /// A step with no neighbour known (decoded alone) must be this large.
    var alone = 0.08
    /// A step below this repeats the picture before (a decoder's noise at most).
    var still = 0.000_25
    /// The most steps a picture is held for in a cadence.
    var longestHold = 20
    /// The step at which a cut's strength is 1.
    var strongest = 0.25

    /// The cuts among `steps` (frame number → distance from the frame before), with strengths.
    func cuts(in steps: [Int: Double]) -> [(frame: Int, strength: Double)] {
        var cuts: [(frame: Int, strength: Double)] = []
        for (frame, step) in steps where step >= least {
            let neighbours = [frame - 2, frame - 1, frame + 1, frame + 2].compactMap { steps[$0] }
            let changes = cadence(from: frame, -1, in: steps) + cadence(from: frame, 1, in: steps)
            let isCut = neighbours.isEmpty && changes.isEmpty ? step >= alone
                : step >= ratio * (neighbours.max() ?? 0) && step >= cadenceRatio * (changes.max() ?? 0)
            if isCut { cuts.append((frame, min(1, step / strongest))) }
        }
        return cuts.sorted { $0.frame < $1.frame }
    }

    /// The two changes of picture nearest `frame` on the side of `direction` (-1 before, 1
    /// after) where they keep a cadence: each picture held two steps or more and at most
    /// `longestHold`, the two holds within twice each other. None where that side keeps no
    /// cadence (motion at every frame, a still shot, a step not known).
    private func cadence(from frame: Int, _ direction: Int, in steps: [Int: Double]) -> [Double] {
        var changes: [(at: Int, step: Double)] = []
        for distance in 1...(2 * longestHold) {
            guard let step = steps[frame + direction * distance] else { return [] }
            guard step >= still else { continue }
            changes.append((distance, step))
            if changes.count == 2 { break }
        }
        guard changes.count == 2 else { return [] }
        let holds = [changes[0].at, changes[1].at - changes[0].at]
        guard holds.min()! >= 2, holds.max()! <= longestHold, holds.max()! <= 2 * holds.min()! else { return [] }
        return changes.map(\.step)
    }
}
