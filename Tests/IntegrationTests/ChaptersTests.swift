import Foundation
import Glibc
import Testing
import TestSupport

/// chapters/ and cover.png through a real mount: names, order and start times, the reader's
/// languages, chapters.json and chapters.txt, the attributes, the images, and exact sizes.
@Suite(.mounts) struct ChaptersTests {
    /// The test library with the chapter media (scripts/make-chapter-media.sh) in `chapter-media/`
    /// and the media of `ChapterTreeMedia` in `extra/`.
    static func withLibrary<T>(_ name: String, arguments: [String] = [], environment: [String: String]? = nil,
                               _ body: (LibraryMount) throws -> T) throws -> T {
        try LibraryMount.with(name, arguments: arguments, environment: environment, prepare: { source in
            try copyChapterMedia(into: source + "/chapter-media")
            try ChapterTreeMedia.copy(into: source + "/extra")
        }, body)
    }

    static func copyChapterMedia(into destination: String) throws {
        let copy = try Command.run(["cp", "-a", "--", try ChapterMedia.folder().path, destination], timeout: 60)
        guard copy.succeeded else { throw HarnessError("copying the chapter media failed: \(copy)") }
    }

    /// The names in a folder of the mount, as `ls -1` sorts them.
    static func names(_ path: String) throws -> [String] {
        let listing = try Command.run(["ls", "-1", "--", path])
        #expect(listing.succeeded, "\(listing)")
        return listing.stdout.split(separator: "\n").map(String.init)
    }

    /// One extended attribute's value.
    static func attribute(_ name: String, of path: String) throws -> String {
        try Command.run(["getfattr", "-n", name, "--only-values", "--", path]).stdout
    }

    // MARK: names

