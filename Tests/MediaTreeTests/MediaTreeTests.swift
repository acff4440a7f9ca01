import FuseBridge
import Foundation
import Glibc
import MediaTree
import Testing
import TestSupport

/// The root mirroring the source, media files as folders holding the original and info.json, listing
/// types and inode numbers as lookups give them, stable inode numbers: the browsing scenarios
/// (TestSupport/Scenarios, run here by ScenarioTests and through a mount by MountedScenarioTests).
@Suite struct MediaTreeTests {
    /// One version of a file under several names (hard links, as a library of copies has): each
    /// `info.json` names its own file, escaped as JSON must be, and is the same document otherwise;
    /// the size stat reports is the size read.
    @Test func infoOfHardLinksNamesEachLink() throws {
        let fixture = try TreeFixture()
        let names = ["feature-1080p.mp4", #"a "quoted" \ back\slash.mp4"#, "tab\there é ü 日本.mp4", "ctrl\u{7}bell.mp4"]
        for name in names.dropFirst() {
            #expect(link(fixture.path("feature-1080p.mp4"), fixture.path(name)) == 0, "\(name)")
        }
        var others: NSDictionary?
        for name in names {
            let info = try fixture.lookup(name + "/info.json")
            let bytes = try fixture.read(name + "/info.json")
            #expect(info.size == Int64(bytes.count), "\(name)")
            var json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(json["file"] as? String == name)
            json["file"] = nil
            if let others { #expect(others == json as NSDictionary, "\(name)") } else { others = json as NSDictionary }
        }
    }

    /// The same for the chapter documents: `chapters.json` names each link and is the same
    /// otherwise, `chapters.txt` (no name in it) is the same for all; sizes are the sizes read.
    @Test func chaptersOfHardLinksNameEachLink() throws {
        let fixture = try TreeFixture()
        let names = ["feature-1080p.mp4", #"a "quoted" \ back\slash.mp4"#, "tab\there é ü 日本.mp4"]
        for name in names.dropFirst() {
            #expect(link(fixture.path("feature-1080p.mp4"), fixture.path(name)) == 0, "\(name)")
        }
        var others: NSDictionary?
        var text: [UInt8]?
        for name in names {
            let json = try fixture.read(name + "/chapters/chapters.json")
            #expect(try fixture.lookup(name + "/chapters/chapters.json").size == Int64(json.count), "\(name)")
            var document = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            #expect(document["file"] as? String == name)
            #expect((document["chapters"] as? [Any])?.isEmpty == false)
            document["file"] = nil
            if let others { #expect(others == document as NSDictionary, "\(name)") } else { others = document as NSDictionary }
            let ogm = try fixture.read(name + "/chapters/chapters.txt")
            #expect(try fixture.lookup(name + "/chapters/chapters.txt").size == Int64(ogm.count), "\(name)")
            if let text { #expect(ogm == text, "\(name)") } else { text = ogm }
        }
    }

    /// A read past the end gives nothing (the browsing scenarios read plain files whole).
    @Test func aReadPastTheEndIsEmpty() throws {
        let fixture = try TreeFixture()
        let notes = try fixture.lookup("notes.txt")
        #expect(try fixture.open(notes.inode).read(offset: notes.size + 10, count: 100).isEmpty)
    }

    @Test func eachVersionOfAFileIsProbedOnce() throws {
        let fixture = try TreeFixture()
        let path = fixture.path("feature-1080p.mp4")
        _ = try fixture.numbered.list(NodeKey.rootNumber)
        _ = try fixture.numbered.list(NodeKey.rootNumber)
        _ = try fixture.read("feature-1080p.mp4/info.json")
        #expect(fixture.media.probes(of: path) == 1)
        try fixture.touch("feature-1080p.mp4")
        _ = try fixture.lookup("feature-1080p.mp4/info.json")
        #expect(fixture.media.probes(of: path) == 2, "a changed modification time is a new version")
    }

    /// A file replaced by another gets a new number for what the kernel reads from it directly (the
    /// original, a plain file): the old and the new version may be open at once. A rewrite in place
    /// keeps the number; folders keep theirs either way; made files are numbered per version of
    /// their source, so the kernel never serves one version's bytes under another's size.
    @Test func aFileReplacedByAnotherGetsANewNumberForItsBytes() throws {
        let fixture = try TreeFixture()
        let folder = try fixture.lookup("feature-1080p.mp4").inode
        let original = try fixture.lookup("feature-1080p.mp4/feature-1080p.mp4").inode
        let info = try fixture.lookup("feature-1080p.mp4/info.json").inode
        let notes = try fixture.lookup("notes.txt").inode
        // A reader holds it open across the changes.
        _ = try fixture.open(notes)

        try "rewritten in place\n".write(toFile: fixture.path("notes.txt"), atomically: false, encoding: .utf8)
        #expect(try fixture.lookup("notes.txt").inode == notes)
        try "replaced by a rename\n".write(toFile: fixture.path("notes.txt"), atomically: true, encoding: .utf8)
        let renewed = try fixture.lookup("notes.txt").inode
        #expect(renewed != notes)
        // The old number still names the file, with its own number, for the handles open on it;
        // opened anew it is stale (the kernel then looks the name up again).
        #expect(try fixture.numbered.attributes(of: notes).inode == notes)
        #expect(throws: TreeError.stale) { try fixture.open(notes) }
        #expect(try fixture.lookup("notes.txt").inode == renewed)

        let staged = fixture.path("staged.mp4")
        try FileManager.default.copyItem(atPath: fixture.path("feature-1080p.mp4"), toPath: staged)
        #expect(rename(staged, fixture.path("feature-1080p.mp4")) == 0)
        #expect(try fixture.lookup("feature-1080p.mp4").inode == folder)
        #expect(try fixture.lookup("feature-1080p.mp4/info.json").inode != info)
        #expect(throws: TreeError.stale) { try fixture.open(info) }
        #expect(try fixture.lookup("feature-1080p.mp4/feature-1080p.mp4").inode != original)
    }

    @Test func aReplacedFileIsSeenAsItIsNow() throws {
        let fixture = try TreeFixture()
        let folder = try fixture.lookup("feature-1080p.mp4")
        let oldInfo = try fixture.read("feature-1080p.mp4/info.json")

        // Another video under the same name: same node, new info.
        try FileManager.default.removeItem(atPath: fixture.path("feature-1080p.mp4"))
        try FileManager.default.copyItem(atPath: fixture.path("clips/clip-vp9.webm"), toPath: fixture.path("feature-1080p.mp4"))
        try fixture.touch("feature-1080p.mp4")
        let newInfo = try fixture.read("feature-1080p.mp4/info.json")
        #expect(newInfo != oldInfo)
        #expect(String(decoding: newInfo, as: UTF8.self).contains("vp9"))
        #expect(try fixture.lookup("feature-1080p.mp4").inode == folder.inode)

        // Text under the media name: a plain file now, with a new number; the folder is gone.
        try "no longer a video\n".write(toFile: fixture.path("feature-1080p.mp4"), atomically: true, encoding: .utf8)
        let plain = try fixture.lookup("feature-1080p.mp4")
        #expect(plain.type == .regular && plain.inode != folder.inode)
        #expect(throws: TreeError.notFound) { try fixture.numbered.attributes(of: folder.inode) }
        #expect(throws: TreeError.notFound) { try fixture.numbered.list(folder.inode) }
    }

    @Test func symbolicLinksStayInsideTheSource() throws {
        let fixture = try TreeFixture()
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: fixture.path("inside.mp4"), withDestinationPath: "feature-1080p.mp4")
        try manager.createSymbolicLink(atPath: fixture.path("outside.txt"), withDestinationPath: "/etc/hostname")
        try manager.createSymbolicLink(atPath: fixture.path("folder-link"), withDestinationPath: "clips")
        try manager.createSymbolicLink(atPath: fixture.path("dangling.mkv"), withDestinationPath: "nothing-here.mkv")
        let names = try fixture.numbered.list(NodeKey.rootNumber).map(\.name)
        #expect(names.contains("inside.mp4"))
        #expect(!names.contains("outside.txt") && !names.contains("folder-link") && !names.contains("dangling.mkv"))
        #expect(try fixture.lookup("inside.mp4").type == .directory)
        #expect(throws: TreeError.notFound) { try fixture.lookup("outside.txt") }
    }

    /// A number the tree never gave is not found (the browsing scenarios check the errors of paths).
    @Test func anUnknownNumberIsNotFound() throws {
        let fixture = try TreeFixture()
        #expect(throws: TreeError.notFound) { try fixture.numbered.attributes(of: 999_999) }
    }
}
