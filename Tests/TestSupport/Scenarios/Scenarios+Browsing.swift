import Foundation
import Glibc
import Testing

/// Browsing: the mirror of the source, the media folders, reads, types, sizes, inode numbers,
/// errors (MediaTreeTests, BrowsingTests).
extension ScenarioGroup {
    public static let browsing = ScenarioGroup(name: "browsing", languages: [], scenarios: browsingScenarios + markersAndFaces)

    static let browsingScenarios: [Scenario] = [
        Scenario("the root mirrors the source, media files as folders") { c throws in
            let root = try c.client.list("")
            let sourceNames = try FileManager.default.contentsOfDirectory(atPath: c.source)
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            #expect(root.map(\.name) == sourceNames, c.at("the root"))
            #expect(root.map(\.name) == ["audio", "broken", "chapters", "clips", "feature-1080p.mp4", "movie-1080p.mkv", "notes.txt"],
                    c.at("the root"))
            #expect(root.first { $0.name == "feature-1080p.mp4" }?.type == .directory, c.at("feature-1080p.mp4"))
            #expect(root.first { $0.name == "notes.txt" }?.type == .regular, c.at("notes.txt"))
            let broken = try c.client.list("broken")
            #expect(broken.map(\.name) == ["empty.mp4"] && broken.first?.type == .regular, c.at("broken/"))
            // A song without chapters or cover art is a plain file; an audiobook is a media folder.
            let audio = try c.client.list("audio")
            #expect(audio.map(\.name) == ["audiobook.m4a", "song.mp3"], c.at("audio/"))
            #expect(audio.map(\.type) == [.directory, .regular], c.at("audio/"))
            for relative in ScenarioSource.mediaFiles {
                #expect(try c.client.stat(relative).type == .directory, c.at(relative))
            }
        },

        Scenario("a media folder holds the original, info.json, and thumbs, chapters, tracks as the media has them") { c throws in
            // Without video: no thumbs/, storyboard/ or contact sheet; without chapters: no chapters/.
            for relative in ScenarioSource.mediaFiles.sorted() {
                #expect(try c.client.list(relative).map(\.name) == ScenarioSource.folderNames(relative), c.at(relative))
                let folder = try c.client.stat(relative)
                #expect(folder.type == .directory && folder.permissions & 0o222 == 0, c.at(relative))
            }
            for relative in ["audio/audiobook.m4a/thumbs", "clips/clip-vp9.webm/chapters", "clips/clip-vp9.webm/cover.png",
                             "feature-1080p.mp4/cover.png"] {
                #expect(c.statFailure(relative) == ENOENT, c.at(relative))
            }
        },

        Scenario("the original reads through, byte for byte") { c throws in
            for relative in ["feature-1080p.mp4", "clips/clip-vp9.webm", "audio/audiobook.m4a"] {
                let original = relative + "/" + (relative as NSString).lastPathComponent
                let source = try c.sourceBytes(relative)
                let status = try c.client.stat(original)
                #expect(status.type == .regular && status.size == Int64(source.count), c.at(original))
                #expect(try c.client.read(original) == source, c.at(original))
            }
        },