    @Test func namesShowNumberStartAndTitleInOrder() throws {
        try Self.withLibrary("chapters-names") { library in
            #expect(try Self.names(library.path("feature-1080p.mp4/chapters")) == [
                "01 00h00m00s Opening.png", "02 00h00m04s The Heist.png", "03 00h00m10s Rooftop Chase.png",
                "04 00h00m15s Interlude at the Café.png", "05 00h00m22s Finale.png", "06 00h00m28s Credits.png",
                "chapters.json", "chapters.txt",
            ])
            // The start in each name is the chapter's start in info.json, in whole seconds.
            let starts = try Command.python(#"""
            import json, os, sys
            folder = sys.argv[1]
            info = json.load(open(f"{folder}/info.json"))
            images = sorted(n for n in os.listdir(f"{folder}/chapters") if n.endswith(".png"))
            for chapter, name in zip(info["chapters"], images):
                s = int(chapter["start"])
                want = f"{s // 3600:02d}h{s // 60 % 60:02d}m{s % 60:02d}s"
                if name.split(" ")[1] != want: print("wrong start:", name, chapter["start"])
            print(len(images), len(info["chapters"]))
            """#, [library.path("feature-1080p.mp4")])
            #expect(starts.stdout == "6 6\n", "\(starts)")

            // Titles with "/", quotes, an emoji, a line break and 300 characters; a zero-length
            // chapter; overlapping chapters; a chapter without a title (MKV).
            let awkward = try Self.names(library.path("extra/awkward.mkv/chapters"))
            #expect(awkward == [
                "01 00h00m00s Intro ∕ \"Quotes\" and 'single' 🎬.png",
                "02 00h00m02s Zero length.png",
                "03 00h00m02s " + String(ChapterTreeMedia.longTitle.prefix(235)) + "….png",
                "04 00h00m04s Overlapping; with a line break.png",
                "05 00h00m09s.png",
                "chapters.json", "chapters.txt",
            ])
            #expect(awkward.allSatisfy { $0.utf8.count <= 255 && !$0.contains("/") })
            #expect(awkward[2].utf8.count == 255)
            let mp4 = try Self.names(library.path("extra/awkward.mp4/chapters"))
            #expect(mp4.prefix(4) == awkward.prefix(4))

            // Sixty chapters found after the clusters, numbered in order.
            let sixty = try Self.names(library.path("chapter-media/chapters-at-end.mkv/chapters"))
            #expect(sixty.count == 62 && sixty[59].hasPrefix("60 00h00m11s Chapter 60 of sixty"))

            // Files without chapters have no chapters/ folder.
            for relative in ["clips/Holiday Café 2021.mp4", "clips/clip-vp9.webm", "series/Season 1/Episode 01.mkv"] {
                #expect(!(try Self.names(library.path(relative))).contains("chapters"), "\(relative)")
                #expect(access(library.path(relative + "/chapters"), F_OK) != 0 && errno == ENOENT, "\(relative)")
            }
            // Audio with chapters but no picture at all: the documents, no images.
            #expect(try Self.names(library.path("chapter-media/nero-only.m4a/chapters")) == ["chapters.json", "chapters.txt"])
            #expect(try Self.names(library.path("chapter-media/id3-chapters.mp3/chapters")) == ["chapters.json", "chapters.txt"])
        }
    }

    // MARK: languages

    /// `--languages fr,en`, `--languages de`, and without the option: the environment's languages.
    @Test(arguments: [
        (["--languages", "fr,en"], ["LANG": "C"], "fr"),
        (["--languages", "de"], ["LANG": "fr_FR.UTF-8"], "de"),
        ([], ["LANG": "de_DE.UTF-8"], "de"),
        ([], ["LANGUAGE": "fr:en", "LANG": "C"], "fr"),
        ([], ["LANG": "C"], "none"),
    ] as [([String], [String: String], String)])
    func titlesFollowThePreferredLanguages(_ arguments: [String], _ locale: [String: String], _ expected: String) throws {
        let folder = try TempFolder("chapters-languages")
        defer { folder.remove() }
        try Self.copyChapterMedia(into: folder.path("source"))
        var environment = ProcessInfo.processInfo.environment.filter { !["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].contains($0.key) }
        environment.merge(locale) { $1 }
        try Mount.with(source: folder.path("source"), point: try folder.makeFolder("mnt"), log: folder.path("log"),
                       arguments: arguments, environment: environment) { mount in
            let multilingual = try Self.names(mount.path("multilingual.mkv/chapters")).filter { $0.hasSuffix(".png") }
            let twoLanguages = try Self.names(mount.path("two-languages.mp4/chapters")).filter { $0.hasSuffix(".png") }
            let expectedMultilingual: [String]
            let expectedTwo: [String]
            switch expected {
            case "fr":
                expectedMultilingual = ["Ouverture", "Le casse ∕ 1re partie", "Préparatifs", "Un titre long", "Intermède 🎬", "Générique"]
                expectedTwo = ["Arrivée", "L'accord ∕ 2e partie", "Départ 🚀"]
            case "de":
                // No German title for the interlude: its undetermined one.
                expectedMultilingual = ["Eröffnung", "Der Coup ∕ Teil 1", "Planung", "Ein langer Titel", "Interlude (und)", "Abspann"]
                expectedTwo = ["Arrival", "The Deal ∕ Part 2", "Departure 🚀"]
            default:
                expectedMultilingual = ["Opening", "The Heist ∕ Part 1", "Planning",
                                        String(ChapterTreeMedia.longTitle.prefix(235)) + "…", "Interlude (und)", "Credits"]
                expectedTwo = ["Arrival", "The Deal ∕ Part 2", "Departure 🚀"]
            }
            let starts = ["01 00h00m00s", "02 00h00m03s", "03 00h00m03s", "04 00h00m05s", "05 00h00m06s", "06 00h00m09s"]
            #expect(multilingual == zip(starts, expectedMultilingual).map { "\($0) \($1).png" }, "\(arguments) \(locale)")
            #expect(twoLanguages == zip(["01 00h00m00s", "02 00h00m04s", "03 00h00m08s"], expectedTwo).map { "\($0) \($1).png" })
            // The chosen title's language, as stored.
            let first = mount.path("multilingual.mkv/chapters/" + multilingual[0])
            let language = try Self.attribute("user.mediafs.chapter.language", of: first)
            #expect(language == ["fr": "fr-FR", "de": "de", "none": "en"][expected], "\(language)")
            let interlude = try Self.attribute("user.mediafs.chapter.language", of: mount.path("multilingual.mkv/chapters/" + multilingual[4]))
            #expect(interlude == (expected == "fr" ? "fr" : "und"))
        }
    }

    // MARK: documents

    @Test func chaptersJSONAndText() throws {
        try Self.withLibrary("chapters-documents", arguments: ["--languages", "fr,en"]) { library in
            let check = try Command.python(#"""
            import json, os, sys
            root = sys.argv[1]
            problems = []
            def expect(ok, what):
                if not ok: problems.append(what)
            folder = f"{root}/chapter-media/multilingual.mkv/chapters"
            doc = json.load(open(f"{folder}/chapters.json"))
            expect(doc["file"] == "multilingual.mkv" and doc["source"] == "matroska", doc["file"])
            expect(doc["preferred_languages"] == ["fr", "en"], doc["preferred_languages"])
            expect(doc["default_edition"] == 1, doc["default_edition"])
            editions = doc["editions"]
            expect([e["uid"] for e in editions] == [1001, 1002] and [e["default"] for e in editions] == [False, True], editions)
            other = editions[0]["chapters"]
            expect([c["uid"] for c in other] == [201, 202] and [c["start"] for c in other] == [0, 7], other)
            expect(all("number" not in c for c in other), "numbers in the other edition")
            used = editions[1]["chapters"]
            expect([c["uid"] for c in used] == [11, 12, 121, 122, 1221, 13, 14, 15], [c["uid"] for c in used])
            expect([c.get("number") for c in used] == [1, 2, 3, None, None, 5, 4, 6], [c.get("number") for c in used])
            expect([c["hidden"] for c in used] == [False, False, False, True, True, False, False, False], "hidden")
            expect([c["depth"] for c in used] == [0, 0, 1, 1, 2, 0, 0, 0], "depth")
            listed = doc["chapters"]
            images = sorted(n for n in os.listdir(folder) if n.endswith(".png"))
            expect([c["file"] for c in listed] == images, [c["file"] for c in listed])
            expect([c["number"] for c in listed] == [1, 2, 3, 4, 5, 6], "numbers")
            expect([c["start"] for c in listed] == [0, 3, 3, 5.5, 6, 9] and [c["end"] for c in listed] == [3, 6, 4.5, 9, 6, 12], "times")
            expect([c["title"] for c in listed][:2] == ["Ouverture", "Le casse / 1re partie"], [c["title"] for c in listed])
            expect(listed[0]["language"] == "fr-FR", listed[0])
            opening = listed[0]["titles"]
            expect([t["text"] for t in opening] == ["Opening", "Ouverture", "Eröffnung"], opening)
            expect([t["languages"] for t in opening] == [["en", "eng"], ["fr-FR", "fre"], ["de", "ger"]], opening)
            expect(opening[1].get("countries") == ["fr"], opening[1])
            expect(listed[5]["enabled"] is False, listed[5])
            credits = [t["languages"] for t in listed[5]["titles"]]
            expect(["spa", "por"] in credits or any("spa" in l and "por" in l for l in credits), credits)
            # The documents are the same bytes at every read, as long as stat says.
            for name in ["chapters.json", "chapters.txt"]:
                a = open(f"{folder}/{name}", "rb").read()
                expect(a == open(f"{folder}/{name}", "rb").read() and len(a) == os.stat(f"{folder}/{name}").st_size, name)
            # The film's chapters.json agrees with its info.json.
            film = f"{root}/feature-1080p.mp4"
            info = json.load(open(f"{film}/info.json"))["chapters"]
            doc = json.load(open(f"{film}/chapters/chapters.json"))
            expect([c["start"] for c in doc["chapters"]] == [c["start"] for c in info], "film starts")
            expect([c["end"] for c in doc["chapters"]] == [c["end"] for c in info], "film ends")
            expect([c["title"] for c in doc["chapters"]] == [c["title"] for c in info], "film titles")
            # An audio file with no picture lists its chapters without files.
            doc = json.load(open(f"{root}/chapter-media/nero-only.m4a/chapters/chapters.json"))
            expect(len(doc["chapters"]) == 3 and all("file" not in c for c in doc["chapters"]), doc["chapters"])
            print("\n".join(map(str, problems)))
            sys.exit(1 if problems else 0)
            """#, [library.mount.point])
            expectSuccess(check)

            let text = try String(contentsOfFile: library.path("chapter-media/multilingual.mkv/chapters/chapters.txt"), encoding: .utf8)
            #expect(text == """
                CHAPTER01=00:00:00.000
                CHAPTER01NAME=Ouverture
                CHAPTER02=00:00:03.000
                CHAPTER02NAME=Le casse / 1re partie
                CHAPTER03=00:00:03.000
                CHAPTER03NAME=Préparatifs
                CHAPTER04=00:00:05.500
                CHAPTER04NAME=Un titre long
                CHAPTER05=00:00:06.000
                CHAPTER05NAME=Intermède 🎬
                CHAPTER06=00:00:09.000
                CHAPTER06NAME=Générique

                """)
            // A line break in a title stays on its line; a chapter without a title has an empty name.
            let awkward = try String(contentsOfFile: library.path("extra/awkward.mkv/chapters/chapters.txt"), encoding: .utf8)
            #expect(awkward.contains("CHAPTER04=00:00:04.000\nCHAPTER04NAME=Overlapping; with a line break\n"), "\(awkward)")
            #expect(awkward.hasSuffix("CHAPTER05=00:00:09.000\nCHAPTER05NAME=\n"))
            #expect(awkward.contains("CHAPTER03NAME=" + ChapterTreeMedia.longTitle + "\n"))
        }
    }

    // MARK: attributes

    @Test func extendedAttributesTellTheChapter() throws {
        try Self.withLibrary("chapters-xattr", arguments: ["--languages", "fr,en"]) { library in
            let opening = library.path("chapter-media/multilingual.mkv/chapters/01 00h00m00s Ouverture.png")
            let dump = expectSuccess(try Command.run(["getfattr", "-d", "--absolute-names", opening]))
            for line in [#"user.mediafs.chapter.start="0""#, #"user.mediafs.chapter.end="3""#,
                         #"user.mediafs.chapter.title="Ouverture""#, #"user.mediafs.chapter.language="fr-FR""#,
                         #"user.mediafs.chapter.image="frame""#] {
                #expect(dump.stdout.contains(line), "\(line)\n\(dump)")
            }
            let long = library.path("extra/awkward.mkv/chapters/" + (try Self.names(library.path("extra/awkward.mkv/chapters")))[2])
            #expect(try Self.attribute("user.mediafs.chapter.title", of: long) == ChapterTreeMedia.longTitle)
            #expect(try Self.attribute("user.mediafs.chapter.start", of: long) == "2")
            #expect(try Self.attribute("user.mediafs.chapter.end", of: long) == "6")
            let untitled = library.path("extra/awkward.mkv/chapters/05 00h00m09s.png")
            #expect(try Self.attribute("user.mediafs.chapter.title", of: untitled) == "")
            #expect(try Self.attribute("user.mediafs.chapter.language", of: untitled) == "und")
            let heist = library.path("feature-1080p.mp4/chapters/02 00h00m04s The Heist.png")
            #expect(try Self.attribute("user.mediafs.chapter.start", of: heist) == "4.775")
            #expect(try Self.attribute("user.mediafs.chapter.end", of: heist) == "10.05")
            #expect(try Self.attribute("user.mediafs.chapter.language", of: heist) == "eng")
            let artwork = library.path("chapter-media/two-languages.mp4/chapters/02 00h00m04s L'accord ∕ 2e partie.png")
            #expect(try Self.attribute("user.mediafs.chapter.image", of: artwork) == "artwork")
            #expect(try Self.attribute("user.mediafs.chapter.language", of: artwork) == "fr-CA")
            let names = expectSuccess(try Command.run(["getfattr", "--absolute-names", "-m", "-", artwork])).stdout
            #expect(!names.contains("user.mediafs.time"), "artwork has no frame time: \(names)")
            let book = library.path("audio/audiobook.m4a/chapters/02 00h00m05s Part Two: The Road.png")
            #expect(try Self.attribute("user.mediafs.chapter.image", of: book) == "cover")
            // Only `getfattr -d` of the opening made an image: it asks for user.mediafs.time, the
            // time of the frame shown. The chapter attributes need none.
            let stats = try ThumbsTests.statistics(library)
            #expect(stats["chapter_images_made"] == 1 && stats["covers_made"] == 0, "\(stats)")
            #expect(try Self.attribute("user.mediafs.time", of: opening) == "0.3", "a tenth of the 3 s chapter")
        }
    }

    // MARK: images

    /// Frames a little after each chapter's start (start + min(1 s, 10% of the chapter)), and past
    /// a black fade-in.
    @Test func framesAreTakenJustAfterEachStart() throws {
        try Self.withLibrary("chapters-frames") { library in
            let check = try PNGProbe.run(#"""
            import json, os, sys
            film = sys.argv[1]
            chapters = json.load(open(f"{film}/info.json"))["chapters"]
            images = sorted(n for n in os.listdir(f"{film}/chapters") if n.endswith(".png"))
            for chapter, name in zip(chapters, images):
                t = chapter["start"] + min(1, 0.1 * (chapter["end"] - chapter["start"]))
                expected = int(t * 25 + 1e-6)   # 25 fps: the frame shown at t
                path = f"{film}/chapters/{name}"
                w, h, rows = png(path)
                time = float(os.getxattr(path, "user.mediafs.time"))
                print(name, frame_index(path), expected, f"{w}x{h}", abs(time - expected / 25) < 1e-6)
            """#, [library.path("feature-1080p.mp4")])
            expectSuccess(check)
            let lines = check.stdout.split(separator: "\n")
            #expect(lines.count == 6)
            for line in lines {
                let parts = line.split(separator: " ")
                #expect(parts.count >= 5 && parts[parts.count - 4] == parts[parts.count - 3], "frame shown vs expected: \(line)")
                #expect(line.hasSuffix(" 320x180 True"), "\(line)")
            }

            // fade.mp4 starts with 1.5 s of black: the first try (0.6 s) is black, the next (1.67 s) is not.
            let fade = try PNGProbe.run(#"""
            import os, sys
            path = sys.argv[1]
            w, h, rows = png(path)
            luma = sum((77 * r[i] + 150 * r[i + 1] + 29 * r[i + 2]) >> 8 for r in rows for i in range(0, 3 * w, 3)) / (w * h)
            print(luma > 16, os.getxattr(path, "user.mediafs.time").decode())
            """#, [library.path("extra/fade.mp4/chapters/01 00h00m00s Fade in.png")])
            #expect(fade.stdout == "True 1.64\n", "\(fade)")
        }
    }

    /// Stored pictures byte for byte, listed in their own format (a JPEG cover as `cover.jpg`,
    /// the bytes `ffmpeg -map 0:v:N -c copy -f image2` gives); the other extension converted, as a
    /// valid PNG of the picture's size.
    @Test func embeddedPicturesAreServed() throws {
        let folderForCopies = try TempFolder("chapters-artwork-copies")
        defer { folderForCopies.remove() }
        try Self.withLibrary("chapters-artwork", arguments: ["--languages", "en"]) { library in
            let artwork = library.path("chapter-media/two-languages.mp4/chapters")
            let images = try Self.names(artwork).filter { $0.hasSuffix(".png") }
            #expect(images == ["01 00h00m00s Arrival.png", "02 00h00m04s The Deal ∕ Part 2.png", "03 00h00m08s Departure 🚀.png"])
            for (i, name) in images.enumerated() {
                expectSuccess(try Command.run(["cmp", "--", artwork + "/" + name, library.source + "/chapter-media/image-\(i + 1).png"]), name)
            }
            expectSuccess(try Command.run(["cmp", "--", library.path("extra/png-cover.m4a/cover.png"),
                                           try ChapterTreeMedia.folder() + "/cover.png"]))
            let check = try PNGProbe.run(#"""
            import hashlib, json, os, subprocess, sys
            root = sys.argv[1]
            for rel in ["audio/audiobook.m4a", "movie-1080p.mkv"]:
                info = json.load(open(f"{root}/{rel}/info.json"))
                cover = next(s for s in info["streams"] if "attached_pic" in s["disposition"])
                w, h, rows = png(f"{root}/{rel}/cover.png")
                print(rel, f"{w}x{h}", (w, h) == (cover["width"], cover["height"]))
            book = f"{root}/audio/audiobook.m4a"
            digest = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
            listed = [n for n in os.listdir(f"{book}/chapters") if n.endswith(".jpg")]
            same = {digest(f"{book}/chapters/{n}") == digest(f"{book}/cover.jpg") for n in listed}
            same |= {digest(f"{book}/chapters/{n[:-4]}.png") == digest(f"{book}/cover.png") for n in listed}
            print("audiobook chapters show the cover", len(listed) == 4 and same == {True})
            # cover.jpg is the stored picture byte for byte, as the ffmpeg command copies it out.
            streams = json.load(open(f"{book}/info.json"))["streams"]
            videos = [s for s in streams if s["kind"] == "video"]
            n = next(i for i, s in enumerate(videos) if "attached_pic" in s["disposition"])
            out = sys.argv[3] + "/cover-copy.jpg"
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", sys.argv[2] + "/audio/audiobook.m4a",
                            "-map", f"0:v:{n}", "-c", "copy", "-f", "image2", out], check=True)
            print("cover.jpg as stored", digest(out) == digest(f"{book}/cover.jpg"), "cover.jpg" in os.listdir(book))
            """#, [library.mount.point, library.source, folderForCopies.path])
            #expect(check.stdout == """
                audio/audiobook.m4a 600x900 True
                movie-1080p.mkv 600x900 True
                audiobook chapters show the cover True
                cover.jpg as stored True True

                """, "\(check)")
            let stats = try ThumbsTests.statistics(library)
            // cover.png of three files, cover.jpg of one (the chapters share them).
            #expect(stats["covers_made"] == 4 && stats["chapter_images_failures"] == 0, "\(stats)")
        }
    }

    /// A JPEG chapter image track written by ffmpeg and named by the video track's `tref`/`chap`
    /// after the chapter text track (libavformat shows it as a second video stream): its pictures
    /// are the chapter images, and it is neither a track in tracks/visual/ nor the video of thumbs/.
    @Test func aJPEGChapterImageTrackIsNoVideoTrack() throws {
        let folder = try TempFolder("chapters-jpeg-track")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try ChapterMedia.file("jpeg-chapter-track.mp4").path,
                                         toPath: source + "/jpeg-chapter-track.mp4")
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("log")) { mount in
            let film = mount.path("jpeg-chapter-track.mp4")
            #expect(try Self.names(film) == ["chapters", "contact-sheet.jpg", "folder.jpg", "info.json", "jpeg-chapter-track.mp4", "storyboard",
                                             "thumbs", "tracks"])
            #expect(try Self.names(film + "/tracks") == ["audible"])
            #expect(access(film + "/tracks/visual", F_OK) != 0 && errno == ENOENT)
            let check = try PNGProbe.run(#"""
            import json, os, sys
            film = sys.argv[1]
            names = sorted(n for n in os.listdir(f"{film}/chapters") if n.endswith(".jpg"))
            print(names)
            for name in names:
                # Listed as the JPEG it is stored as; the .png of the same name converted.
                path = f"{film}/chapters/{name[:-4]}.png"
                w, h, rows = png(path)
                mean = [round(sum(r[i] for r in rows for i in range(c, 3 * w, 3)) / (w * h)) for c in range(3)]
                print(f"{w}x{h}", mean, os.getxattr(path, "user.mediafs.chapter.image").decode())
            w, h, rows = png(f"{film}/thumbs/at-5s.png")
            print("thumbnail", f"{w}x{h}")
            streams = json.load(open(f"{film}/info.json"))["streams"]
            print([(s["codec"], s["disposition"]) for s in streams if s["kind"] == "video"])
            """#, [film])
            expectSuccess(check)
            let lines = check.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "['01 00h00m00s Navy.jpg', '02 00h00m04s Dark red.jpg', '03 00h00m08s Dark green.jpg']", "\(check)")
            // navy (0, 0, 128), dark red (139, 0, 0), dark green (0, 100, 0), through JPEG.
            for (line, expected) in zip(lines.dropFirst(), [[0, 0, 128], [139, 0, 0], [0, 100, 0]]) {
                let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                #expect(line.hasPrefix("64x36 ") && line.hasSuffix(" artwork"), "\(line)")
                #expect(numbers.count == 5 && zip(numbers.dropFirst(2), expected).allSatisfy { abs($0 - $1) <= 8 }, "\(line)")
            }
            #expect(lines.count == 6 && lines[4] == "thumbnail 160x90", "\(check)")
            #expect(lines.last == "[('h264', ['default']), ('mjpeg', ['timed_thumbnails'])]", "\(check)")
        }
    }

    // MARK: sizes and work

    /// stat's size is what read, mmap and `cp -r` give, for every chapter image, document and cover.
    @Test func sizesAreExactForEveryClient() throws {
        try Self.withLibrary("chapters-sizes") { library in
            let check = try Command.python(#"""
            import mmap, os, stat, sys
            root = sys.argv[1]
            problems, count = [], 0
            for folder, dirs, files in os.walk(root):
                if "/thumbs" in folder or folder.endswith("feature-truncated.mp4/chapters"): continue
                for entry in os.scandir(folder):
                    st = os.lstat(entry.path)
                    if entry.is_dir() != stat.S_ISDIR(st.st_mode): problems.append(f"type: {entry.path}")
                    inside = folder.endswith("/chapters") or entry.name == "cover.png"
                    if not inside or stat.S_ISDIR(st.st_mode): continue
                    count += 1
                    data = open(entry.path, "rb").read()
                    if len(data) != st.st_size: problems.append(f"size: {entry.path}: stat {st.st_size}, read {len(data)}")
                    if st.st_size:  # an empty marker (.ignore) cannot be mapped
                        with open(entry.path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                            if m[:] != data: problems.append(f"mmap: {entry.path}")
            print(count)
            print("\n".join(problems))
            sys.exit(1 if problems else 0)
            """#, [library.mount.point], timeout: 300)
            expectSuccess(check)
            #expect((Int(check.stdout.split(separator: "\n").first ?? "") ?? 0) > 130, "\(check.stdout)")

            // cp -r of whole chapter folders: the same names and bytes.
            let target = try library.folder.makeFolder("copied")
            for relative in ["movie-1080p.mkv", "audio/audiobook.m4a", "chapter-media/multilingual.mkv", "extra/awkward.mkv"] {
                let copy = library.folder.path("copied/" + (relative as NSString).lastPathComponent)
                expectSuccess(try Command.run(["cp", "-r", "--", library.path(relative + "/chapters"), copy], timeout: 120), relative)
                expectSuccess(try Command.run(["diff", "-r", "-q", library.path(relative + "/chapters"), copy], timeout: 120), relative)
            }
            expectSuccess(try Command.run(["cp", "--", library.path("audio/audiobook.m4a/cover.png"), target + "/cover.png"]))
            expectSuccess(try Command.run(["cmp", "--", library.path("audio/audiobook.m4a/cover.png"), target + "/cover.png"]))

            // A chapter past the cut of a truncated film: EIO within the bound, the mount stays up.
            let truncated = try Command.python(#"""
            import errno, sys, time
            started = time.monotonic()
            try:
                open(sys.argv[1], "rb").read()
                print("read")
            except OSError as e:
                print(errno.errorcode[e.errno], time.monotonic() - started < 30)
            """#, [library.path("broken/feature-truncated.mp4/chapters/06 00h00m28s Credits.png")], timeout: 120)
            #expect(truncated.stdout == "EIO True\n", "\(truncated)")
            expectSuccess(try Command.run(["ls", library.path("broken/feature-truncated.mp4/chapters")]))
        }
    }

    /// Listing the folder that holds media files reads no chapters; `ls -lR` over the whole mount
    /// reads them but makes no image.
    @Test func listingMakesNoImage() throws {
        try Self.withLibrary("chapters-ls") { library in
            expectSuccess(try Command.run(["ls", "-l", library.mount.point, library.path("chapter-media"), library.path("audio")]))
            var stats = try ThumbsTests.statistics(library)
            #expect(stats["chapter_lists_read"] == 0 && stats["probes"] ?? 0 > 0, "\(stats)")
            for command in [["ls", "-lR", library.mount.point], ["du", "-s", library.mount.point],
                            ["find", library.mount.point, "-name", "*.png", "-size", "+1k"]] {
                expectSuccess(try Command.run(command, timeout: 120), "\(command)")
            }
            stats = try ThumbsTests.statistics(library)
            #expect(stats["chapter_lists_read"] ?? 0 >= 10, "\(stats)")
            #expect(stats["chapter_images_made"] == 0 && stats["covers_made"] == 0 && stats["thumbnails_made"] == 0, "\(stats)")
            expectSuccess(try Command.run(["cat", library.path("feature-1080p.mp4/chapters/01 00h00m00s Opening.png")]))
            expectSuccess(try Command.run(["cat", library.path("feature-1080p.mp4/chapters/01 00h00m00s Opening.png")]))
            stats = try ThumbsTests.statistics(library)
            #expect(stats["chapter_images_made"] == 1, "made once, then kept: \(stats)")
        }
    }
}
