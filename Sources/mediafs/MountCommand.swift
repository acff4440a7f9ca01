import ArgumentParser
import Foundation
import FuseBridge
import Glibc
import Logging
import MediaKit
import MediaTree
import MountLifecycle

/// `mediafs mount SOURCE MOUNTPOINT`: mounts read-only and returns once the mount answers.
struct MountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mount",
        abstract: "Mount SOURCE on MOUNTPOINT, read-only.",
        discussion: """
            Runs in the background and returns once the mount answers, like sshfs; the daemon logs \
            to --log-file. With --foreground it stays attached and logs to stderr; SIGINT, SIGTERM \
            or SIGHUP unmount it. Unmount with: mediafs unmount MOUNTPOINT. The exit status says \
            what failed (mediafs --help lists them): 66 the source, 73 the mount point, 32 the kernel \
            refused the mount, 75 it did not answer in time.
            """)

    @Flag(name: [.short, .long], help: "Stay attached to the terminal and log to stderr.")
    var foreground = false

    @Option(name: .customShort("o"), parsing: .singleValue,
            help: ArgumentHelp("Mount options, comma-separated (allow_other, …); may be repeated.", valueName: "options"))
    var options: [String] = []

    @Option(help: ArgumentHelp("Where the background daemon logs.", valueName: "path"))
    var logFile: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel: String = "info"

    @Option(help: ArgumentHelp("Write the daemon's process id to this file.", valueName: "path"))
    var pidFile: String?

    @Option(help: ArgumentHelp("Seconds to wait for the mount to answer.", valueName: "seconds"))
    var mountTimeout: Double = 30

    @Option(help: ArgumentHelp("""
        Seconds the kernel may keep names and attributes. Source changes are told to it as they happen, so a longer \
        time makes repeated listings faster; changes to the target of a symbolic link are seen only after it.
        """, valueName: "seconds"))
    var kernelCacheTime: Double = 1

    @Option(help: ArgumentHelp("Seconds a media file's probe may take before it is shown as a plain file.", valueName: "seconds"))
    var probeTimeout: Double = 20

    @Option(help: ArgumentHelp("The format listings show images in, png or jpg (every image name resolves with either).",
                               valueName: "format"))
    var imageFormat: String = "png"

    @OptionGroup(title: "Layout") var layout: LayoutOptions
    @OptionGroup(title: "Thumbnails") var thumbs: ThumbsOptions
    @OptionGroup(title: "Storyboards") var storyboard: StoryboardOptions
    @OptionGroup(title: "Contact sheets") var contactSheet: ContactSheetOptions
    @OptionGroup(title: "Caches") var caches: CacheOptions
    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions

    @Option(help: ArgumentHelp("""
        The languages chapter titles are shown in and tracks listed first in, most preferred first, comma-separated: fr,en or \
        fr-CA,eng (BCP-47 or ISO 639 codes). Default: from LANGUAGE, then LC_ALL, LC_MESSAGES, LANG.
        """, valueName: "codes"))
    var languages: String?

    @Flag(help: ArgumentHelp("Serve every read of an original through the daemon, not by the kernel directly "
                             + "(FUSE passthrough, used where the kernel offers it and mediafs runs as root)."))
    var noPassthrough = false

    /// Set by the background parent: the pipe on which the daemon says it is ready.
    @Option(help: .private)
    var readyFd: Int32?

    @Argument(help: "The media folder to show.")
    var source: String

    @Argument(help: "An empty folder to mount on.")
    var mountpoint: String

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of: trace, debug, info, notice, warning, error")
        }
        guard kernelCacheTime >= 0 else { throw ValidationError("--kernel-cache-time must not be negative") }
        guard mountTimeout > 0, probeTimeout > 0 else { throw ValidationError("timeouts must be positive") }
        _ = try treeSettings()
    }

    /// The tree's settings from the options.
    /// - Throws: `ValidationError` naming the option that is wrong.
    func treeSettings() throws -> TreeSettings {
        var settings = TreeSettings()
        guard let format = ImageFormat(fileExtension: imageFormat) else {
            throw ValidationError("--image-format must be png or jpg (not '\(imageFormat)')")
        }
        settings.imageFormat = format
        for group in [layout, thumbs, storyboard, contactSheet, caches, analysis] as [any TreeOptions] {
            try group.apply(to: &settings)
        }
        settings.preferredLanguages = try preferredLanguages()
        return settings
    }

    /// `--languages` as a list, or the environment's preferences without it.
    /// - Throws: `ValidationError` for an entry that is not a language code.
    func preferredLanguages() throws -> [String] {
        guard let languages else { return PreferredLanguages.fromProcessEnvironment() }
        let codes = languages.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for code in codes where LanguageCode(code) == nil {
            throw ValidationError("--languages: '\(code)' is not a language code (like fr, fra, fr-CA)")
        }
        return codes
    }

    func run() throws {
        let paths: (source: String, mountpoint: String)
        let fuseOptions: [String]
        do {
            paths = try MountPreflight.check(source: source, mountpoint: mountpoint)
            fuseOptions = try OptionList.fuseOptions(from: options)
        } catch let error as CLIError {
            ReadyPipe(fd: readyFd)?.send(error.readyLine)
            throw error
        }
        if foreground {
            try serve(source: paths.source, mountpoint: paths.mountpoint, fuseOptions: fuseOptions)
        } else {
            try Background.start(self)
        }
    }

    /// Mounts and serves in this process until unmounted.
    private func serve(source: String, mountpoint: String, fuseOptions: [String]) throws -> Never {
        TerminationSignals.block()
        let ready = ReadyPipe(fd: readyFd)
        if readyFd != nil { setsid() }
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var configured = Logger(label: "mediafs")
        configured.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let logger = configured
        Allocator.configure(logger: logger)
        if let pidFile { try? "\(getpid())\n".write(toFile: pidFile, atomically: true, encoding: .utf8) }

        let tree = MediaTree(sourceRoot: source, media: LocalMediaService(probeTimeout: probeTimeout), logger: logger,
                             settings: try treeSettings())
        let fileSystem = FuseFileSystem(tree: tree, logger: logger, timeouts: .init(seconds: kernelCacheTime),
                                        passthrough: !noPassthrough)
        // Source changes reach the kernel as they happen; the watcher stops in `tree.close()`.
        tree.watchSource(reportingTo: fileSystem.notifier)
        let session = FuseSession(
            fileSystem: fileSystem, mountpoint: mountpoint,
            options: MountOptions(fileSystemName: source, extra: fuseOptions), logger: logger)
        do {
            try ServedMount(session, logger: logger).run { ok in
                ready?.send(ok ? "ready \(getpid())" : CLIError(.noAnswer, "the mount did not answer a stat of its root").readyLine)
                if !ok { logger.error("the mount on \(mountpoint) did not answer a stat of its root") }
            }
        } catch {
            logger.error("\(error)")
            let failure = (error as? FuseError).map(CLIError.init) ?? CLIError(.failed, "\(error)")
            ready?.send(failure.readyLine)
            tree.close()
            if let pidFile { unlink(pidFile) }
            Glibc.exit(failure.kind.status)
        }
        tree.flushCaches()
        tree.close()
        if let pidFile { unlink(pidFile) }
        Glibc.exit(0)
    }
}
