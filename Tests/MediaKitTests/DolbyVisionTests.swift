import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// Dolby Vision profile 5 on a clip of known content (`DolbyVisionClip.testClip()`: a PQ BT.2020
/// picture turned into IPT, reshaped backwards by an RPU with polynomial chroma for its first
/// second and MMR chroma for its second, encoded by libx265, the RPU written by the tests):
/// libavcodec reads the RPU as written, the reshaper follows the tests' own model of the maths,
/// the reshaped picture is the known one (and libplacebo's), and thumbnails are the known picture
/// tone-mapped, far from the green and purple picture made before.
@Suite(.enabled(if: DolbyVisionClip.missing == nil, "\(DolbyVisionClip.missing ?? "")"))
struct DolbyVisionTests {
    /// The largest mean absolute difference per channel (of 255) between the reshaped picture
    /// and the known one, in PQ R'G'B' at the clip's size: the chroma of 4:2:0 mixes colours at
    /// the edges of the patches, and the 10-bit base layer rounds (measured 0.65–1.19; libplacebo's
    /// rendering of the same clip is as far, 0.7–1.04).
    static let reshapedTolerance = 2.0
    /// The largest mean absolute difference per channel (of 255) between a thumbnail and the known
    /// picture through `ToneMapReference.chain` (at the clip's size, then scaled): as
    /// `ToneMapReference.tolerance`, which the HDR10 clips meet the same way.
    static let thumbnailTolerance = ToneMapReference.tolerance
    /// The smallest mean absolute difference a thumbnail keeps from the picture mediafs made
    /// before (the IPT planes read as YCbCr): measured 69–100.
    static let untreatedDistance = 20.0

    static let times = [(0.5, DolbyVisionClip.polynomialRPU, "polynomial"), (1.5, DolbyVisionClip.mmrRPU, "MMR")]

