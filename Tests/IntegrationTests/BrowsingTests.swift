import Foundation
import Glibc
import Testing
import TestSupport

/// The mirror through a real mount: what `ls`, `find` and `stat` see of the whole library (the
/// browsing scenarios, TestSupport/Scenarios, check a few files both ways).
@Suite(.mounts, .sharedLibraryMount("browse")) struct BrowsingTests {
    @Test func mediaFilesAreFoldersAndOthersPassThrough() throws {
        let library = try LibraryMount.shared
        let mount = library.client
        for relative in Library.mediaFolders {
            #expect(try mount.names(relative) == Library.folderNames(relative), "\(relative)")
            let source = Array(try Data(contentsOf: URL(fileURLWithPath: library.source + "/" + relative)))
            #expect(try mount.read(Library.original(relative)) == source, "\(relative)")
        }
        for relative in Library.plainFiles {
            let source = Array(try Data(contentsOf: URL(fileURLWithPath: library.source + "/" + relative)))
            let status = try mount.stat(relative)
            #expect(status.type == .regular && status.size == Int64(source.count), "\(relative)")
            #expect(try mount.read(relative) == source, "\(relative)")
        }
        // Times pass through: a plain file's mtime is the source's.
        var (source, mounted) = (stat(), stat())
        #expect(stat(library.source + "/notes.txt", &source) == 0 && stat(library.path("notes.txt"), &mounted) == 0)
        #expect(source.st_mtim.tv_sec == mounted.st_mtim.tv_sec)
    }

    @Test func lsFindAndStatAgree() throws {
        let library = try LibraryMount.shared
        let ls = expectSuccess(try Command.run(["ls", "-lR", library.mount.point], timeout: 60))
        #expect(ls.stdout.contains("info.json") && ls.stdout.contains("Holiday Café 2021.mp4"))
        #expect(!ls.stdout.contains("?"), "ls -l could not stat something:\n\(ls.stdout)")
        // find's view (from readdir + its own stat) and stat(1)'s, file by file.
        let find = expectSuccess(try Command.shell(#"cd "$1" && find . -type f -printf '%s %p\n' | sort"#,
                                                   [library.mount.point]))
        let statted = expectSuccess(try Command.shell(
            #"cd "$1" && find . -type f -print0 | xargs -0 stat -c '%s %n' | sort"#, [library.mount.point]))
        let lines = find.stdout.split(separator: "\n")
        // The originals, info.json and plain files, 2 covers, 13 contact sheets (one per video) and
        // a face per media folder; 24 chapter images and 4 × 2 documents; a sheet, a WebVTT and a
        // playlist per video; the markers of each made folder (4 chapters/, 14 tracks/, 13
        // storyboard/).
        let (faces, markers) = (Library.media.count * MediaFolderLayout.face.count, MediaFolderLayout.markers.count)
        #expect(lines.filter { !$0.contains("/thumbs/") && !$0.contains("/chapters/") && !$0.contains("/tracks/")
            && !$0.contains("/storyboard/") }.count == 38 + 13 + faces, "\(find.stdout)")
        #expect(lines.filter { $0.contains("/storyboard/") }.count == 13 * 3 + 13 * markers, "\(find.stdout)")
        #expect(lines.filter { $0.contains("/tracks/") }.count == 33 + 14 * markers, "\(find.stdout)")
        #expect(lines.filter { $0.contains("/chapters/") }.count == 32 + 4 * markers, "\(find.stdout)")
        #expect(lines.filter { $0.contains("/thumbs/") }.count > 100, "\(find.stdout)")
        #expect(find.stdout == statted.stdout)
        let folders = expectSuccess(try Command.run(["find", library.mount.point, "-mindepth", "1", "-type", "d"]))
        #expect(folders.stdout.split(separator: "\n").count == 37 + 33 + 13, "\(folders.stdout)")
        // ls -l shows every entry without the '+' (ACL) or '.' (label) marks: the mount answers
        // EOPNOTSUPP for those namespaces (the browsing scenarios).
        let listing = expectSuccess(try Command.run(["ls", "-l", library.path("feature-1080p.mp4")]))
        #expect(!listing.stdout.contains("+ ") && !listing.stdout.contains(". "), "\(listing.stdout)")
    }

    /// A folder's block size is the page size: glibc sizes a reader's getdents buffer by it, and the
    /// kernel allocates that much for every readdir request. A file's is 128 KiB, which stdio reads by.
    @Test func foldersHavePageSizedBlocksAndFilesLargeOnes() throws {
        let library = try LibraryMount.shared
        for folder in ["", "feature-1080p.mp4", "feature-1080p.mp4/thumbs", "feature-1080p.mp4/chapters"] {
            var status = stat()
            #expect(stat(library.path(folder), &status) == 0 && status.st_blksize == 4096, "\(folder)")
        }
        for file in ["feature-1080p.mp4/info.json", "notes.txt"] {
            var status = stat()
            #expect(stat(library.path(file), &status) == 0 && status.st_blksize == 131_072, "\(file)")
        }
    }

    @Test func infoJSONDescribesStreamsChaptersAndTags() throws {
        let mount = try LibraryMount.shared.client
        func streams(_ info: [String: Any], _ kind: String) -> [[String: Any]] {
            (info["streams"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind }
        }
        let feature = try mount.json("feature-1080p.mp4/info.json")
        #expect(streams(feature, "video").count == 1 && streams(feature, "audio").count == 2 && streams(feature, "subtitle").count == 1)
        #expect(streams(feature, "audio").compactMap { $0["language"] as? String }.sorted() == ["eng", "spa"])
        let video = try #require(streams(feature, "video").first)
        #expect(video["codec"] as? String == "h264" && video["width"] as? Int == 640 && video["height"] as? Int == 360, "\(video)")
        let chapters = feature["chapters"] as? [[String: Any]] ?? []
        #expect(chapters.count == 6 && chapters.allSatisfy {
            $0["title"] != nil && ($0["end"] as? Double ?? 0) > ($0["start"] as? Double ?? 0)
        }, "\(chapters)")
        let container = feature["container"] as? [String: Any] ?? [:]
        #expect(abs((container["duration"] as? Double ?? 0) - 30) < 0.5 && (container["format"] as? String ?? "").hasPrefix("mov"),
                "\(container)")
        let movie = try mount.json("movie-1080p.mkv/info.json")
        #expect(streams(movie, "audio").map { $0["language"] as? String } == ["eng", "fra", "deu"])
        #expect(streams(movie, "subtitle").count == 3 && (movie["chapters"] as? [Any])?.count == 8)
        #expect((try mount.json("clips/Holiday Café 2021.mp4/info.json")["chapters"] as? [Any])?.isEmpty == true)
        let book = try mount.json("audio/audiobook.m4a/info.json")
        #expect((book["chapters"] as? [Any])?.count == 4)
        #expect(streams(book, "video").map { $0["disposition"] as? [String] } == [["attached_pic"]])
    }
}