        Scenario("info.json describes the file, as long as stat says") { c throws in
            let bytes = try c.readWhole("feature-1080p.mp4/info.json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], c.at("info.json"))
            #expect(json["file"] as? String == "feature-1080p.mp4", c.at("info.json"))
            #expect((json["chapters"] as? [Any])?.count == 6, c.at("info.json"))
            #expect(bytes.last == UInt8(ascii: "\n"), c.at("info.json"))
            #expect(try c.client.read("feature-1080p.mp4/info.json") == bytes, c.at("info.json read again"))
        },

        Scenario("a plain file passes through") { c throws in
            let source = try c.sourceBytes("notes.txt")
            let notes = try c.client.stat("notes.txt")
            #expect(notes.type == .regular && notes.size == Int64(source.count), c.at("notes.txt"))
            #expect(try c.client.read("notes.txt") == source, c.at("notes.txt"))
            #expect(try c.client.read("audio/song.mp3") == (try c.sourceBytes("audio/song.mp3")), c.at("audio/song.mp3"))
            #expect(try c.client.stat("broken/empty.mp4").size == 0, c.at("broken/empty.mp4"))
            #expect(try c.client.read("broken/empty.mp4").isEmpty, c.at("broken/empty.mp4"))
        },

        Scenario("listing types and inode numbers are those stat gives; every document is as long as stat says") { c throws in
            // Every folder but the contents of thumbs/, chapters/ (their scenarios read them) and
            // the track groups (listing them is cheap, stat'ing their files runs passes).
            var folders = [""]
            var documents = 0
            while let folder = folders.popLast() {
                for (entry, status) in try c.listAndStat(folder) {
                    let path = c.client.join(folder, entry.name)
                    if status.type == .directory {
                        let made = ScenarioSource.mediaFiles.contains(folder) && ["thumbs", "chapters", "storyboard"].contains(entry.name)
                        if !made && !folder.hasSuffix("/tracks") { folders.append(path) }
                    } else {
                        #expect(status.type == .regular, c.at(path))
                        try c.readWhole(path)
                        documents += 1
                    }
                }
            }
            // The plain files (notes.txt, the empty file, the song), the files of the media
            // folders and the markers of each tracks/; nothing else outside thumbs/, chapters/,
            // storyboard/ and tracks/.
            let madeFiles = ScenarioSource.mediaFiles.map { ScenarioSource.folderNames($0).filter { !MediaFolderLayout.folders.contains($0) }.count }
            let markers = ScenarioSource.media.values.filter(\.tracks).count * MediaFolderLayout.markers.count
            #expect(documents == 3 + madeFiles.reduce(0, +) + markers, c.at("files read"))
        },

        Scenario("inode numbers are stable between lookups") { c throws in
            let first = try c.client.stat("clips/clip-vp9.webm/info.json").inode
            _ = try c.client.list("")
            #expect(try c.client.stat("clips/clip-vp9.webm/info.json").inode == first, c.at("info.json"))
            #expect(try c.client.stat("clips").inode != first, c.at("clips"))
            let folder = try c.client.stat("feature-1080p.mp4").inode
            #expect(try c.client.list("").first { $0.name == "feature-1080p.mp4" }?.inode == folder, c.at("feature-1080p.mp4"))
            #expect(try c.client.stat("feature-1080p.mp4").inode == folder, c.at("feature-1080p.mp4"))
        },

        Scenario("errors say what is wrong") { c throws in
            #expect(c.statFailure("missing.mkv") == ENOENT, c.at("missing.mkv"))
            #expect(c.statFailure("clips/missing.mkv/info.json") == ENOENT, c.at("clips/missing.mkv/info.json"))
            #expect(c.statFailure("feature-1080p.mp4/cover.png") == ENOENT, c.at("feature-1080p.mp4/cover.png"))
            #expect(c.statFailure("notes.txt/x") == ENOTDIR, c.at("notes.txt/x"))
            #expect(c.client.failure { () throws(CallError) in try c.client.read("clips") } == EISDIR, c.at("read of clips"))
            #expect(c.client.failure { () throws(CallError) in try c.client.list("notes.txt") } == ENOTDIR, c.at("list of notes.txt"))
            // Security labels and ACLs are not supported (EOPNOTSUPP), so `ls -l` stops asking each
            // entry for them; other user. names are simply absent (ENODATA).
            for path in ["notes.txt", "feature-1080p.mp4", "feature-1080p.mp4/thumbs/at-25%.png"] {
                for (name, code) in [("security.selinux", EOPNOTSUPP), ("system.posix_acl_access", EOPNOTSUPP),
                                     ("trusted.x", EOPNOTSUPP), ("user.nothing", ENODATA)] {
                    #expect(c.client.failure { () throws(CallError) in try c.client.extendedAttribute(name, of: path) } == code,
                            c.at("\(name) of \(path)"))
                }
            }
            #expect(["true", "false"].contains(try c.attributeText("user.mediafs.keyframe", of: "feature-1080p.mp4/thumbs/at-25%.png")),
                    c.at("the mount's own attribute"))
        },
    ]
}
