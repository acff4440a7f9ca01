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
        let films = { walked.sourceFolders.flatMap { WarmPlan.serverFiles(in: $0) }.filter { inPart($0.folder) } }
        let terminal = isatty(STDERR_FILENO) != 0
        var failures: [(String, String)] = []
        // Analysed first: what the analysis finds (scenes/, chapters for a film without any) is
        // then listed, and warmed with the rest.
        if !noAnalysis {
            let analysed = mediaFolders + films().map(\.folder)
            let progress = WarmProgress(total: analysed.count, terminal: terminal, unit: "media files analysed")
            progress.start(folders: analysed.count, part: part)
            failures += WarmReader.analyse(analysed, progress: progress)
            progress.finish(failures: failures.count)
        }
        let groups = mediaFolders.map { ($0, WarmPlan.generatedFiles(in: $0)) } + films()
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

/// Reads files whole and discards them, `jobs` at a time, folder by folder; analyses media files.
struct WarmReader {
    let jobs: Int

    /// The files that could not be read, with the reason; `groups` one after the other (a media
    /// folder's files, or a film's beside it), the files of each `jobs` at a time.
    func read(_ groups: [(folder: String, files: [String])], progress: WarmProgress) -> [(String, String)] {
        let failures = Locked<[(String, String)]>([])
        for (folder, mine) in groups {
            let next = Locked(0)
            let started = Date()
            let finished = DispatchGroup()
            for _ in 0..<min(jobs, max(1, mine.count)) {
                finished.enter()
                Thread.detachNewThread {
                    defer { finished.leave() }
                    while true {
                        let index = next.update { n -> Int in
                            defer { n += 1 }
                            return n
                        }
                        guard index < mine.count else { return }
                        switch Self.readWhole(mine[index]) {
                        case .success(let bytes):
                            progress.done(bytes: bytes)
                        case .failure(let reason):
                            failures.update { $0.append((mine[index], reason.reason)) }
                            progress.done(bytes: 0)
                        }
                    }
                }
            }
            finished.wait()
            progress.folderDone(folder, files: mine.count, seconds: Date().timeIntervalSince(started))
        }
        return failures.update { $0 }
    }

    /// Analyses each media folder (or film) of `paths`, one at a time (each takes every processor):
    /// those that failed, with the reason.
    static func analyse(_ paths: [String], progress: WarmProgress) -> [(String, String)] {
        var failures: [(String, String)] = []
        for path in paths {
            let started = Date()
            if let reason = analyse(path) { failures.append((path + " (its analysis)", reason)) }
            progress.done(bytes: 0)
            progress.folderDone(path, files: 1, seconds: Date().timeIntervalSince(started))
        }
        return failures
    }

    /// Asks the daemon for the analysis of the media folder (or film) at `path`
    /// (`user.mediafs.analysis`, answered once it is done): nil, or why it failed. A folder that
    /// is no media folder (a film without video in the server layout) has nothing to analyse.
    static func analyse(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = getxattr(path, MediaTree.analysisAttribute, &buffer, buffer.count)
            if n >= 0 { return nil }
            switch errno {
            case EINTR: continue
            case ENODATA, ENOTSUP: return nil
            case ERANGE: buffer = [UInt8](repeating: 0, count: buffer.count * 4)
            default: return String(cString: strerror(errno))
            }
        }
    }

    /// Reads `path` to its end; the bytes read, or why not.
    static func readWhole(_ path: String) -> Result<Int64, ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var total: Int64 = 0
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer, 1 << 20)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
            if n == 0 { return .success(total) }
            total += Int64(n)
        }
    }
}

/// Why a file could not be read (the system's message).
struct ReadFailure: Error {
    let reason: String
}

/// Progress on stderr: a bar redrawn in place on a terminal, one line per media folder otherwise.
final class WarmProgress: Sendable {
    private let total: Int
    private let terminal: Bool
    /// What is counted: files read, or media files analysed.
    private let unit: String
    /// Files read and their bytes, from the readers' threads.
    private let reads = Mutex<(count: Int, bytes: Int64)>((0, 0))
    private let started = Date()

    init(total: Int, terminal: Bool, unit: String = "files") {
        self.total = total
        self.terminal = terminal
        self.unit = unit
    }

    func start(folders: Int, part: LibraryPart?) {
        let what = unit == "files" ? "warming \(total) files in \(folders) media folders" : "analysing \(total) media files"
        write(what + (part.map { " (part \($0))" } ?? "") + "\n")
    }

    func done(bytes read: Int64) {
        let count = reads.withLock { done in
            done.count += 1
            done.bytes += read
            return done.count
        }
        if terminal { write("\r" + bar(count)) }
    }

    func folderDone(_ folder: String, files: Int, seconds: Double) {
        guard !terminal else { return }
        let what = unit == "files" ? "warmed \(folder): \(files) files" : "analysed \(folder)"
        write(what + " in \(String(format: "%.1f", seconds)) s\n")
    }

    func finish(failures: Int) {
        let (count, bytes) = reads.withLock { $0 }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        let summary = unit == "files" ? "\(count) files, \(String(format: "%.1f", Double(bytes) / 1e6)) MB in \(seconds) s"
            : "\(count) \(unit) in \(seconds) s"
            + (failures > 0 ? ", \(failures) failed" : "")
        write((terminal ? "\r" + bar(count) + "\n" : "") + "done: " + summary + "\n")
    }

    /// `[#########           ]  45% 123/270 files`, with `count` files read.
    private func bar(_ count: Int) -> String {
        let width = 30
        let share = total == 0 ? 1 : Double(count) / Double(total)
        let filled = Int(share * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + String(format: "%3d%%", Int(share * 100)) + " \(count)/\(total) \(unit)"
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

/// A value behind a lock that escaping closures can capture (a `Mutex` cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }

    /// Runs `body` on the value under the lock.
    func update<T: Sendable>(_ body: (inout Value) -> T) -> T {
        value.withLock { body(&$0) }
    }
}
