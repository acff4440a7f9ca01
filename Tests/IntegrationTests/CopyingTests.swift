import Foundation
import Testing
import TestSupport

/// Whole-tree copies through the mount with the tools people use: every file arrives whole.
@Suite(.mounts) struct CopyingTests {
    @Test func cpRsyncTarAndPythonCopyEverything() throws {
        // Every image listed is made by the copies: fewer of them (every 10 s), and no damaged
        // file, whose frames past the damage give EIO by design (ThumbsTests checks that).
        try LibraryMount.with("copy", arguments: ["--thumb-interval", "10"], prepare: { source in
            try FileManager.default.removeItem(atPath: source + "/broken/feature-truncated.mp4")
        }) { library in
            let point = library.mount.point
            let copies = [
                ("cp", ["cp", "-r", point, library.folder.path("cp")]),
                ("rsync", ["rsync", "-a", point + "/", library.folder.path("rsync")]),
                ("tar", ["/bin/sh", "-c", #"mkdir "$2" && tar -C "$1" -cf - . | tar -C "$2" -xf -"#, "sh",
                         point, library.folder.path("tar")]),
                ("python", [Command.pythonPath, "-c", "import shutil, sys; shutil.copytree(sys.argv[1], sys.argv[2])",
                            point, library.folder.path("python")]),
            ]
            for (name, arguments) in copies {
                expectSuccess(try Command.run(arguments, timeout: 180), name)
                // Same names, same bytes as the mount shows...
                expectSuccess(try Command.run(["diff", "-r", "-q", point, library.folder.path(name)], timeout: 120), name)
                // ...and each original as the source holds it.
                for relative in Library.mediaFolders where relative != "broken/feature-truncated.mp4" {
                    expectSuccess(try Command.run(["cmp", "--", library.source + "/" + relative,
                                                   library.folder.path(name) + "/" + Library.original(relative)]),
                                  "\(name): \(relative)")
                }
            }
            // rsync -a keeps the times the mount reports.
            let times = try Command.shell(#"stat -c %Y "$1/notes.txt" "$2/notes.txt" | uniq | wc -l"#,
                                          [library.source, library.folder.path("rsync")])
            #expect(times.stdout == "1\n")
        }
    }

    /// Reading the same file twice, in pieces at odd offsets, gives the same bytes.
    @Test func readsAtAnyOffsetMatchTheSource() throws {
        try LibraryMount.with("offsets") { library in
            let check = try Command.python(#"""
            import os, random, sys
            src, mnt = sys.argv[1], sys.argv[2]
            random.seed(7)
            a = open(src, "rb").read()
            with open(mnt, "rb") as f:
                for _ in range(300):
                    off = random.randrange(0, len(a) + 10)
                    n = random.choice([1, 7, 4096, 65537, 300000])
                    f.seek(off)
                    assert f.read(n) == a[off:off + n], (off, n)
            print("ok")
            """#, [library.source + "/movie-1080p.mkv", library.path(Library.original("movie-1080p.mkv"))])
            expectSuccess(check)
        }
    }
}
