import Foundation
import Glibc
import CAV
@testable import MediaKit
import Testing
import TestSupport

/// Rough figures, not a timed test: one tone-mapped thumbnail against the ffmpeg command with
/// the usual chain plus `scale=320:-1`, and where our time goes. Runs only with
/// MEDIAFS_HDR_FIGURES=1; prints a table. MEDIAFS_HDR_FIGURES_FILE=path measures that file (a 4K
/// PQ clip made in /tmp, Docs/ARCHITECTURE.md) instead of the small library's PQ clip;
/// MEDIAFS_HDR_FIGURES_TIME the time (1 s by default), MEDIAFS_HDR_FIGURES_RUNS the rounds (5).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEDIAFS_HDR_FIGURES"] == "1"))
struct HDRFigures {
    /// Wall and CPU seconds (this process and its children) of `work`.
    struct Cost {
        var wall: Double
        var cpu: Double
    }

    static func cost(_ work: () throws -> Void) rethrows -> Cost {
        func cpu() -> Double {
            var total = 0.0
            for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
                var usage = rusage()
                getrusage(__rusage_who_t(who.rawValue), &usage)
                total += Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            }
            return total
        }
        let (start, startCPU) = (Date(), cpu())
        try work()
        return Cost(wall: Date().timeIntervalSince(start), cpu: cpu() - startCPU)
    }

    @Test func oneToneMappedThumbnail() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try environment["MEDIAFS_HDR_FIGURES_FILE"] ?? TestMedia.file("clips/hdr-pq.mkv").path
        let time = environment["MEDIAFS_HDR_FIGURES_TIME"].flatMap(Double.init) ?? 1
        let runs = environment["MEDIAFS_HDR_FIGURES_RUNS"].flatMap(Int.init) ?? 5
        var st = stat()
        guard stat(path, &st) == 0 else { throw HarnessError("cannot stat \(path)") }
        let file = MediaFile(path: path, size: Int64(st.st_size), modificationNanoseconds: 1)
        let video = try #require(try Prober.probe(path: path, size: file.size).streams.first { $0.isMovingVideo })
        let size = try #require(ThumbnailGeometry.outputSize(of: video, box: .width(320)))
        let request = ThumbnailRequest(streamIndex: video.index, time: time, pick: .exact, width: size.width, height: size.height)
        let folder = try TempFolder("hdr-figures")
        defer { folder.remove() }
        _ = try Command.shell(#"cat -- "$1" > /dev/null"#, [path], timeout: 120)  // the page cache warm for both sides

        var rows: [String: [Cost]] = [:]
        func record(_ name: String, _ work: () throws -> Void) rethrows {
            rows[name, default: []].append(try Self.cost(work))
        }
        for _ in 0..<runs {
            try record("ours: thumbnail (open, seek, decode, tone map, PNG)") {
                _ = try LocalMediaService().thumbnail(of: file, request: request)
            }
            try record("ffmpeg -ss T -i F -frames:v 1 -vf CHAIN,scale=320:-1 out.png") {
                let run = try Command.run(["ffmpeg", "-nostdin", "-y", "-v", "error", "-ss", String(time), "-i", path,
                                           "-frames:v", "1", "-vf", ToneMapReference.chain + ",scale=320:-1",
                                           folder.path("ffmpeg.png")], timeout: 600)
                precondition(run.succeeded, "\(run)")
            }
            // The steps, one at a time.
            var session: DecodeSession!
            var frame: Frame!
            try record("  open the file and the decoder") {
                session = try DecodeSession(key: .init(file: file, streamIndex: video.index, pick: .exact), limits: ThumbnailLimits())
            }
            try record("  seek and decode the frame") { frame = try session.exactFrame(at: time) }
            var image: RGBImage!
            try record("  tone map to \(size.width)x\(size.height), graph built") {
                image = try session.converter.picture(of: frame, width: size.width, height: size.height)
            }
            try record("  tone map again, graph kept") {
                _ = try session.converter.picture(of: frame, width: size.width, height: size.height)
            }
            try record("  swscale only, no tone mapping (SDR path)") {
                _ = try Scaler().scale(frame, width: size.width, height: size.height)
            }
            try record("  PNG") { _ = try PNGEncoder.encode(image) }
            let f = frame.pointer.pointee
            try record("  tone map at \(f.width)x\(f.height), then swscale to \(size.width)x\(size.height)") {
                let full = try ToneMapper().convert(frame, color: session.converter.toneMappedColor(of: frame)!,
                                                    width: Int(f.width), height: Int(f.height))
                _ = try Self.scaleDown(full, width: size.width, height: size.height)
            }
        }
        let lines = rows.sorted { $0.key < $1.key }.map { name, costs -> String in
            let wall = costs.map(\.wall).sorted()[costs.count / 2], cpu = costs.map(\.cpu).sorted()[costs.count / 2]
            return "  \(name): wall \(Self.ms(wall)) ms, CPU \(Self.ms(cpu)) ms (wall \(costs.map { Self.ms($0.wall) }.joined(separator: " ")))"
        }
        print("HDR figures for \(path) at \(time) s, \(size.width)x\(size.height), median of \(runs):\n" + lines.joined(separator: "\n"))
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1000) }

    /// An RGB picture scaled by swscale (bicubic, as `Scaler`), through a frame of its own.
    static func scaleDown(_ image: RGBImage, width: Int, height: Int) throws -> RGBImage {
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.width = Int32(image.width)
        f.pointee.height = Int32(image.height)
        f.pointee.format = AV_PIX_FMT_RGB24.rawValue
        precondition(av_frame_get_buffer(f, 0) >= 0)
        image.pixels.withUnsafeBytes { from in
            for y in 0..<image.height {
                (f.pointee.data.0! + y * Int(f.pointee.linesize.0)).update(
                    from: from.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * image.stride, count: 3 * image.width)
            }
        }
        return try Scaler().scale(frame, width: width, height: height)
    }
}
