import ArgumentParser
import CVersion

/// `mediafs`: mount a media folder as a browsable tree of media folders.
@main
struct MediaFS: ParsableCommand {
    /// What `--version` prints: `git describe` of the source when it was built (scripts/version.sh),
    /// `unknown` for a build the Makefile did not run.
    static let version = String(cString: cversion_string())

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
