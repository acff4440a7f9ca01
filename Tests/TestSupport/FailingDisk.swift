import Foundation
import Glibc
import MountLifecycle

/// A small ext4 file system on a loop device over an image file, mounted in a test's folder, whose
/// reads can be made to fail from a chosen byte of a file on, as a disk failing there does: the
/// image is cut at the block holding that byte and the loop device told its new size, so every
/// read of a block past it fails with EIO (and the file's pages are dropped from the page cache).
/// `repair()` puts the cut part back. Needs root, a loop device and ext4 (`missing` says which
/// is not there); device-mapper's error target, the other way to fail a disk, is not on every
/// kernel (not on this project's machines).
public final class FailingDisk {
    /// Where the file system is mounted: the source folder of a test's mount.
    public let mountPoint: String
    private let image: String
    private let device: String
    /// The cut part of the image and where it was, while the disk fails.
    private var cut: (tail: String, at: Int64)?

    /// Why no failing disk can be made here, or nil.
    public static let missing: String? = {
        if let root = MountRequirements.rootMissing { return root }
        guard access("/dev/loop-control", F_OK) == 0 else { return "no loop devices (/dev/loop-control)" }
        for tool in ["losetup", "mkfs.ext4", "filefrag"] where (try? ChildProcess.locate(tool)) == nil {
            return "\(tool) is missing (Debian: util-linux, e2fsprogs)"
        }
        return nil
    }()

    /// Makes a `megabytes` ext4 image in `folder`, attaches it to a loop device and mounts it at
    /// `folder/disk`.
    /// - Throws: `HarnessError` when a step fails (what was made is undone).
    public init(in folder: TempFolder, megabytes: Int = 48) throws {
        image = folder.path("disk.img")
        mountPoint = try folder.makeFolder("disk")
        try Self.run(["truncate", "-s", "\(megabytes)M", image])
        try Self.run(["mkfs.ext4", "-q", "-F", "-b", "4096", "-E", "lazy_itable_init=0,lazy_journal_init=0", image])
        device = try Self.run(["losetup", "--find", "--show", image]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try Self.run(["mount", "-t", "ext4", device, mountPoint])
        } catch {
            _ = try? Command.run(["losetup", "-d", device])
            throw error
        }
    }

    /// From now on reads of `file` (a path under `mountPoint`) fail from about byte `offset` on
    /// (from the start of the 4 KiB block that holds it), and so do reads of whatever the disk
    /// holds after it.
    public func fail(_ file: String, from offset: Int64) throws {
        precondition(cut == nil, "the disk is failing already")
        // Everything written reaches the disk first: pages still dirty would be lost, not failed.
        try Self.run(["sync", "-f", file])
        let extents = try Self.run(["filefrag", "-v", "-b4096", file]).stdout
        guard let block = Self.physicalBlock(of: offset / 4096, in: extents) else {
            throw HarnessError("no extent of \(file) holds byte \(offset):\n\(extents)")
        }
        let at = block * 4096
        let tail = image + ".tail"
        try Self.run(["dd", "if=\(image)", "of=\(tail)", "bs=4096", "skip=\(block)", "status=none"])
        try Self.run(["truncate", "-s", "\(at)", image])
        cut = (tail, at)
        try Self.run(["losetup", "--set-capacity", device])
        try Self.dropCachedPages(of: file)
    }

    /// Reads succeed again: the cut part of the image is put back, the device grows to it.
    public func repair() throws {
        guard let cut else { return }
        try Self.run(["dd", "if=\(cut.tail)", "of=\(image)", "bs=4096", "seek=\(cut.at / 4096)", "conv=notrunc", "status=none"])
        unlink(cut.tail)
        self.cut = nil
        try Self.run(["losetup", "--set-capacity", device])
    }

    /// Unmounts the file system and detaches the device.
    public func remove() {
        _ = try? repair()
        _ = try? Command.run(["umount", mountPoint], timeout: 30)
        _ = try? Command.run(["losetup", "-d", device])
    }

    deinit { remove() }

    /// The disk's block holding `logical` block of a file, from `filefrag -v`'s table
    /// (`ext: logical_offset: physical_offset: length: …`, offsets as `first..  last`).
    static func physicalBlock(of logical: Int64, in table: String) -> Int64? {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 4, Int(fields[0]) != nil else { continue }
            let logicalRange = fields[1].components(separatedBy: "..").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            let physicalRange = fields[2].components(separatedBy: "..").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            guard logicalRange.count == 2, physicalRange.count == 2,
                  (logicalRange[0]...logicalRange[1]).contains(logical) else { continue }
            return physicalRange[0] + logical - logicalRange[0]
        }
        return nil
    }

    /// Drops the file's pages from the page cache (`POSIX_FADV_DONTNEED`), so that reads go to
    /// the disk again.
    static func dropCachedPages(of file: String) throws {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HarnessError("open \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let result = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        guard result == 0 else { throw HarnessError("posix_fadvise \(file): \(String(cString: strerror(result)))") }
    }

    @discardableResult
    private static func run(_ arguments: [String]) throws -> CommandResult {
        let result = try Command.run(arguments, timeout: 60)
        guard result.succeeded else { throw HarnessError("\(arguments.joined(separator: " ")): \(result)") }
        return result
    }
}
