import Foundation

/// More media with chapters for the chapters/ tests, made with ffmpeg once per test process in
/// `.build/test-media/chapter-tree` (under a second):
///
/// - `awkward.mkv`, `awkward.mp4`: 12 s, ffmpeg chapters whose titles hold `/`, quotes, an emoji,
///   300 characters, a `;` and a line break; a zero-length chapter (2–2 s), one overlapping the
///   next (4–9 s over 2–6 s); in the MKV a last chapter without a title. (The MP4 muxer drops the
///   untitled chapter from its chapter track and cannot store overlaps: ends follow the next start.)
/// - `fade.mp4`: 1.5 s of black, then testsrc2; chapters at 0 s ("Fade in") and 6 s ("Second").
/// - `png-cover.m4a`: 6 s of audio with the fade chapters and `cover.png` (96×96) as its cover.
/// - `cover.png`: that cover, to compare bytes.
public enum ChapterTreeMedia {
    private static let made = Result { try make() }

    /// The folder holding the files.
    public static func folder() throws -> String { try made.get() }

    /// Copies every media file of the folder into `destination` (made if needed).
    public static func copy(into destination: String) throws {
        let folder = try folder()
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for name in ["awkward.mkv", "awkward.mp4", "fade.mp4", "png-cover.m4a"] {
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: destination + "/" + name)
        }
    }

    public static let longTitle = String(String(repeating: "A very long chapter title that keeps going, ", count: 10).prefix(300))

    private static func make() throws -> String {
        let folder = TestMedia.packageRoot.appendingPathComponent(".build/test-media/chapter-tree").path
        let result = try Command.run(["/bin/bash", "-c", script, "make-chapter-tree-media", folder, longTitle], timeout: 120)
        guard result.succeeded else { throw HarnessError("making the chapter tree media failed: \(result)") }
        return folder
    }

    private static let script = #"""
    set -euo pipefail
    OUT=$1 long=$2
    rm -rf "$OUT"; mkdir -p "$OUT"; cd "$OUT"
    FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
    cat >meta.txt <<META
    ;FFMETADATA1
    title=Awkward chapters
    [CHAPTER]
    TIMEBASE=1/1000
    START=0
    END=2000
    title=Intro / "Quotes" and 'single' 🎬
    [CHAPTER]
    TIMEBASE=1/1000
    START=2000
    END=2000
    title=Zero length
    [CHAPTER]
    TIMEBASE=1/1000
    START=2000
    END=6000
    title=$long
    [CHAPTER]
    TIMEBASE=1/1000
    START=4000
    END=9000
    title=Overlapping\; with a line\\
    break
    [CHAPTER]
    TIMEBASE=1/1000
    START=9000
    END=12000
    META
    VIDEO=(-f lavfi -t 12 -i testsrc2=s=160x90:r=10)
    "${FF[@]}" "${VIDEO[@]}" -i meta.txt -map 0 -map_chapters 1 -c:v libx264 -preset ultrafast -g 10 awkward.mkv
    "${FF[@]}" "${VIDEO[@]}" -i meta.txt -map 0 -map_chapters 1 -c:v libx264 -preset ultrafast -g 10 awkward.mp4
    cat >fade.txt <<'META'
    ;FFMETADATA1
    [CHAPTER]
    TIMEBASE=1/1000
    START=0
    END=6000
    title=Fade in
    [CHAPTER]
    TIMEBASE=1/1000
    START=6000
    END=12000
    title=Second
    META
    "${FF[@]}" -f lavfi -i "color=black:s=160x90:r=25:d=1.5" -f lavfi -i "testsrc2=s=160x90:r=25:d=10.5" -i fade.txt \
      -filter_complex "[0:v][1:v]concat=n=2:v=1:a=0[v]" -map "[v]" -map_chapters 2 -c:v libx264 -preset ultrafast -g 25 fade.mp4
    "${FF[@]}" -f lavfi -i "testsrc2=s=96x96" -frames:v 1 cover.png
    "${FF[@]}" -f lavfi -t 6 -i sine=frequency=440:sample_rate=44100 -i cover.png -i fade.txt -map 0 -map 1 -map_chapters 2 \
      -c:a aac -b:a 48k -ac 1 -c:v copy -disposition:v:0 attached_pic png-cover.m4a
    """#
}
