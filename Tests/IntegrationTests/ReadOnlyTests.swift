import Foundation
import Testing
import TestSupport

/// Every kind of write fails with EROFS, and the source is unchanged afterwards.
@Suite(.mounts) struct ReadOnlyTests {
    @Test func everyWriteFailsWithEROFS() throws {
        try LibraryMount.with("readonly") { library in
            let fingerprint = "cd \"$1\" && find . -printf '%p %s %T@ %m\\n' | sort && find . -type f -print0 | sort -z | xargs -0 md5sum"
            let before = expectSuccess(try Command.shell(fingerprint, [library.source]))
            let attempts = try Command.python(#"""
            import errno, os, sys
            m = sys.argv[1]
            feature = f"{m}/feature-1080p.mp4"
            attempts = {
                "create": lambda: open(f"{m}/new.txt", "w"),
                "write": lambda: open(f"{m}/notes.txt", "r+b"),
                "append": lambda: open(f"{m}/notes.txt", "ab"),
                "truncate-open": lambda: open(f"{m}/notes.txt", "w"),
                "truncate": lambda: os.truncate(f"{m}/notes.txt", 0),
                "write-original": lambda: open(f"{feature}/feature-1080p.mp4", "r+b"),
                "write-info": lambda: open(f"{feature}/info.json", "w"),
                "create-in-media": lambda: open(f"{feature}/x.png", "w"),
                "unlink": lambda: os.unlink(f"{m}/notes.txt"),
                "unlink-original": lambda: os.unlink(f"{feature}/feature-1080p.mp4"),
                "rmdir": lambda: os.rmdir(f"{m}/series/Season 1/Extras"),
                "rmdir-media": lambda: os.rmdir(feature),
                "rename": lambda: os.rename(f"{m}/notes.txt", f"{m}/notes2.txt"),
                "rename-media": lambda: os.rename(feature, f"{m}/f.mp4"),
                "mkdir": lambda: os.mkdir(f"{m}/new"),
                "mkdir-in-media": lambda: os.mkdir(f"{feature}/new"),
                "symlink": lambda: os.symlink("notes.txt", f"{m}/link"),
                "link": lambda: os.link(f"{m}/notes.txt", f"{m}/hard"),
                "mknod": lambda: os.mkfifo(f"{m}/fifo"),
                "chmod": lambda: os.chmod(f"{m}/notes.txt", 0o600),
                "chown": lambda: os.chown(f"{m}/notes.txt", 1, 1),
                "utime": lambda: os.utime(f"{m}/notes.txt", (0, 0)),
                "setxattr": lambda: os.setxattr(f"{m}/notes.txt", "user.x", b"1"),
                "removexattr": lambda: os.removexattr(f"{m}/notes.txt", "user.x"),
            }
            wrong = []
            for name, attempt in attempts.items():
                try:
                    attempt()
                    wrong.append(f"{name}: succeeded")
                except OSError as e:
                    if e.errno != errno.EROFS:
                        wrong.append(f"{name}: {errno.errorcode.get(e.errno)} instead of EROFS")
            print("\n".join(wrong))
            sys.exit(1 if wrong else 0)
            """#, [library.mount.point])
            expectSuccess(attempts)
            // The shell's own redirection, cp and touch too.
            for script in [#"echo x > "$1/notes.txt""#, #"cp "$1/notes.txt" "$1/copy.txt""#, #"touch "$1/new""#] {
                let result = try Command.shell(script, [library.mount.point])
                #expect(!result.succeeded && result.stderr.contains("Read-only file system"), "\(script): \(result)")
            }
            let after = expectSuccess(try Command.shell(fingerprint, [library.source]))
            #expect(before.stdout == after.stdout)
        }
    }
}