    /// The probe says profile 5, and libavcodec's `AVDOVIMetadata` of a frame of each part holds
    /// the curves and matrices the RPU was written with.
    @Test func theRPUIsReadAsWritten() throws {
        let clip = try LibraryVideo(absolutePath: try DolbyVisionClip.testClip())
        #expect(clip.video.dolbyVision?.profile == 5 && clip.video.isDolbyVisionOnly && clip.video.hdr == .dolbyVision)
        for (time, rpu, name) in Self.times {
            let (_, frame) = try HDRThumbnailTests.frame(clip, at: time)
            let metadata = try #require(DolbyVisionMetadata(frame.pointer), "\(name): no RPU on the frame")
            for (c, curve) in rpu.curves.enumerated() {
                let read = metadata.curves[c]
                #expect(read.pivots == curve.pivots.map { Float($0) / 1023 }, "\(name) component \(c)")
                #expect(read.pieces.count == curve.pieces.count)
                for (piece, written) in zip(read.pieces, curve.pieces) {
                    #expect(zip(piece, Self.terms(written, component: c)).allSatisfy { abs(Double($0) - $1) < 1e-6 },
                            "\(name) component \(c): \(piece)")
                }
            }
            #expect(metadata.nonlinear == rpu.nonlinear.map { Float($0) / 8192 })
            #expect(metadata.offset == [0, 0.5, 0.5])
            #expect(metadata.linear == rpu.linear.map { Float($0) / 16384 })
            #expect(abs((metadata.peakNits ?? 0) - 1000) < 5, "\(metadata.peakNits ?? 0)")
        }
    }

    /// MediaKit's reshaper against the tests' model (doubles, written apart) over a grid of base
    /// layer values, for both RPUs: within half a step of 8 bits. The reshaper computes in floats
    /// and reads the PQ curves from samples; it is furthest (measured 0.0005) at colours far
    /// outside BT.2020, where a channel is the small difference of large ones.
    @Test func theReshaperFollowsTheModel() throws {
        let clip = try LibraryVideo(absolutePath: try DolbyVisionClip.testClip())
        for (time, rpu, name) in Self.times {
            let (_, frame) = try HDRThumbnailTests.frame(clip, at: time)
            let reshaper = DolbyVisionReshaper(try #require(DolbyVisionMetadata(frame.pointer)))
            var worst = 0.0
            let steps = [0.0, 0.1, 0.25, 0.4, 0.41, 0.5, 0.62, 0.8, 1.0]
            for i in steps {
                for p in steps {
                    for t in steps {
                        let ours = reshaper.rgb(Float(i), Float(p), Float(t))
                        let model = DolbyVisionModel.rgb(ipt: DolbyVisionModel.reshape([i, p, t], rpu), rpu)
                        worst = max(worst, abs(Double(ours.0) - model[0]), abs(Double(ours.1) - model[1]),
                                    abs(Double(ours.2) - model[2]))
                    }
                }
            }
            #expect(worst < 0.5 / 255, "\(name): \(worst)")
            print("\(name): the reshaper against the model, at most \(worst) apart (PQ R'G'B', 0 to 1)")
        }
    }

    /// The PQ curves read from samples (`PerceptualQuantizer.interpolate`) against the formulas:
    /// the signal off by less than a twentieth of a step of 8 bits (measured 2e-5, a step of 16
    /// bits), linear light by less than 0.05 % (measured 0.03 %; where it is above 0.001 cd/m²).
    @Test func sampledPQCurves() {
        var signalError: Float = 0, linearError: Float = 0
        PerceptualQuantizer.signalSamples.withUnsafeBufferPointer { toSignal in
            PerceptualQuantizer.linearSamples.withUnsafeBufferPointer { toLinear in
                for k in 0...100_000 {
                    let e = Float(k) / 100_000, x = powf(e, 6)  // linear light from 1e-30 to 1, dense near black
                    let sampled = PerceptualQuantizer.interpolate(toSignal.baseAddress!, x.squareRoot().squareRoot())
                    signalError = max(signalError, abs(sampled - PerceptualQuantizer.signal(x)))
                    let exact = PerceptualQuantizer.linear(e)
                    if exact > 1e-7 {
                        linearError = max(linearError, abs(PerceptualQuantizer.interpolate(toLinear.baseAddress!, e) - exact) / exact)
                    }
                }
            }
        }
        #expect(signalError < 0.05 / 255, "\(signalError)")
        #expect(linearError < 5e-4, "\(linearError)")
    }

    /// The reshaped picture (before tone mapping) at the clip's size is the known picture.
    @Test func theReshapedPictureIsTheKnownOne() throws {
        let clip = try LibraryVideo(absolutePath: try DolbyVisionClip.testClip())
        let picture = DolbyVisionClip.Picture.test()
        for (time, _, name) in Self.times {
            let reshaped = try Self.reshaped(clip, at: time, width: picture.width, height: picture.height)
            let distance = DolbyVisionReference.distance(reshaped, picture.values)
            #expect(distance.allSatisfy { $0 <= Self.reshapedTolerance }, "\(name): \(distance)")
            print("\(name) at \(time) s, reshaped at 640x360 against the known picture (PQ R'G'B', of 255): \(distance)")
        }
    }

    /// libplacebo (ffmpeg's filter, `apply_dolbyvision`) renders the clip as the reshaper does.
    @Test(.enabled(if: DolbyVisionReference.libplaceboMissing == nil, "\(DolbyVisionReference.libplaceboMissing ?? "")"))
    func libplaceboAgrees() throws {
        let path = try DolbyVisionClip.testClip()
        let clip = try LibraryVideo(absolutePath: path)
        let picture = DolbyVisionClip.Picture.test()
        for (time, _, name) in Self.times {
            let reshaped = try Self.reshaped(clip, at: time, width: picture.width, height: picture.height)
            let placebo = try DolbyVisionReference.libplacebo(path, at: time, width: picture.width, height: picture.height)
            let ours = DolbyVisionReference.distance(reshaped, placebo)
            let theirs = DolbyVisionReference.distance(placebo, picture.values)
            #expect(ours.allSatisfy { $0 <= Self.reshapedTolerance }, "\(name): \(ours)")
            print("\(name) at \(time) s (PQ R'G'B', of 255): ours against libplacebo \(ours); libplacebo against "
                  + "the known picture \(theirs)")
        }
    }

    /// Thumbnails (320×180, the reshaping after the scaling) are the known picture tone-mapped by
    /// the usual chain with the RPU's peak, and far from what was made before.
    @Test func thumbnailsAreTheKnownPictureToneMapped() throws {
        let path = try DolbyVisionClip.testClip()
        let clip = try LibraryVideo(absolutePath: path)
        let known = try DolbyVisionReference.toneMapped(.test(), peakNits: 1000, width: 320, height: 180)
        let service = LocalMediaService()
        for (time, _, name) in Self.times {
            let (_, png, _) = try clip.thumbnail(service, at: time)
            #expect(png.width == 320 && png.height == 180)
            let near = ColorDistance(png.rgb, known)
            #expect(near.worstChannel <= Self.thumbnailTolerance, "\(name): \(near)")
            let before = try DolbyVisionReference.readAsYCbCr(path, at: time, width: 320, height: 180)
            let far = ColorDistance(png.rgb, before)
            #expect(far.mean >= Self.untreatedDistance, "\(name): \(far)")
            print("\(name) at \(time) s, 320x180: against the known picture \(near); against the IPT read as YCbCr \(far)")
        }
    }

    /// A profile 5 stream whose frames carry no RPU (here the HDR10 clip given a profile 5
    /// record) still gives pictures: its frames are taken as IPT with the standard matrices.
    @Test func framesWithoutAnRPUStillMakePictures() throws {
        let folder = try TempFolder("dolby-vision-no-rpu")
        defer { folder.remove() }
        let clip = try LibraryVideo(absolutePath: try HDRInfoTests.dolbyVisionCopy(in: folder, profile: 5, compatibility: 0))
        #expect(clip.video.isDolbyVisionOnly)
        let (_, frame) = try HDRThumbnailTests.frame(clip, at: 1)
        #expect(DolbyVisionMetadata(frame.pointer) == nil)
        let (_, png, _) = try clip.thumbnail(LocalMediaService(), at: 1)
        #expect(png.width == 320 && png.height == 180)
    }

    /// A frame of `clip` at `time` reshaped at `width` × `height`: three values 0 to 1 a pixel.
    static func reshaped(_ clip: LibraryVideo, at time: Double, width: Int, height: Int) throws -> [Double] {
        let (_, frame) = try HDRThumbnailTests.frame(clip, at: time)
        let reshaped = try DolbyVisionConverter().reshaped(frame, width: width, height: height)
        defer { withExtendedLifetime(reshaped) {} }
        let out = reshaped.pointer.pointee
        var values = [Double](repeating: 0, count: 3 * width * height)
        for (channel, plane, stride) in [(1, out.data.0!, out.linesize.0), (2, out.data.1!, out.linesize.1),
                                         (0, out.data.2!, out.linesize.2)] {
            for y in 0..<height {
                let row = UnsafeRawPointer(plane + y * Int(stride)).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width { values[3 * (y * width + x) + channel] = Double(row[x]) / 65535 }
            }
        }
        return values
    }

    /// A written piece as `DolbyVisionMetadata` holds it: 22 terms.
    static func terms(_ piece: DolbyVisionRPU.Piece, component: Int) -> [Double] {
        var terms = [Double](repeating: 0, count: DolbyVisionMetadata.termCount)
        switch piece {
        case .polynomial(let c):
            terms[0] = c[0]
            terms[1 + component] = c[1]
            if c.count > 2 { terms[8 + component] = c[2] }
        case .mmr(let constant, let orders):
            terms[0] = constant
            for (j, order) in orders.enumerated() { for (k, value) in order.enumerated() { terms[1 + 7 * j + k] = value } }
        }
        return terms
    }
}
