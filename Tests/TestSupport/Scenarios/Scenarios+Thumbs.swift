import Glibc
import Testing

/// thumbs/: the listing, any valid name, exact sizes, PNG and JPEG, times past the end, the
/// extended attributes (ThumbsFolderTests, ThumbsTests).
extension ScenarioGroup {
    /// feature-1080p.mp4 (small set): 30 s at 25 fps, 640x360, a keyframe every 2 s.
    public static let thumbs = ScenarioGroup(name: "thumbs", languages: [], scenarios: [
        Scenario("the listing: a name a second, then the quarters; stat makes no image") { c throws in
            let thumbs = "feature-1080p.mp4/thumbs"
            let before = try c.made()
            let folder = try c.client.stat(thumbs)
            #expect(folder.type == .directory && folder.permissions == 0o555, c.at(thumbs))
            let all = try c.listAndStat(thumbs)
            // The markers that keep scanners out come first.
            #expect(all.prefix(3).map(\.0.name) == MediaFolderLayout.markers, c.at(thumbs))
            let listing = Array(all.dropFirst(3))
            #expect(listing.count == 33, c.at(thumbs))
            #expect(listing.first?.0.name == "at-00m00s.png" && listing.last?.0.name == "at-75%.png", c.at(thumbs))
            for (entry, status) in listing {
                #expect(status.type == .regular && status.size > 0 && status.permissions == 0o444, c.at(entry.name))
            }
            // Every size was known without making an image.
            let made = try c.made(since: before)
            #expect(made.isEmpty, c.at("made by listing and a stat of every entry of \(thumbs): \(made)"))
        },

        Scenario("a listed and an unlisted name both resolve; other names do not") { c throws in
            let thumbs = "feature-1080p.mp4/thumbs"
            let listed = try c.client.list(thumbs).map(\.name)
            #expect(listed.contains("at-00m01s.png") && !listed.contains("at-12.5s.png"), c.at(thumbs))
            for name in ["at-00m01s.png", "at-12.5s.png", "near-0:07.png", "at-00:00:29.9@180h.png", "at-30s.png",
                         "at-100%@full.png", "at-1s@640x100.png"] {
                #expect(c.statFailure(thumbs + "/" + name) == nil, c.at(name))
            }
            for name in ["at-12.5s", "at-12.5.png", "at-12.5s.gif", "cover.png", "at-x.png", "middle.png", "at-1s@0w.png"] {
                #expect(c.statFailure(thumbs + "/" + name) == ENOENT, c.at(name))
            }
            // Nothing to show in a file without video.
            #expect(c.statFailure("audio/audiobook.m4a/thumbs/at-1s.png") == ENOENT, c.at("audiobook.m4a/thumbs/at-1s.png"))
        },

        Scenario("a time past the end is ENOENT") { c throws in
            for name in ["at-30.1s.png", "at-30.5s.png", "at-1h.png", "at-2h.png", "at-101%.png"] {
                #expect(c.statFailure("feature-1080p.mp4/thumbs/" + name) == ENOENT, c.at(name))
            }
            // The end itself is the last frame.
            #expect(c.statFailure("feature-1080p.mp4/thumbs/at-30s.png") == nil, c.at("at-30s.png"))
        },

        Scenario("images are PNGs as long as stat says, sized by their box") { c throws in
            let thumbs = "feature-1080p.mp4/thumbs/"
            for name in ["at-00m01s.png", "at-12.5s.png", "at-1s.png", "at-1s@full.png", "near-13s.png"] {
                let bytes = try c.readWhole(thumbs + name)
                #expect(bytes.starts(with: Signature.png), c.at(name))
            }
            // The default box is 320 wide; a 180-high box is 320x180 too; the full size is larger.
            let small = try c.client.stat(thumbs + "at-1s.png").size
            #expect(try c.client.stat(thumbs + "at-1s@full.png").size > small, c.at("at-1s@full.png"))
            #expect(try c.client.stat(thumbs + "at-1s@320w.png").size == small, c.at("at-1s@320w.png"))
            #expect(try c.client.stat(thumbs + "at-1s@180h.png").size == small, c.at("at-1s@180h.png"))
            // The same image at every read.
            #expect(try c.client.read(thumbs + "at-1s.png") == (try c.client.read(thumbs + "at-1s.png")), c.at("at-1s.png"))
        },

        Scenario("the .jpg of a name is a JPEG as long as stat says") { c throws in
            let thumbs = "feature-1080p.mp4/thumbs/"
            for name in ["at-12.5s.jpg", "at-1s@full.jpg", "near-25%.jpg"] {
                let status = try c.client.stat(thumbs + name)
                #expect(status.type == .regular && status.permissions == 0o444, c.at(name))
                let bytes = try c.readWhole(thumbs + name)
                #expect(bytes.starts(with: Signature.jpeg), c.at(name))
            }
        },

        Scenario("extended attributes tell the time asked for and the frame shown") { c throws in
            let thumbs = "feature-1080p.mp4/thumbs/"
            #expect(try c.attributeText("user.mediafs.requested", of: thumbs + "at-1.23s.png") == "1.23", c.at("at-1.23s.png"))
            #expect(try c.attributeText("user.mediafs.requested", of: thumbs + "at-50%.png") == "15", c.at("at-50%.png"))
            #expect(try c.attributeText("user.mediafs.time", of: thumbs + "at-1.23s.png") == "1.2", c.at("at-1.23s.png"))
            #expect(try c.attributeText("user.mediafs.keyframe", of: thumbs + "at-1.23s.png") == "false", c.at("at-1.23s.png"))
            #expect(try c.attributeText("user.mediafs.keyframe", of: thumbs + "at-4s.png") == "true", c.at("at-4s.png"))
            #expect(c.client.failure { () throws(CallError) in try c.client.extendedAttribute("user.other", of: thumbs + "at-4s.png") }
                    == ENODATA, c.at("user.other"))
        },
    ])
}
