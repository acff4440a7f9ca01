import Foundation
import Glibc
import Testing
import TestSupport

/// A mount exported with Samba, as mount-scripts/README.md says: a private smbd shares the mount
/// point of a mount made with `-o allow_other`, and what smbclient fetches over SMB is checked byte
/// for byte against the same files read through the mount. SMB clients take a file's size from
/// the server's `stat` and read that many bytes, so a size that differed from the bytes would come
/// out padded or cut; mediafs's exact sizes are what make the copies whole.
@Suite(.mounts) struct SambaTests {
    static let film = "movie-1080p.mkv"

    @Test(.needsRoot(for: "smbd, which switches to the guest user, and a mount that lets it in (allow_other)"),
          .enabled(if: SambaServer.program != nil, "smbd is not installed (Debian: apt-get install samba)"),
          .enabled(if: SambaServer.client != nil, "smbclient is not installed (Debian: apt-get install smbclient)"))
    func filesFetchedOverSMBAreTheBytesReadThroughTheMount() throws {
        let folder = try TempFolder("samba")
        defer { folder.remove() }
        // smbd reaches the mount point as the guest (nobody): the folders above it must let others
        // through (mkdtemp makes them 0700).
        #expect(chmod(folder.path, 0o711) == 0)
        let source = try folder.makeFolder("source")
        try FileManager.default.copyItem(atPath: try TestMedia.file(Self.film).path, toPath: source + "/" + Self.film)
        let fetched = try folder.makeFolder("fetched")
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: ["-o", "allow_other"]) { mount in
            let server = try SambaServer.startedOrCancelled(folder: try folder.makeFolder("smb"), share: mount.point)
            defer { server.stop() }

            // Listing over SMB makes no image (with `ea support = no`, smbd does not read the
            // user.mediafs.time attribute of every entry, which would make each image).
            let listing = expectSuccess(try server.client("cd \(Self.film)/thumbs; ls; cd ../chapters; ls", directory: fetched))
            #expect(listing.stdout.contains("at-00m00s.png") && listing.stdout.contains("01 00h00m00s Prologue.png"), "\(listing)")
            let afterListing = try MountedTreeClient(point: mount.point).statistics()
            #expect(afterListing["thumbnails_made"] == 0 && afterListing["chapter_images_made"] == 0, "\(afterListing)")

            // Everything of the film but its original (passed through like any file), and a
            // thumbnail that thumbs/ does not list, in one session.
            let fetch = expectSuccess(try server.client(
                "prompt; recurse; cd \(Self.film); mget thumbs; mget chapters; mget tracks; get info.json; "
                    + "get thumbs/at-12.5s.png thumbs/at-12.5s.png", directory: fetched))
            #expect(!(fetch.stdout + fetch.stderr).contains("NT_STATUS"), "\(fetch)")

            let film = mount.path(Self.film)
            var expected: Set<String> = ["info.json", "thumbs/at-12.5s.png"]
            for group in ["thumbs", "chapters", "tracks/audible", "tracks/legible"] {
                let names = try FileManager.default.contentsOfDirectory(atPath: film + "/" + group)
                #expect(!names.isEmpty, "\(group) lists nothing")
                expected.formUnion(names.map { group + "/" + $0 })
            }
            expected.formUnion(MediaFolderLayout.markers.map { "tracks/" + $0 })
            // 31 periodic and 3 quarter thumbnails, 8 chapter images and the two documents, 3
            // audio tracks, 3 subtitle streams as 7 files, the markers of thumbs/, chapters/, tracks/.
            #expect(expected.count == 1 + 1 + 34 + 10 + 3 + 7 + 3 * 3, "\(expected.sorted())")
            let got = Set(FileManager.default.enumerator(atPath: fetched)?.compactMap { entry -> String? in
                guard let relative = entry as? String else { return nil }
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: fetched + "/" + relative, isDirectory: &isFolder)
                    && !isFolder.boolValue ? relative : nil
            } ?? [])
            #expect(got == expected, "missing \(expected.subtracting(got).sorted()), extra \(got.subtracting(expected).sorted())")

            for relative in expected.intersection(got).sorted() {
                let overSMB = try Data(contentsOf: URL(fileURLWithPath: fetched + "/" + relative))
                let direct = try Data(contentsOf: URL(fileURLWithPath: film + "/" + relative))
                var info = stat()
                #expect(stat(film + "/" + relative, &info) == 0 && Int(info.st_size) == direct.count, "\(relative): stat size")
                #expect(overSMB == direct, "\(relative): \(overSMB.count) bytes over SMB, \(direct.count) through the mount")
            }
            #expect(!mount.log.contains(" error "), "\(mount.log)")
        }
    }

    /// Samba reads as the user a client comes in as, and so gets what that user would locally: a
    /// client let in as a user the test makes (the guest account) is refused every made file of the
    /// private film (0600, root's), and served those of its group's film (0640) and the public one.
    @Test(.needsRoot(for: "smbd, which switches to the guest user, a mount that lets it in (allow_other), and users made by the test"),
          .enabled(if: SambaServer.program != nil, "smbd is not installed (Debian: apt-get install samba)"),
          .enabled(if: SambaServer.client != nil, "smbclient is not installed (Debian: apt-get install smbclient)"))
    func aClientGetsWhatItsUserMayRead() throws {
        let users = try TestUsers("s")
        defer { users.remove() }
        try PermissionsTests.withFilms("samba-permissions", users) { _, folder, mount in
            let server = try SambaServer.startedOrCancelled(folder: try folder.makeFolder("smb"), share: mount.point, guest: users.member)
            defer { server.stop() }
            let fetched = try folder.makeFolder("fetched")
            let names = ["info.json", "thumbs/at-12.5s.png", "chapters/chapters.txt", "contact-sheet.jpg", "storyboard/storyboard.vtt"]
            for (film, served) in [("private.mkv", false), ("group.mkv", true), ("public.mkv", true)] {
                try folder.makeFolder("fetched/" + film)
                let commands = names.map { "get \(film)/\($0) \(film)/\($0.replacingOccurrences(of: "/", with: "-"))" }
                let fetch = try server.client("prompt; " + commands.joined(separator: "; "), directory: fetched)
                let output = fetch.stdout + fetch.stderr
                for name in names {
                    let copy = fetched + "/" + film + "/" + name.replacingOccurrences(of: "/", with: "-")
                    let got = FileManager.default.contents(atPath: copy)
                    if served {
                        let direct = FileManager.default.contents(atPath: mount.path(film + "/" + name))
                        #expect(got != nil && got == direct, "\(film)/\(name) over SMB: \(output)")
                    } else {
                        #expect(got == nil, "\(film)/\(name) was served over SMB")
                    }
                }
                if !served {
                    #expect(output.contains("NT_STATUS_ACCESS_DENIED"), "\(output)")
                    let listing = try server.client("ls \(film)/thumbs/*", directory: fetched)
                    #expect(listing.stdout.contains("NT_STATUS_ACCESS_DENIED") || listing.stderr.contains("NT_STATUS_ACCESS_DENIED"),
                            "\(listing)")
                }
            }
        }
    }
}
