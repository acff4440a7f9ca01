import Foundation
import Glibc
import Testing
import TestSupport

/// Nobody reads through the mount what the source would not let them read, tried as other users of
/// the machine would: a mount made by root with `-o allow_other`, read by a member of a group and
/// by a user outside it (made by the test, `TestUsers`) with `cat`, `ls` and `getfattr`. Every entry
/// made from a film (the original, documents, pictures at listed and unlisted names, chapters,
/// storyboard, tracks) takes the film's owner, group and read bits, and the kernel refuses the rest
/// (`default_permissions`).
@Suite(.mounts, .serialized) struct PermissionsTests {
    static let film = "movie-1080p.mkv"
    /// Names a media folder resolves without listing them.
    static let unlisted = ["thumbs/at-7.25s@100w.jpg", "thumbs/near-50%.png", "contact-sheet.png"]

    /// For each path: `read` (a file `cat` whole, a folder `ls`), `denied` (Permission denied) or
    /// `failed: why`; with `xattr` first, `getfattr -d` of each instead.
    static let readEach = """
        what=$1; shift
        for p; do
          if [ "$what" = xattr ]; then out=$(getfattr -d -m - -- "$p" 2>&1 >/dev/null)
          elif [ -d "$p" ]; then out=$(ls -- "$p" 2>&1 >/dev/null)
          else out=$(cat -- "$p" 2>&1 >/dev/null); fi
          if [ $? -eq 0 ]; then echo "read $p"
          else case $out in *"Permission denied"*) echo "denied $p";; *) echo "failed $p: $out";; esac; fi
        done
        """

