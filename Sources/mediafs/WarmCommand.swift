import ArgumentParser
import CLinux
import Foundation
import Synchronization
import Glibc
import MediaTree

/// `mediafs warm PATH`: makes ahead of time what a mediafs mount makes on demand — the listed
/// thumbnails, chapter images and tracks of every media folder under PATH, or in the server layout
/// the sidecars, trickplay and BIF beside every film — by reading them through
/// the mount, so that the mount's caches (memory and the disk cache folder) hold them afterwards.
struct WarmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warm",
        abstract: "Make the listed thumbnails, chapter images, storyboards, contact sheets and tracks under a mounted folder ahead of time.",
        discussion: """
            PATH is a folder inside a mediafs mount (or the mount itself). Every media folder below it \
            is visited: the media file is analysed first where it has not been (its scenes; for an episode, the intro \
            and credits it shares with its season), then its contact sheet and each file listed in its thumbs/, chapters/, storyboard/ and tracks/ folders is read once \
            through the mount and thrown away: the daemon makes it and keeps it in its caches. In a mount of the server \
            layout, the sidecars, pictures, trickplay and BIF beside every film are read. Shows a \
            progress bar on a terminal and one line per media folder otherwise. Exit status 1 if any \
            file could not be made.

            With --part K/N, only the K-th of N parts of the library is warmed: each media file \
            (each film, in the server layout) belongs to one part, picked by a hash of its path from \
            the mount's root, the same on every machine. N machines whose mounts of one library share \
            one cache folder (--cache-dir on a network file system) run parts 1/N to N/N at once: each \
            file is made once, by one of them, and together they warm the whole library.
            """)

    @Option(help: "Files read at the same time.")
    var jobs: Int = 2

    @Flag(help: "Do not analyse the media files (their scenes; an episode's intro and credits) before their files are read.")
    var noAnalysis = false

    @Option(help: ArgumentHelp("Warm only this part of the library: the K-th of N, for N machines sharing a cache folder.",
                               valueName: "K/N"))
    var part: String?

    @Argument(help: "A folder inside a mediafs mount.")
    var path: String

    func validate() throws {
        guard jobs >= 1 && jobs <= 64 else { throw ValidationError("--jobs must be between 1 and 64") }
        if let part, LibraryPart(part) == nil { throw ValidationError("--part must be K/N with 1 ≤ K ≤ N, such as 1/3") }
    }

    func run() throws {
        let root = MountPreflight.absolute(path)
        var st = stat()
        guard stat(root, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError(.failed, "'\(path)' is not a folder")
        }
        guard MountTable.fileSystemType(containing: MountPreflight.resolve(root)) == "fuse.mediafs" else {
            throw CLIError(.failed, "'\(path)' is not inside a mediafs mount; mount one first (mediafs mount SOURCE MOUNTPOINT)")
        }
        let walked = WarmPlan.walk(under: root)
        let part = part.flatMap(LibraryPart.init)
        let inPart = WarmPlan.filter(part, root: root)
        let mediaFolders = walked.mediaFolders.filter(inPart)
        // Beside films, what warm reads is not what an analysis adds (a Kodi EDL is not warmed):
        // walked once.
        let films = walked.sourceFolders.flatMap { WarmPlan.serverFiles(in: $0) }.filter { inPart($0.folder) }
        let terminal = isatty(STDERR_FILENO) != 0
        var failures: [(String, String)] = []
        // Analysed first: what the analysis finds (scenes/, chapters for a film without any) is
        // then listed, and warmed with the rest.
        if !noAnalysis {
            let analysed = mediaFolders + films.map(\.folder)
            let progress = WarmProgress(total: analysed.count, terminal: terminal, unit: "media files analysed")
            progress.start(folders: analysed.count, part: part)
            failures += WarmReader.analyse(analysed, progress: progress)
            progress.finish(failures: failures.count)
        }
        let groups = mediaFolders.map { ($0, WarmPlan.generatedFiles(in: $0)) } + films
        let progress = WarmProgress(total: groups.reduce(0) { $0 + $1.files.count }, terminal: terminal)
        progress.start(folders: groups.count, part: part)
        let reads = WarmReader(jobs: jobs).read(groups, progress: progress)
        progress.finish(failures: reads.count)
        failures += reads
        for (file, reason) in failures.prefix(20) {
            FileHandle.standardError.write(Data("mediafs: could not make \(file): \(reason)\n".utf8))
        }
        if !failures.isEmpty { throw ExitCode(CLIError.Kind.failed.status) }  // each printed above
    }
}

/// What `warm` reads: the generated files listed in each media folder (the default layout), and
/// the entries beside each film (the server layout).
enum WarmPlan {
    /// What is made on demand in a media folder: files, and folders of them.
    static let warmedNames = MediaFolderEntries.warmedNames.map(\.escaped)

    /// The folders under `root` (itself included): media folders (holding an `info.json` beside a
    /// file named like the folder; generated folders are not searched for more), and the others,
    /// the source's, where films of the server layout have their entries beside them.
    static func walk(under root: String) -> (mediaFolders: [String], sourceFolders: [String]) {
        var media: [String] = []
        var source: [String] = []
        var stack = [root]
        while let folder = stack.popLast() {
            let name = (folder as NSString).lastPathComponent
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
            if entries.contains(MediaFolderNames.info.escaped) && entries.contains(name) {
                media.append(folder)
                continue
            }
            source.append(folder)
            for entry in entries.reversed() {
                let child = folder + "/" + entry
                if isFolder(child) { stack.append(child) }
            }
        }
        return (media, source)
    }

    /// Whether a media folder or film (its path, `root` or under it) is in `part`: by its path
    /// from the mount's root, which is the media file's path from the source's, whatever folder of
    /// the mount `warm` was given; all are without a part.
    static func filter(_ part: LibraryPart?, root: String) -> (String) -> Bool {
        guard let part else { return { _ in true } }
        let resolved = MountPreflight.resolve(root)
        let point = MountTable.mount(containing: resolved)?.mountPoint ?? resolved
        return { path in
            let full = resolved + path.dropFirst(root.count)
            let relative = full == point ? "" : String(full.dropFirst(point == "/" ? 1 : point.count + 1))
            return part.contains(relativePath: relative)
        }
    }

    /// Every regular file `warmedNames` names in `mediaFolder`, or holds below it, in listing order.
    static func generatedFiles(in mediaFolder: String) -> [String] {
        warmedNames.flatMap { files(at: mediaFolder + "/" + $0) }
    }

    /// Film by film, the files a server layout mount makes beside the films of `folder` that warm
    /// reads (`ServerEntries.warmedNames`), and those under its folders; none in the default layout.
    static func serverFiles(in folder: String) -> [(folder: String, files: [String])] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let listing = names.sorted().map { (name: Name($0), isFolder: isFolder(folder + "/" + $0)) }
        return ServerEntries.warmedNames(in: listing).map { film, entries in
            (folder + "/" + film.escaped, entries.flatMap { files(at: folder + "/" + $0.escaped) })
        }
    }

    /// `path` when it is a file, else every file under it, in listing order.
    static func files(at path: String) -> [String] {
        var files: [String] = []
        var stack = [path]
        while let folder = stack.popLast() {
            var st = stat()
            guard lstat(folder, &st) == 0 else { continue }
            guard st.st_mode & S_IFMT == S_IFDIR else {
                files.append(folder)
                continue
            }
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for entry in entries.sorted() {
                let child = folder + "/" + entry
                if isFolder(child) { stack.append(child) } else { files.append(child) }
            }
        }
        return files
    }

    static func isFolder(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }
}
