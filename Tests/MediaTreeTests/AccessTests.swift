import FuseBridge
import Foundation
import Glibc
@testable import MediaKit
@testable import MediaTree
import Testing
import TestSupport

/// Who may read what (`Access`): everything made from a file takes the file's owner, group and
/// read bits, whatever its kind, found by walking the whole media folder (so a kind added later is
/// walked too); the original and the source's own entries keep their modes; a `chmod` of the source
/// is a new version, seen without a lookup and without a probe.
@Suite struct AccessTests {
    @Test func theRule() {
        func stat(_ mode: UInt32) -> SourceStat {
            SourceStat(isDirectory: false, isRegular: true, identity: .init(device: 1, inode: 2, size: 3, modificationNanoseconds: 4),
                       mode: UInt32(S_IFREG) | mode, uid: 7, gid: 8,
                       accessTime: timespec(), modificationTime: timespec(), changeTime: timespec())
        }
        let cases: [(mode: UInt32, file: UInt32, folder: UInt32, shown: UInt32)] = [
            (0o600, 0o400, 0o500, 0o400), (0o640, 0o440, 0o550, 0o440), (0o644, 0o444, 0o555, 0o444),
            (0o604, 0o404, 0o505, 0o404), (0o755, 0o444, 0o555, 0o555), (0o711, 0o400, 0o500, 0o511),
            (0o4755, 0o444, 0o555, 0o555), (0o000, 0o000, 0o000, 0o000), (0o066, 0o044, 0o055, 0o044),
        ]
        for c in cases {
            #expect(Access.madeFile(from: stat(c.mode)) == Access(permissions: c.file, owner: 7, group: 8), "\(String(c.mode, radix: 8))")
            #expect(Access.madeFolder(from: stat(c.mode)) == Access(permissions: c.folder, owner: 7, group: 8), "\(String(c.mode, radix: 8))")
            #expect(Access.shown(stat(c.mode)) == Access(permissions: c.shown, owner: 7, group: 8), "\(String(c.mode, radix: 8))")
        }
    }

    static let film = "movie-1080p.mkv"

    /// Names a media folder resolves that it does not list: one of each family.
    static let unlisted = ["thumbs/near-2s@full.png", "thumbs/at-1.5s@120w.jpg", "contact-sheet.png"]

    @Test(arguments: [0o600, 0o640, 0o644, 0o750] as [UInt32])
    func everythingMadeFromAFileTakesItsOwnerGroupAndReadBits(mode: UInt32) throws {
        let cache = try TempFolder("access-walk")
        defer { cache.remove() }
        let fixture = try TreeFixture(files: [Self.film], settings: TracksFolderTests.settings(cache: cache))
        #expect(chmod(fixture.path(Self.film), mode_t(mode)) == 0)
        // As root, an owner and group of nobody's: the rule carries them, not the daemon's.
        let owner: (uid: UInt32, gid: UInt32)
        if geteuid() == 0 {
            #expect(chown(fixture.path(Self.film), 4242, 4343) == 0)
            owner = (4242, 4343)
        } else {
            owner = (getuid(), getgid())
        }
        let made = mode & 0o444, folders = made | made >> 2
        let folder = try fixture.lookup(Self.film)
        #expect(folder.type == .directory && folder.permissions == folders && folder.uid == owner.uid && folder.gid == owner.gid)

        var seen: [String: Attributes] = [:]
        var stack: [(path: String, inode: UInt64)] = [(Self.film, folder.inode)]
        while let (path, inode) = stack.popLast() {
            for entry in try fixture.numbered.list(inode) {
                let relative = path + "/" + entry.name.escaped
                // Looked up as well as listed: a track's listing has no attributes yet.
                let found = try fixture.numbered.lookup(parent: inode, name: entry.name.escaped)
                if !entry.nameAndTypeOnly { #expect(entry.attributes == found, "\(relative)") }
                seen[relative] = found
                if found.type == .directory { stack.append((relative, found.inode)) }
            }
        }
        for relative in Self.unlisted { seen[Self.film + "/" + relative] = try fixture.lookup(Self.film + "/" + relative) }

        // Every kind of entry was walked.
        let top = Set(seen.keys.map { $0.split(separator: "/")[1] }.map { String($0.split(separator: ".")[0]) })
        #expect(top.isSuperset(of: ["movie-1080p", "info", "cover", "contact-sheet", "chapters", "storyboard", "thumbs", "tracks"]), "\(top.sorted())")
        #expect(seen.keys.contains { $0.contains("/tracks/audible/") } && seen.keys.contains { $0.contains("/storyboard/") })
        for (relative, attributes) in seen {
            let expected = attributes.type == .directory ? folders : relative == Self.film + "/" + Self.film ? mode & 0o555 : made
            #expect(attributes.permissions == expected && attributes.uid == owner.uid && attributes.gid == owner.gid,
                    "\(relative): \(String(attributes.permissions, radix: 8)) \(attributes.uid):\(attributes.gid)")
        }
    }

    @Test func aChmodIsANewVersionSeenWithoutALookupOrAProbe() throws {
        let fixture = try TreeFixture(files: ["feature-1080p.mp4", "notes.txt"])
        let film = fixture.path("feature-1080p.mp4")
        let folder = try fixture.lookup("feature-1080p.mp4")
        let thumbs = try fixture.lookup("feature-1080p.mp4/thumbs")
        let before = try fixture.numbered.list(thumbs.inode)
        // A handle open on one of them, as a reader may hold across the change.
        let opened = try fixture.lookup("feature-1080p.mp4/thumbs/" + before[1].name.escaped)
        _ = try fixture.open(opened.inode)
        let notes = try fixture.lookup("notes.txt")
        #expect(before[1].attributes.permissions == 0o444 && notes.permissions == 0o444)
        let probes = fixture.media.total

        #expect(chmod(film, 0o600) == 0 && chmod(fixture.path("notes.txt"), 0o640) == 0)
        // The listing kept was of the other version: not given at once.
        #expect(fixture.numbered.listingAtOnce(thumbs.inode) == nil)
        // By number, as the kernel asks once its cache time is over.
        #expect(try fixture.numbered.attributes(of: folder.inode).permissions == 0o500)
        #expect(try fixture.numbered.attributes(of: thumbs.inode).permissions == 0o500)
        #expect(try fixture.numbered.attributes(of: notes.inode).permissions == 0o440)
        // The new version's files have new numbers (the kernel cannot keep the old permissions
        // under them), and the old number keeps its own version, as handles open on it read it.
        let after = try fixture.numbered.list(thumbs.inode)
        #expect(after.names == before.names)
        #expect(after.allSatisfy { $0.attributes.permissions == 0o400 })
        #expect(Set(after.map(\.inode)).isDisjoint(with: before.map(\.inode)))
        #expect(try fixture.numbered.attributes(of: opened.inode).permissions == 0o444)
        #expect(try fixture.numbered.lookup(parent: thumbs.inode, name: before[1].name.escaped).permissions == 0o400)
        #expect(fixture.media.total == probes)

        // Owned by another: the new owner shows.
        if geteuid() == 0 {
            #expect(chown(film, 4242, 4343) == 0)
            let owned = try fixture.numbered.lookup(parent: thumbs.inode, name: before[1].name.escaped)
            #expect(owned.uid == 4242 && owned.gid == 4343)
        }
    }
}
