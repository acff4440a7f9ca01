import CAV
import Foundation
@testable import MediaKit
import Testing
import TestSupport

/// The AV1 header readers: `AV1BitReader`'s fields on bytes written by hand, and
/// `AV1TemporalUnits` against ffmpeg's own parser.
@Suite struct AV1HeaderTests {
    @Test func readsFieldsMostSignificantBitFirst() throws {
        let bytes = Self.buffer([0b1010_0000, 0xff, 0x01])
        defer { bytes.deallocate() }
        var r = AV1BitReader(UnsafeRawBufferPointer(bytes))
        #expect(try r.bits(3) == 0b101)
        #expect(try r.flag() == false)
        #expect(try r.bits(12) == 0xff)
        #expect(try r.bits(8) == 1)
        #expect(r.bitsLeft == 0)
        #expect(throws: AV1BitReader.Truncated.self) { try r.bits(1) }
    }

    @Test func readsVariableLengthNumbers() throws {
        // uvlc: "1" is 0, "010" is 1, "00101" is 4; then the specification's leb128 example, 624485.
        let bytes = Self.buffer([0b1010_0010, 0b1000_0000, 0xe5, 0x8e, 0x26])
        defer { bytes.deallocate() }
        var r = AV1BitReader(UnsafeRawBufferPointer(bytes))
        #expect(try r.uvlc() == 0)
        #expect(try r.uvlc() == 1)
        #expect(try r.uvlc() == 4)
        try r.skip(7)
        #expect(try r.leb128() == 624_485)
    }

    /// `bytes` in memory of their own (deallocated by the caller).
    static func buffer(_ bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        buffer.copyBytes(from: bytes)
        return buffer
    }

    /// The frames left out are those ffmpeg's own AV1 header parser (the trace_headers bitstream
    /// filter) shows stored in no reference slot: whole units when all their frames are, else
    /// the units without them (which, judged again, have nothing more to leave out).
    @Test(.enabled(if: AV1Fixture.missing == nil, "\(AV1Fixture.missing ?? "")"), arguments: ["clip.mkv", "clip.mp4"])
    func framesLeftOutAreThoseFFmpegsParserSeesUnreferenced(name: String) throws {
        let path = try AV1Fixture.path(name)
        let expected = try Self.ffmpegFrames(path)
        let input = try InputFile(path: .init(path), timeout: 60)
        let parameters = input.streams[0].pointee.codecpar.pointee
        var units = AV1TemporalUnits(configuration: UnsafeRawBufferPointer(start: parameters.extradata,
                                                                          count: Int(parameters.extradata_size)))
        #expect(units.sequence?.orderHintBits == 7)
        let packet = try Packet()
        var judged: [AV1TemporalUnits.Judgement] = []
        while av_read_frame(input.context, packet.pointer) >= 0 {
            defer { packet.unref() }
            let p = packet.pointer.pointee
            let unit = UnsafeRawBufferPointer(start: p.data, count: Int(p.size))
            let judgement = units.judge(unit)
            judged.append(judgement)
            guard case .only(let ranges) = judgement else { continue }
            let trimmed = ranges.flatMap { unit[$0] }
            #expect(trimmed.count < unit.count && ranges.allSatisfy { $0.upperBound <= unit.count })
            let again = trimmed.withUnsafeBytes { units.judge($0) }
            #expect(again == .whole, "\(name): packet \(judged.count - 1) trimmed")
        }
        #expect(judged.count == 75 && expected.count == 75)
        for (i, (judgement, frames)) in zip(judged, expected).enumerated() {
            let kind: AV1TemporalUnits.Judgement
            switch frames.unreferenced {
            case 0: kind = .whole
            case frames.all: kind = .nothing
            default: kind = .only([])
            }
            let same = switch (judgement, kind) {
            case (.only, .only): true
            default: judgement == kind
            }
            #expect(same, "\(name): packet \(i) with \(frames.unreferenced) of \(frames.all) frames unreferenced is \(judgement)")
        }
        #expect(judged.filter { $0 == .nothing }.count >= 15)
        #expect(judged.filter { if case .only = $0 { true } else { false } }.count >= 3)
    }

    /// A unit cut short inside a frame header, or with an OBU size past its end, is not left out.
    @Test(.enabled(if: AV1Fixture.missing == nil, "\(AV1Fixture.missing ?? "")"))
    func aBrokenUnitIsKept() throws {
        let path = try AV1Fixture.path("clip.mkv")
        let input = try InputFile(path: .init(path), timeout: 60)
        let parameters = input.streams[0].pointee.codecpar.pointee
        var units = AV1TemporalUnits(configuration: UnsafeRawBufferPointer(start: parameters.extradata,
                                                                          count: Int(parameters.extradata_size)))
        let packet = try Packet()
        var checked = 0
        while checked < 3, av_read_frame(input.context, packet.pointer) >= 0 {
            defer { packet.unref() }
            let bytes = UnsafeRawBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
            guard units.canSkip(bytes) else { continue }
            checked += 1
            // The first OBU (Matroska and MP4 keep no temporal delimiter) is the frame: its header
            // byte, its size (leb128), then the frame header, which needs more than a byte.
            #expect(bytes[0] >> 3 & 0xf == 6 && bytes[0] & 0x04 == 0, "a frame OBU without extension comes first")
            var sizeBytes = 1
            while bytes[sizeBytes] & 0x80 != 0 { sizeBytes += 1 }
            let skipsCut = units.canSkip(UnsafeRawBufferPointer(rebasing: bytes.prefix(1 + sizeBytes + 1)))
            #expect(!skipsCut)
            var longer = [UInt8](bytes)
            for i in 1...sizeBytes { longer[i] |= 0x7f }  // the largest size in as many bytes: past the end
            let skipsLonger = longer.withUnsafeBytes { units.canSkip($0) }
            #expect(!skipsLonger)
        }
        #expect(checked == 3)
    }

    /// Per packet, in the file's order: its frame headers, and of those the frames coded (not
    /// shown again) with refresh_frame_flags 0, as ffmpeg's trace_headers prints them.
    static func ffmpegFrames(_ path: String) throws -> [(all: Int, unreferenced: Int)] {
        let result = try Command.run(["ffmpeg", "-nostdin", "-hide_banner", "-i", path, "-c", "copy", "-bsf:v", "trace_headers",
                                      "-f", "null", "-"], timeout: 120)
        guard result.succeeded else { throw StoredPNG.Malformed(description: "trace_headers: \(result)") }
        var answer: [(all: Int, unreferenced: Int)] = []
        for line in result.stderr.split(separator: "\n") {
            if line.contains("] Packet: ") {
                answer.append((0, 0))
            } else if line.contains(" show_existing_frame "), !answer.isEmpty {
                answer[answer.count - 1].all += 1
            } else if line.contains(" refresh_frame_flags "), line.hasSuffix("= 0"), !answer.isEmpty {
                answer[answer.count - 1].unreferenced += 1
            }
        }
        return answer
    }
}
