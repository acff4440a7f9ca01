import Foundation
import Glibc
import MountLifecycle
import Testing
import TestSupport

/// `mediafs mount`'s exit statuses, each for a real case: what scripts, systemd and the mount(8)
/// helper read (README.md, "Errors"; `mediafs --help`). The statuses are written out as numbers:
/// they are the contract, whatever the code calls them. Each failure has its status both in the
/// background (the command hears it from the daemon on the ready pipe) and with --foreground.
@Suite struct ExitStatusTests {
    /// `mediafs mount` in the background and in the foreground.
    static let modes: [[String]] = [[], ["--foreground"]]

    /// No cache folder (a mount that fails must not write one) and a log in `folder`.
    static func quiet(_ folder: TempFolder) -> [String] {
        ["--cache-dir", "", "--log-file", folder.path("mediafs.log")]
    }

    @Test func helpListsEveryStatus() throws {
        let help = try Command.run([Mount.binary, "--help"])
        for status in [0, 1, 32, 64, 66, 69, 70, 71, 73, 75] {
            let row = String(repeating: " ", count: 3 - String(status).count) + "\(status)  "
            #expect(help.stdout.contains("\n" + row), "status \(status) is not in --help:\n\(help.stdout)")
        }
    }

    /// 66 for the source, 73 for the mount point; nothing is mounted.
    @Test func aMissingSourceOrAnUnusableMountPoint() throws {
        let folder = try TempFolder("refusals")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let empty = try folder.makeFolder("empty")
        let full = try folder.makeFolder("full")
        _ = FileManager.default.createFile(atPath: full + "/something", contents: Data("x".utf8))
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            ([folder.path("no-such-source"), empty], 66, "does not exist"),
            ([folder.path("full/something"), empty], 66, "is not a folder"),
            ([source, folder.path("no-such-point")], 73, "does not exist"),
            ([source, full], 73, "is not empty"),
            ([source, source + "/../source"], 73, "must not contain each other"),
        ]
        for (arguments, status, message) in cases {
            for mode in Self.modes {
                let result = try Command.run([Mount.binary, "mount"] + mode + Self.quiet(folder) + arguments, timeout: 30)
                #expect(result.exitCode == status && result.stderr.contains(message) && result.stderr.hasPrefix("mediafs: "),
                        "\(mode + arguments): wanted \(status): \(result)")
            }
        }
        #expect(!KernelMounts.isMountPoint(empty))
    }

    /// 73 for a mount point that is a mount already, which stays as it was.
    @Test(.mounts) func anAlreadyMountedMountPoint() throws {
        try LibraryMount.with("mounted-twice") { library in
            for mode in Self.modes {
                let result = try Command.run([Mount.binary, "mount"] + mode + Self.quiet(library.folder)
                                             + [library.source, library.mount.point], timeout: 30)
                #expect(result.exitCode == 73 && result.stderr.contains("already a mount point"), "\(mode): \(result)")
            }
            #expect(library.mount.isMounted)
            expectSuccess(try Command.run(["ls", library.path("feature-1080p.mp4")]))
        }
    }

    /// 64 (EX_USAGE), swift-argument-parser's status for every option it rejects, before anything
    /// is looked at.
    @Test func aBadOptionOrArgument() throws {
        let folder = try TempFolder("bad-options")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let point = try folder.makeFolder("mnt")
        let cases: [(arguments: [String], message: String)] = [
            (["--no-such-option", source, point], "Unknown option '--no-such-option'"),
            (["--kernel-cache-time=-1", source, point], "--kernel-cache-time must not be negative"),
            (["--image-format", "gif", source, point], "--image-format must be png or jpg"),
            (["--languages", "fr,12", source, point], "'12' is not a language code"),
            ([source], "Missing expected argument '<mountpoint>'"),
        ]
        for (arguments, message) in cases {
            let result = try Command.run([Mount.binary, "mount"] + arguments, timeout: 30)
            #expect(result.exitCode == 64 && result.stderr.contains(message), "\(arguments): \(result)")
        }
        let cache = try Command.run([Mount.binary, "cache", "stats", "--cache-dir", ""], timeout: 30)
        #expect(cache.exitCode == 64 && cache.stderr.contains("--cache-dir is empty"), "\(cache)")
    }

    /// 64 too for an `-o` option that has no name, or that libfuse does not know (the daemon finds
    /// out, when it makes its session, and tells the command on the ready pipe).
    @Test(.mounts) func aBadMountOption() throws {
        let folder = try TempFolder("bad-mount-options")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let point = try folder.makeFolder("mnt")
        for (option, message) in [("=x", "malformed mount option '=x'"), ("no_such_option", "libfuse rejected the options")] {
            for mode in Self.modes {
                let result = try Command.run([Mount.binary, "mount"] + mode + Self.quiet(folder) + ["-o", option, source, point],
                                             timeout: 30)
                #expect(result.exitCode == 64 && result.stderr.contains(message), "-o \(option) \(mode): \(result)")
            }
        }
        #expect(!KernelMounts.isMountPoint(point))
    }

    /// 32, mount(8)'s "mount failure", when the kernel refuses: `blkdev` asks for a fuseblk mount,
    /// which needs a block device for its source.
    @Test(.mounts) func aMountTheKernelRefuses() throws {
        let folder = try TempFolder("refused")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let point = try folder.makeFolder("mnt")
        for mode in Self.modes {
            let result = try Command.run([Mount.binary, "mount"] + mode + Self.quiet(folder) + ["-o", "blkdev", source, point],
                                         timeout: 30)
            #expect(result.exitCode == 32 && result.stderr.contains("cannot mount on"), "\(mode): \(result)")
        }
        #expect(!KernelMounts.isMountPoint(point))
    }

    /// 75 when the mount does not answer in time: no daemon answers within a millisecond. The
    /// daemon is stopped, and what it mounted meanwhile is gone once it has ended.
    @Test(.mounts) func aMountThatDoesNotAnswerInTime() throws {
        let folder = try TempFolder("no-answer")
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        let point = try folder.makeFolder("mnt")
        let result = try Command.run([Mount.binary, "mount", "--mount-timeout", "0.001"] + Self.quiet(folder) + [source, point],
                                     timeout: 30)
        #expect(result.exitCode == 75 && result.stderr.contains("did not answer within"), "\(result)")
        // The daemon and its watchdog name the mount point among their arguments.
        let ended = Wait.until(20) { Processes.matching { $0.contains(point) }.isEmpty && !KernelMounts.isMountPoint(point) }
        #expect(ended, "left running: \(Processes.matching { $0.contains(point) }); mounted: \(KernelMounts.isMountPoint(point))")
    }

    /// 69 when /dev/fuse is not the FUSE device: in a mount namespace of its own where a plain
    /// file is bound over it.
    @Test(.needsRoot(for: "a mount namespace of its own (unshare --mount)"))
    func noUsableDevFuse() throws {
        let folder = try TempFolder("no-dev-fuse")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let point = try folder.makeFolder("mnt")
        let notADevice = folder.path("not-fuse")
        _ = FileManager.default.createFile(atPath: notADevice, contents: Data())
        let result = try Command.run(["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                                      #"mount --bind "$1" /dev/fuse && exec "$2" mount --foreground "$3" "$4""#,
                                      "sh", notADevice, Mount.binary, source, point], timeout: 30)
        #expect(result.exitCode == 69 && result.stderr.contains("/dev/fuse"), "\(result)")
    }
}
