import Foundation
import MediaTree
import Testing

/// The server layout (`--layout server`): every file as itself, and beside each film the files media
/// servers and players read, each kind checked by its own scenarios (Scenarios+Server*.swift).
extension ScenarioGroup {
    public static let server = ScenarioGroup(
        name: "server", languages: [], scenarios: serverLayout + serverKinds.joined(), layout: .server, makeSource: ServerSource.make)

    /// What holds for the layout whatever kinds it shows.
    static let serverLayout: [Scenario] = [
        Scenario("every source entry shows as itself, films too") { c throws in
            for folder in ["", "clips", "audio"] {
                let listed = try c.client.list(folder)
                let names = Set(listed.map(\.name))
                for name in try ServerSource.names(in: c.source, folder) {
                    let relative = c.client.join(folder, name)
                    #expect(names.contains(name), c.at(relative))
                    let info = try FileManager.default.attributesOfItem(atPath: c.source + "/" + relative)
                    let status = try c.client.stat(relative)
                    if info[.type] as? FileAttributeType == .typeDirectory {
                        #expect(status.type == .directory, c.at(relative))
                    } else {
                        #expect(status.type == .regular && status.size == (info[.size] as? Int64), c.at(relative))
                    }
                }
            }
            for film in ["subtitled.mkv", "feature-1080p.mp4", "clips/clip-vp9.webm", "movie-1080p.nfo"] {
                #expect(try c.client.read(film) == (try c.sourceBytes(film)), c.at(film))
            }
        },

        Scenario("what is beside a film is named after it, and nothing a scanner takes for media") { c throws in
            for folder in ["", "clips", "audio"] {
                let source = try ServerSource.names(in: c.source, folder)
                let bases = source.filter(ServerSource.isFilm).map { ($0 as NSString).deletingPathExtension }
                for entry in try c.client.list(folder) where !source.contains(entry.name) {
                    let relative = c.client.join(folder, entry.name)
                    #expect(bases.contains { entry.name.hasPrefix($0 + ".") || entry.name.hasPrefix($0 + "-") }, c.at(relative))
                    #expect(!ServerSource.mediaExtensions.contains((entry.name as NSString).pathExtension.lowercased()),
                            c.at(relative))
                }
            }
            // An audiobook is no film: nothing beside it.
            #expect(try c.client.list("audio").map(\.name) == ["audiobook.m4a"], c.at("audio"))
        },

        Scenario("listing makes nothing; listing and stat agree on every entry") { c throws in
            let before = try c.made()
            var folders = [""]
            while let folder = folders.popLast() {
                folders += try c.client.list(folder).filter { $0.type == .directory }.map { c.client.join(folder, $0.name) }
            }
            // (A mount's client stats what it lists, as `ls -l`: there, `find` checks it.)
            let made = try c.made(since: before)
            #expect(c.client.kind == "mount" || made.isEmpty, c.at("made by listing every folder: \(made)"))
            folders = [""]
            while let folder = folders.popLast() {
                for (entry, status) in try c.listAndStat(folder) where status.type == .directory {
                    folders.append(c.client.join(folder, entry.name))
                }
            }
            // A size is known before the first read; a track's only once its pass has run.
            let madeByStat = try c.made(since: before, tracks: false)
            #expect(madeByStat.isEmpty, c.at("made by a stat of every entry: \(madeByStat)"))
        },
    ]
}

/// The source of the server group: the server test film (every kind of subtitle track), films with
/// and without a cover, a film's own `.nfo` and sidecar (which win over the layout's), two films of
/// one base name, an audiobook, a text file.
public enum ServerSource {
    /// Copies (hard links where the test media allow) into a new folder `path`.
    public static func make(at path: String) throws {
        let files: [(String, URL)] = [
            ("subtitled.mkv", try ServerMedia.film()),
            ("movie-1080p.mkv", try TestMedia.file("movie-1080p.mkv")),
            ("feature-1080p.mp4", try TestMedia.file("feature-1080p.mp4")),
            ("clips/clip-vp9.webm", try TestMedia.file("clips/clip-vp9.webm")),
            ("clips/clip-vp9.mkv", try TestMedia.file("clips/clip-vp9.webm")),
            ("audio/audiobook.m4a", try TestMedia.file("audio/audiobook.m4a")),
            ("notes.txt", try TestMedia.file("notes.txt")),
        ]
        for (relative, origin) in files {
            let target = URL(fileURLWithPath: path).appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: origin, to: target)
        }
        try "<movie><title>Fixture Movie</title></movie>\n".write(toFile: path + "/movie-1080p.nfo", atomically: true, encoding: .utf8)
        try "1\n00:00:01,000 --> 00:00:02,000\nThe source's own.\n".write(
            toFile: path + "/feature-1080p.eng.srt", atomically: true, encoding: .utf8)
    }

    /// The names of the source folder `relative` (`""`: the root) of the source at `source`.
    static func names(in source: String, _ relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? source : source + "/" + relative)
    }

    /// Extensions of media: nothing the layout makes ends in one.
    static let mediaExtensions: Set<String> = ["mkv", "mka", "mks", "mp4", "m4v", "m4a", "webm", "mov", "avi", "ts", "mp3", "ogg", "opus", "flac"]

    /// Whether the source file `name` is one of the source's films.
    static func isFilm(_ name: String) -> Bool {
        ["mkv", "mp4", "webm"].contains((name as NSString).pathExtension)
    }
}
