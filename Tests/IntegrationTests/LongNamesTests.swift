import Foundation
import Glibc
import Testing
import TestSupport

/// Every name of both layouts fits in 255 bytes (`NAME_MAX`, issue 36), as valid UTF-8 where it
/// is made from titles: beside and inside films named with 255 bytes (ASCII, and three-byte
/// characters) or ten fewer, whose chapter, track and subtitle titles are longer than any name,
/// `find` lists no longer name and `cp -r` copies the whole mount.
@Suite(.mounts) struct LongNamesTests {
    /// 255 bytes of ASCII, 255 mostly of three-byte characters, and 245 (room for some suffixes).
    static let films = [
        String(repeating: "a", count: 251) + ".mkv",
        String(repeating: "日", count: 83) + "xy.mkv",
        String(repeating: "b", count: 241) + ".mkv",
    ]

    @Test(arguments: [[], ["--layout", "server"]])
    func everyNameFitsAndTheMountCopies(layout: [String]) throws {
        let folder = try TempFolder("long-names")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let film = try Self.makeFilm(in: try folder.makeFolder("media"))
        for name in Self.films { try FileManager.default.copyItem(atPath: film, toPath: source + "/" + name) }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: layout) { mount in
            let list = folder.path("names")
            expectSuccess(try Command.shell(#"find "$1" -mindepth 1 -printf '%f\0' > "$2""#, [mount.point, list], timeout: 120),
                          "find")
            let names = try Data(contentsOf: URL(fileURLWithPath: list)).split(separator: 0).map(Array.init)
            #expect(names.count >= 10, "\(names.count) names")
            for name in names {
                #expect(name.count <= 255 && String(validating: name, as: UTF8.self) != nil,
                        "\(name.count) bytes: \(String(decoding: name, as: UTF8.self))")
            }
            expectSuccess(try Command.run(["cp", "-r", mount.point, folder.path("copy")], timeout: 300), "cp -r")

            if layout.isEmpty {
                // Titles are cut to fit, not dropped.
                let chapters = BytePath(mount.path(Self.films[0])).appending(Array("chapters".utf8)).names()
                #expect(chapters.contains { $0.count > 245 }, "\(chapters.map(\.count))")
                let subtitles = BytePath(mount.path(Self.films[1] + "/tracks/legible")).names()
                #expect(subtitles.contains { $0.count > 235 }, "\(subtitles.map(\.count))")
            } else {
                // Entries whose names cannot fit are not there; those that fit are.
                let full = String(Self.films[0].dropLast(4)), shorter = String(Self.films[2].dropLast(4))
                var st = stat()
                let statted = stat(mount.path(full + "-thumb.jpg"), &st)
                let error = errno
                #expect(statted == -1 && error == ENAMETOOLONG, "a lookup of a longer name: errno \(error)")
                #expect(FileManager.default.fileExists(atPath: mount.path(full + ".jpg")), "the poster fits")
                // The BIF's tile is the video's width, 160.
                for suffix in ["-thumb.jpg", "-fanart.jpg", ".trickplay", "-160-10.bif", "-poster.jpg", ".eng.srt"] {
                    #expect(FileManager.default.fileExists(atPath: mount.path(shorter + suffix)), "\(suffix)")
                }
            }
        }
    }

    /// A two-second 160 × 90 clip with an audio track and two English SubRip tracks, chapters and a
    /// cover, every title longer than a name may be (two-, three- and four-byte characters).
    static func makeFilm(in folder: String) throws -> String {
        let long = String(repeating: "Ж", count: 100) + " " + String(repeating: "title ", count: 20)
        let titles = [long, String(repeating: "名前", count: 60), String(repeating: "🎬", count: 70)]
        var chapters = ";FFMETADATA1\n"
        for (index, title) in titles.enumerated() {
            chapters += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(index * 600)\nEND=\((index + 1) * 600)\ntitle=\(title)\n"
        }
        try chapters.write(toFile: folder + "/chapters.txt", atomically: true, encoding: .utf8)
        for name in ["first", "second"] {
            try "1\n00:00:00,000 --> 00:00:01,000\n\(name)\n".write(toFile: folder + "/\(name).srt", atomically: true, encoding: .utf8)
        }
        let film = folder + "/film.mkv"
        expectSuccess(try Command.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=64x64",
                                       "-frames:v", "1", folder + "/cover.jpg"], timeout: 60), "cover")
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
            "-i", "first.srt", "-i", "second.srt", "-i", "chapters.txt",
            "-map", "0:v", "-map", "1:a", "-map", "2:s", "-map", "3:s", "-map_chapters", "4",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "10", "-c:a", "aac", "-c:s", "srt",
            "-metadata:s:a:0", "language=eng", "-metadata:s:a:0", "title=\(titles[1])",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:0", "title=\(titles[0])",
            "-metadata:s:s:1", "language=eng", "-metadata:s:s:1", "title=\(titles[2])",
            "-attach", "cover.jpg", "-metadata:s:t:0", "mimetype=image/jpeg", "-metadata:s:t:0", "filename=cover.jpg",
            film,
        ], timeout: 60, directory: folder), "ffmpeg")
        return film
    }
}