    /// What `user` gets for each path (`readEach`), by path.
    static func outcomes(_ users: TestUsers, as user: String, _ what: String, _ paths: [String]) throws -> [String: String] {
        let result = try users.run(as: user, readEach, [what] + paths, timeout: 300)
        #expect(result.succeeded, "\(result)")
        var outcomes: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let (verdict, rest) = (line.prefix { $0 != " " }, line.drop { $0 != " " }.dropFirst())
            if verdict == "failed" { outcomes[String(rest)] = "failed: " + line } else { outcomes[String(rest)] = String(verdict) }
        }
        return outcomes
    }

    /// A source of three copies of the film: `private.mkv` (0600, root's), `group.mkv` (0640, of
    /// the users' group) and `public.mkv` (0644), mounted with `-o allow_other`, for `body`.
    static func withFilms(_ name: String, _ users: TestUsers, arguments: [String] = [],
                          _ body: (_ source: String, _ folder: TempFolder, _ mount: Mount) throws -> Void) throws {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        letOthersThrough(folder.path)
        let source = try folder.makeFolder("source")
        #expect(chmod(source, 0o755) == 0)
        for (copy, mode, group) in [("private.mkv", 0o600, 0), ("group.mkv", 0o640, users.groupID), ("public.mkv", 0o644, 0)] {
            try FileManager.default.copyItem(atPath: try TestMedia.file(film).path, toPath: source + "/" + copy)
            #expect(chown(source + "/" + copy, 0, group) == 0 && chmod(source + "/" + copy, mode_t(mode)) == 0)
        }
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: ["-o", "allow_other"] + arguments) { mount in
            try body(source, folder, mount)
        }
    }

    /// Every entry of the media folder at `film` (found by root with `find`, which looks each up),
    /// and the unlisted names; folders first.
    static func entries(of film: String) throws -> [String] {
        let found = try Command.run(["find", film, "-mindepth", "1"], timeout: 120)
        #expect(found.succeeded, "\(found)")
        let listed = found.stdout.split(separator: "\n").map(String.init)
        #expect(listed.count > 60, "\(listed)")
        return [film] + listed + unlisted.map { film + "/" + $0 }
    }

    @Test(.needsRoot(for: "a mount other users may enter (allow_other), and users made by the test"))
    func madeFilesAreReadByExactlyThoseWhoMayReadTheFilm() throws {
        let users = try TestUsers("p")
        defer { users.remove() }
        try Self.withFilms("permissions", users) { _, _, mount in
            var paths: [String: [String]] = [:]
            for copy in ["private.mkv", "group.mkv", "public.mkv"] { paths[copy] = try Self.entries(of: mount.path(copy)) }

            // As root sees them: the film's owner, group and read bits; search on folders where read is.
            for (copy, file, folder, group) in [("private.mkv", 0o400, 0o500, 0), ("group.mkv", 0o440, 0o550, users.groupID),
                                                ("public.mkv", 0o444, 0o555, 0)] {
                for path in paths[copy]! {
                    var st = stat()
                    try #require(stat(path, &st) == 0, "\(path): \(String(cString: strerror(errno)))")
                    let expected = (st.st_mode & S_IFMT) == S_IFDIR ? folder : file
                    #expect(st.st_mode & 0o7777 == expected && st.st_uid == 0 && st.st_gid == group,
                            "\(path): \(String(st.st_mode & 0o7777, radix: 8)) \(st.st_uid):\(st.st_gid)")
                }
            }

            let pictures = { (copy: String) in paths[copy]!.filter { $0.contains("/thumbs/") || $0.contains("/chapters/") && $0.hasSuffix(".png") } }
            for (user, readable) in [(users.other, ["public.mkv"]), (users.member, ["group.mkv", "public.mkv"])] {
                for copy in ["private.mkv", "group.mkv", "public.mkv"] {
                    let verdict = readable.contains(copy) ? "read" : "denied"
                    let read = try Self.outcomes(users, as: user, "read", paths[copy]!)
                    let xattrs = try Self.outcomes(users, as: user, "xattr", pictures(copy))
                    for path in paths[copy]! {
                        #expect(read[path] == verdict, "\(user) \(path): \(read[path] ?? "nothing")")
                    }
                    #expect(xattrs.count == pictures(copy).count && xattrs.values.allSatisfy { $0 == verdict }, "\(user) \(copy): \(xattrs)")
                }
            }
            #expect(!mount.log.contains(" error "), "\(mount.log)")
        }
    }

    /// What the kernel does for `getxattr` of a `user.*` attribute on a FUSE mount with
    /// `default_permissions`: it asks for read permission (fs/xattr.c, `xattr_permission`), so the
    /// daemon need not. Shown where nothing else refuses: the mount's root, which the other user
    /// may enter but not read, and its `user.mediafs.stats`.
    @Test(.needsRoot(for: "a mount other users may enter (allow_other), and users made by the test"))
    func theKernelAsksReadPermissionForExtendedAttributes() throws {
        let users = try TestUsers("x")
        defer { users.remove() }
        try Self.withFilms("permissions-xattr", users) { source, _, mount in
            let stats = ["getfattr", "-n", "user.mediafs.stats", "--only-values", "--", mount.point]
            let script = "exec \"$@\""
            #expect(try users.run(as: users.other, script, stats).succeeded)
            #expect(chmod(source, 0o711) == 0)
            // The root's mode is the source's, seen once the kernel's cache time (1 s) is over.
            let refused = try Self.eventually { try users.run(as: users.other, script, stats).stderr.contains("Permission denied") }
            #expect(refused, "getfattr of an unreadable folder was not refused")
            #expect(try users.run(as: users.other, "cat -- \"$1\" >/dev/null", [mount.path("public.mkv/info.json")]).succeeded)
        }
    }

    /// A `chmod` or `chown` of the film shows within the kernel's cache time, as any change does
    /// (here by the source watcher's notifications, at once).
    @Test(.needsRoot(for: "a mount other users may enter (allow_other), and users made by the test"))
    func aChmodOrChownOfTheSourceShows() throws {
        let users = try TestUsers("c")
        defer { users.remove() }
        try Self.withFilms("permissions-chmod", users) { source, _, mount in
            let files = ["public.mkv/info.json", "public.mkv/thumbs/at-25%.png", "public.mkv/tracks"].map(mount.path)
            let verdicts = { (user: String) throws -> Set<String> in Set(try Self.outcomes(users, as: user, "read", files).values) }
            let before = try verdicts(users.other)
            #expect(before == ["read"])

            #expect(chmod(source + "/public.mkv", 0o600) == 0)
            let private600 = try Self.eventually { try verdicts(users.other) == ["denied"] }
            #expect(private600, "a chmod 600 was not seen")
            #expect(chown(source + "/public.mkv", 0, users.groupID) == 0 && chmod(source + "/public.mkv", 0o640) == 0)
            let group640 = try Self.eventually { try verdicts(users.member) == ["read"] }
            #expect(group640, "a chown to the group was not seen")
            let outside = try verdicts(users.other)
            #expect(outside == ["denied"])
            #expect(chmod(source + "/public.mkv", 0o644) == 0)
            let public644 = try Self.eventually { try verdicts(users.other) == ["read"] }
            #expect(public644, "a chmod 644 was not seen")
        }
    }

    /// Lets other users through `path` and every folder above it (mkdtemp makes folders 0700): adds
    /// the search bits where they lack them.
    static func letOthersThrough(_ path: String) {
        var folder = path
        while !folder.isEmpty && folder != "/" {
            var st = stat()
            if stat(folder, &st) == 0 && st.st_mode & 0o011 != 0o011 { chmod(folder, (st.st_mode & 0o7777) | 0o111) }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// Polls `check` until it holds, for at most 5 s (the mount's kernel cache time is 1 s).
    static func eventually(_ check: () throws -> Bool) rethrows -> Bool {
        try Wait.until(5, check)
    }
}
