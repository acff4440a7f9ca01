import Foundation
import Testing
import TestSupport

/// The mirror through a real mount: what `ls`, `find`, `stat` and Python see.
@Suite(.mounts) struct BrowsingTests {
    @Test func mediaFilesAreFoldersAndOthersPassThrough() throws {
        try LibraryMount.with("browse") { library in
            for relative in Library.mediaFolders {
                let listing = try Command.run(["ls", "-1", "--", library.path(relative)])
                #expect(listing.stdout.split(separator: "\n").map(String.init).sorted() == Library.folderNames(relative),
                        "\(relative): \(listing)")
                expectSuccess(try Command.run(["cmp", "--", library.source + "/" + relative,
                                               library.path(Library.original(relative))]), relative)
            }
            for relative in Library.plainFiles {
                let kind = try Command.run(["stat", "-c", "%F %s", "--", library.path(relative)])
                let size = (try FileManager.default.attributesOfItem(atPath: library.source + "/" + relative)[.size] as? Int) ?? -1
                #expect(kind.stdout.hasPrefix("regular") && kind.stdout.hasSuffix(" \(size)\n"), "\(relative): \(kind)")
                expectSuccess(try Command.run(["cmp", "--", library.source + "/" + relative, library.path(relative)]), relative)
            }
            // Times pass through: a plain file's mtime is the source's.
            let times = try Command.shell(#"stat -c %Y "$1/notes.txt" "$2/notes.txt" | uniq | wc -l"#,
                                          [library.source, library.mount.point])
            #expect(times.stdout == "1\n", "\(times)")
        }
    }

    /// For every file, the size `stat` reports is the number of bytes a read gives (also through
    /// mmap), and the type each folder listing reports is the type `stat` reports.
    @Test func everyFileIsWholeAndListingTypesMatchStat() throws {
        // Fewer listed thumbnails (every 10 s): each one read is made.
        try LibraryMount.with("whole", arguments: ["--thumb-interval", "10"]) { library in
            let check = try Command.python(#"""
            import mmap, os, stat, sys
            root = sys.argv[1]
            files = folders = images = 0
            problems = []
            for folder, _, _ in os.walk(root):
                if folder.endswith("feature-truncated.mp4/thumbs") or folder.endswith("feature-truncated.mp4/chapters"):
                    continue  # frames past the cut give EIO (ThumbsTests checks them)
                for entry in os.scandir(folder):
                    st = os.lstat(entry.path)
                    if entry.is_dir(follow_symlinks=False) != stat.S_ISDIR(st.st_mode):
                        problems.append(f"type: {entry.path}")
                    if entry.is_file(follow_symlinks=False) != stat.S_ISREG(st.st_mode):
                        problems.append(f"type: {entry.path}")
                    if entry.inode() != st.st_ino:
                        problems.append(f"inode: {entry.path} {entry.inode()} {st.st_ino}")
                    if stat.S_ISDIR(st.st_mode):
                        folders += 1
                        continue
                    files += 1
                    images += entry.name.endswith((".png", ".jpg")) and entry.name != "poster.jpg"  # poster.jpg: a plain file
                    with open(entry.path, "rb") as f:
                        data = f.read()
                    if len(data) != st.st_size:
                        problems.append(f"size: {entry.path} stat {st.st_size} read {len(data)}")
                    if st.st_size:
                        with open(entry.path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                            if m[:] != data:
                                problems.append(f"mmap: {entry.path}")
            print(files - images, folders, images)
            for p in problems: print(p)
            sys.exit(1 if problems else 0)
            """#, [library.mount.point], timeout: 180)
            expectSuccess(check)
            let counts = check.stdout.split(separator: "\n").first?.split(separator: " ").compactMap { Int($0) } ?? []
            // 14 media folders × (original + info.json) + 8 plain files (with the library's hidden
            // .fixtures-stamp) + 3 chapter folders read (not the truncated film's) × (chapters.json +
            // chapters.txt) + the track files; 14 media folders + 13 thumbs/ (not the audiobook's)
            // + 4 chapters/ + 6 source folders + 14 tracks/ with their group folders; and the
            // images listed in thumbs/ and chapters/ and the covers; per video a storyboard/ with its
            // WebVTT and playlist (and its sheet and contact sheet among the images); per media
            // folder a .directory (and folder.jpg among the images); the 3 markers of each thumbs/,
            // chapters/, storyboard/ and tracks/ read (12 + 3 + 13 + 14).
            #expect(counts.count == 3 && counts[0] == 42 + 33 + 13 * 2 + 14 + 42 * 3 && counts[1] == 37 + 33 + 13 && counts[2] > 60,
                    "\(check.stdout)")
        }
    }

    @Test func lsFindAndStatAgree() throws {
        try LibraryMount.with("ls-find") { library in
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
            // 14 faces (folder.jpg, .directory); 24 chapter images and 4 × 2 documents; a sheet, a
            // WebVTT and a playlist per video; the 3 markers of each made folder.
            #expect(lines.filter { !$0.contains("/thumbs/") && !$0.contains("/chapters/") && !$0.contains("/tracks/")
                && !$0.contains("/storyboard/") }.count == 38 + 13 + 14 * 2, "\(find.stdout)")
            #expect(lines.filter { $0.contains("/storyboard/") }.count == 13 * 3 + 13 * 3, "\(find.stdout)")
            #expect(lines.filter { $0.contains("/tracks/") }.count == 33 + 14 * 3, "\(find.stdout)")
            #expect(lines.filter { $0.contains("/chapters/") }.count == 32 + 4 * 3, "\(find.stdout)")
            #expect(lines.filter { $0.contains("/thumbs/") }.count > 100, "\(find.stdout)")
            #expect(find.stdout == statted.stdout)
            let folders = expectSuccess(try Command.run(["find", library.mount.point, "-mindepth", "1", "-type", "d"]))
            #expect(folders.stdout.split(separator: "\n").count == 37 + 33 + 13, "\(folders.stdout)")
        }
    }

    @Test func infoJSONDescribesStreamsChaptersAndTags() throws {
        try LibraryMount.with("info") { library in
            let check = try Command.python(#"""
            import json, sys
            root = sys.argv[1]
            def load(rel): return json.load(open(f"{root}/{rel}/info.json"))
            f = load("feature-1080p.mp4")
            kinds = [s["kind"] for s in f["streams"]]
            assert kinds.count("video") == 1 and kinds.count("audio") == 2 and kinds.count("subtitle") == 1, kinds
            audio = [s for s in f["streams"] if s["kind"] == "audio"]
            assert sorted(s.get("language") for s in audio) == ["eng", "spa"], audio
            video = next(s for s in f["streams"] if s["kind"] == "video")
            assert video["codec"] == "h264" and video["width"] == 640 and video["height"] == 360, video
            assert len(f["chapters"]) == 6, f["chapters"]
            assert all("title" in c and c["end"] > c["start"] for c in f["chapters"]), f["chapters"]
            assert abs(f["container"]["duration"] - 30) < 0.5, f["container"]
            assert f["file"] == "feature-1080p.mp4" and f["container"]["format"].startswith("mov"), f["container"]
            m = load("movie-1080p.mkv")
            langs = [s.get("language") for s in m["streams"] if s["kind"] == "audio"]
            assert langs == ["eng", "fra", "deu"], langs
            subs = [s for s in m["streams"] if s["kind"] == "subtitle"]
            assert len(subs) == 3, subs
            assert len(m["chapters"]) == 8
            h = load("clips/Holiday Café 2021.mp4")
            assert h["chapters"] == [], h["chapters"]
            a = load("audio/audiobook.m4a")
            assert len(a["chapters"]) == 4, a["chapters"]
            assert [s["disposition"] for s in a["streams"] if s["kind"] == "video"] == [["attached_pic"]], a["streams"]
            print("ok")
            """#, [library.mount.point])
            expectSuccess(check)
        }
    }

    /// A source file that changes while mounted is probed again: nothing stale is served.
    @Test func aChangedSourceFileIsNotServedStale() throws {
        try LibraryMount.with("changed") { library in
            let notes = library.path("notes.txt")
            let before = expectSuccess(try Command.run(["cat", notes])).stdout
            try "new text, longer than before, so the size changes too\n"
                .write(toFile: library.source + "/notes.txt", atomically: true, encoding: .utf8)
            // Entries and attributes are cached for a second; after that the new file shows.
            usleep(1_300_000)
            let after = expectSuccess(try Command.run(["cat", notes])).stdout
            #expect(after == "new text, longer than before, so the size changes too\n" && after != before)
            // Read again unchanged (the kernel may keep its pages), then change the bytes but not
            // the size: the new modification time alone must drop the kernel's cached pages.
            #expect(try Command.run(["cat", notes]).stdout == after)
            try "NEW TEXT, LONGER THAN BEFORE, SO THE SIZE CHANGES TOO\n"
                .write(toFile: library.source + "/notes.txt", atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)],
                                                  ofItemAtPath: library.source + "/notes.txt")
            usleep(1_300_000)
            #expect(try Command.run(["cat", notes]).stdout == "NEW TEXT, LONGER THAN BEFORE, SO THE SIZE CHANGES TOO\n")

            let target = library.source + "/clips/portrait-rotated.mp4"
            let durationBefore = try Command.python(#"import json,sys; print(json.load(open(sys.argv[1]))["container"]["duration"])"#,
                                                    [library.path("clips/portrait-rotated.mp4/info.json")])
            // Replace the media file with a different one under the same name.
            try FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: library.source + "/clips/uhd-4k.mp4", toPath: target)
            usleep(1_300_000)
            let durationAfter = try Command.python(#"import json,sys; print(json.load(open(sys.argv[1]))["container"]["duration"])"#,
                                                   [library.path("clips/portrait-rotated.mp4/info.json")])
            #expect(durationBefore.succeeded && durationAfter.succeeded)
            #expect(durationBefore.stdout != durationAfter.stdout, "\(durationBefore.stdout) → \(durationAfter.stdout)")
            expectSuccess(try Command.run(["cmp", "--", target, library.path("clips/portrait-rotated.mp4/portrait-rotated.mp4")]))
        }
    }

    /// Security labels and ACLs are not supported (EOPNOTSUPP), so `ls -l` stops asking each file
    /// for them; other `user.` names are simply absent (ENODATA); the mount's own are there.
    @Test func extendedAttributeNamespaces() throws {
        try LibraryMount.with("xattr-namespaces") { library in
            let check = try Command.python(#"""
            import errno, os, sys
            for path in sys.argv[1:]:
                for name, code in [("security.selinux", errno.EOPNOTSUPP), ("system.posix_acl_access", errno.EOPNOTSUPP),
                                   ("trusted.x", errno.EOPNOTSUPP), ("user.nothing", errno.ENODATA)]:
                    try:
                        os.getxattr(path, name)
                        raise SystemExit(f"{path}: {name} answered")
                    except OSError as e:
                        assert e.errno == code, (path, name, e)
            assert os.getxattr(sys.argv[3], "user.mediafs.keyframe") in (b"true", b"false")
            print("ok")
            """#, [library.path("notes.txt"), library.path("feature-1080p.mp4"),
                   library.path("feature-1080p.mp4/thumbs/at-25%.png")])
            expectSuccess(check)
            // ls -l still shows every entry, without the '+' (ACL) or '.' (label) marks.
            let listing = try Command.run(["ls", "-l", library.path("feature-1080p.mp4")])
            expectSuccess(listing)
            #expect(!listing.stdout.contains("+ ") && !listing.stdout.contains(". "), "\(listing.stdout)")
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
            let check = try Command.python(#"""
            import os, subprocess, sys
            source, point = sys.argv[1], sys.argv[2]
            readers = [subprocess.Popen(["ls", "-l", "--", point], stdout=subprocess.PIPE, text=True) for _ in range(4)]
            for n in range(200):
                open(os.path.join(source, f"added-{n}.txt"), "w").close()
            for reader in readers:
                out, _ = reader.communicate()
                assert reader.returncode == 0, reader.returncode
                sizes = {}
                for line in out.splitlines()[1:]:
                    fields = line.split()
                    assert fields[-1] not in sizes, f"listed twice: {fields[-1]}"
                    sizes[fields[-1]] = int(fields[4])
                for n in range(3000):
                    assert sizes.get(f"file-{n}.txt") == n % 97, (n, sizes.get(f"file-{n}.txt"))
            names = os.listdir(point)
            assert len(names) == len(set(names)) == 3200, (len(names), len(set(names)))
            print("ok")
            """#, [source, point])
            expectSuccess(check)
        }
    }
}
