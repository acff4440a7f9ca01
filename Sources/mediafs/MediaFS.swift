import ArgumentParser

/// `mediafs`: mount a media folder as a browsable tree of media folders.
@main
struct MediaFS: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "mediafs",
        abstract: "A read-only filesystem that shows each video as a folder of its parts.",
        discussion: """
            Mounted over a media folder, mediafs mirrors it: folders stay folders, other files pass \
            through, and each media file NAME.ext becomes a folder NAME.ext/ holding the original \
            and info.json. See Docs/LAYOUT.md.
            """,
        version: version,
        subcommands: [MountCommand.self, UnmountCommand.self, CacheCommand.self, WarmCommand.self, WatchMountCommand.self]
    )
}