/// Mounts of their own: a source changed while mounted, a folder far longer than one buffer.
@Suite(.mounts) struct ChangingSourceTests {
    /// A source file that changes while mounted is probed again: nothing stale is served.
    @Test func aChangedSourceFileIsNotServedStale() throws {
        try LibraryMount.with("changed") { library in
            let notes = library.path("notes.txt")
            let before = expectSuccess(try Command.run(["cat", notes])).stdout
            try "new text, longer than before, so the size changes too\n"
                .write(toFile: library.source + "/notes.txt", atomically: true, encoding: .utf8)
            // Entries and attributes are cached for a second; after that the new file shows.
            let changed = "new text, longer than before, so the size changes too\n"
            #expect(Wait.until(10) { (try? Command.run(["cat", notes]).stdout) == changed }, "not seen: the new text")
            #expect(before != changed)
            // Read again unchanged (the kernel may keep its pages), then change the bytes but not
            // the size: the new modification time alone must drop the kernel's cached pages.
            #expect(try Command.run(["cat", notes]).stdout == changed)
            try "NEW TEXT, LONGER THAN BEFORE, SO THE SIZE CHANGES TOO\n"
                .write(toFile: library.source + "/notes.txt", atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)],
                                                  ofItemAtPath: library.source + "/notes.txt")
            #expect(Wait.until(10) { (try? Command.run(["cat", notes]).stdout) == changed.uppercased() }, "not seen: the same size, new bytes")

            let target = library.source + "/clips/portrait-rotated.mp4"
            let mount = library.client
            let duration = { ((try? mount.json("clips/portrait-rotated.mp4/info.json"))?["container"] as? [String: Any])?["duration"] as? Double }
            let durationBefore = try #require(duration())
            // Replace the media file with a different one under the same name.
            try FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: library.source + "/clips/uhd-4k.mp4", toPath: target)
            #expect(Wait.until(10) { duration().map { $0 != durationBefore } ?? false }, "info.json still says \(durationBefore) s")
            expectSuccess(try Command.run(["cmp", "--", target, library.path("clips/portrait-rotated.mp4/portrait-rotated.mp4")]))
        }
    }

    /// A folder far longer than one readdir buffer, listed by four readers at once while files are
    /// added to it: each listing is whole (every name there before once, no name twice) with
    /// the right sizes, and a listing afterwards shows every file. (Answering `opendir` with ENOSYS
    /// fails this: the kernel then caches folder contents itself and mixes the readers' listings.)
    @Test func aLongFolderListsWholeAcrossBuffersWhileItChanges() throws {
        let folder = try TempFolder("long-folder")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        for n in 0..<3000 {
            #expect(FileManager.default.createFile(atPath: source + "/file-\(n).txt", contents: Data(count: n % 97)))
        }
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { _ in
            let readers = try (0..<4).map { k in
                try ChildProcess(["ls", "-l", "--", point], stdout: .file(folder.path("listing-\(k)")))
            }
            for n in 0..<200 {
                #expect(FileManager.default.createFile(atPath: source + "/added-\(n).txt", contents: nil))
            }
            for (k, reader) in readers.enumerated() {
                #expect(reader.wait(timeout: 60) == .exited(0), "ls -l \(k)")
                var sizes: [String: Int] = [:]
                let lines = (try String(contentsOfFile: folder.path("listing-\(k)"), encoding: .utf8)).split(separator: "\n").dropFirst()
                for line in lines {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard fields.count >= 9, let size = Int(fields[4]) else { Issue.record("ls -l \(k): \(line)"); continue }
                    let name = String(fields.last!)
                    #expect(sizes[name] == nil, "listed twice by ls -l \(k): \(name)")
                    sizes[name] = size
                }
                let wrong = (0..<3000).filter { sizes["file-\($0).txt"] != $0 % 97 }
                #expect(wrong.isEmpty, "ls -l \(k): \(wrong.count) names missing or of the wrong size, first \(wrong.prefix(5))")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: point)
            #expect(names.count == 3200 && Set(names).count == 3200, "\(names.count) names")
        }
    }
}
