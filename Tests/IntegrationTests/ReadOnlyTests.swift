import Foundation
import Glibc
import Testing
import TestSupport

/// Every kind of write fails with EROFS, and the source is unchanged afterwards.
@Suite(.mounts) struct ReadOnlyTests {
    @Test func everyWriteFailsWithEROFS() throws {
        try LibraryMount.with("readonly") { library in
            let fingerprint = "cd \"$1\" && find . -printf '%p %s %T@ %m\\n' | sort && find . -type f -print0 | sort -z | xargs -0 md5sum"
            let before = expectSuccess(try Command.shell(fingerprint, [library.source]))
            let m = library.mount.point
            let feature = m + "/feature-1080p.mp4"
            /// The result of a call that returns -1 and sets errno on failure, or of an open (closed again).
            func opening(_ path: String, _ flags: Int32) -> Int32 {
                let fd = open(path, flags | O_CLOEXEC, 0o644)
                if fd >= 0 { close(fd) }
                return fd
            }
            let attempts: [(String, () -> Int32)] = [
                ("create", { opening(m + "/new.txt", O_WRONLY | O_CREAT | O_TRUNC) }),
                ("write", { opening(m + "/notes.txt", O_RDWR) }),
                ("append", { opening(m + "/notes.txt", O_WRONLY | O_CREAT | O_APPEND) }),
                ("truncate-open", { opening(m + "/notes.txt", O_WRONLY | O_CREAT | O_TRUNC) }),
                ("truncate", { truncate(m + "/notes.txt", 0) }),
                ("write-original", { opening(feature + "/feature-1080p.mp4", O_RDWR) }),
                ("write-info", { opening(feature + "/info.json", O_WRONLY | O_CREAT | O_TRUNC) }),
                ("create-in-media", { opening(feature + "/x.png", O_WRONLY | O_CREAT | O_TRUNC) }),
                ("unlink", { unlink(m + "/notes.txt") }),
                ("unlink-original", { unlink(feature + "/feature-1080p.mp4") }),
                ("rmdir", { rmdir(m + "/series/Season 1/Extras") }),
                ("rmdir-media", { rmdir(feature) }),
                ("rename", { rename(m + "/notes.txt", m + "/notes2.txt") }),
                ("rename-media", { rename(feature, m + "/f.mp4") }),
                ("mkdir", { mkdir(m + "/new", 0o755) }),
                ("mkdir-in-media", { mkdir(feature + "/new", 0o755) }),
                ("symlink", { symlink("notes.txt", m + "/link") }),
                ("link", { link(m + "/notes.txt", m + "/hard") }),
                ("mknod", { mkfifo(m + "/fifo", 0o644) }),
                ("chmod", { chmod(m + "/notes.txt", 0o600) }),
                ("chown", { chown(m + "/notes.txt", 1, 1) }),
                ("utime", { utimes(m + "/notes.txt", [timeval(), timeval()]) }),
                ("setxattr", { ExtendedAttributeCalls.set("user.x", of: m + "/notes.txt", to: [0x31]) }),
                ("removexattr", { ExtendedAttributeCalls.remove("user.x", of: m + "/notes.txt") }),
            ]
            for (name, attempt) in attempts {
                errno = 0
                let result = attempt()
                #expect(result < 0 && errno == EROFS, "\(name): \(result < 0 ? String(cString: strerror(errno)) : "succeeded") instead of EROFS")
            }
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
