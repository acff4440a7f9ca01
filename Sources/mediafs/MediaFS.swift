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

            Exit status (mount.fuse.mediafs, mount(8)'s helper, turns these into mount(8)'s):
            \(CLIError.Kind.helpTable)
            """,
        version: version,
        subcommands: [MountCommand.self, UnmountCommand.self, CacheCommand.self, WarmCommand.self, WatchMountCommand.self]
    )

    /// swift-argument-parser's `main`, but a `CLIError` ends the process with its kind's status
    /// (the parser would give any error of ours 1); the parser's own errors keep its statuses
    /// (64 for an option it rejects, 0 for --help).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            error.exit()
        } catch {
            exit(withError: error)
        }
    }
}
