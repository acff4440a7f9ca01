/// Where the change from one frame to the next is a hard cut: a step that stands out from the
/// changes around it. A dissolve or a fade changes the picture as much, but spread over many
/// frames, each step like its neighbours; motion changes it a little at every frame. A cut is
/// one step several times any of its neighbours' (two frames either side), and large enough not
/// to be noise.
struct CutRule {
    /// The least step (`PictureSignature.distance`) that may be a cut.
    var least = 0.005
    /// How many times its largest neighbour a step must be.
    var ratio = 2.5
    /// A step with no neighbour known (decoded alone) must be this large.
    var alone = 0.08
    /// The step at which a cut's strength is 1.
    var strongest = 0.25

    /// The cuts among `steps` (frame number → distance from the frame before), with strengths.
    func cuts(in steps: [Int: Double]) -> [(frame: Int, strength: Double)] {
        var cuts: [(frame: Int, strength: Double)] = []
        for (frame, step) in steps where step >= least {
            let neighbours = [frame - 2, frame - 1, frame + 1, frame + 2].compactMap { steps[$0] }
            let isCut = neighbours.isEmpty ? step >= alone : step >= ratio * neighbours.max()!
            if isCut { cuts.append((frame, min(1, step / strongest))) }
        }
        return cuts.sorted { $0.frame < $1.frame }
    }
}
