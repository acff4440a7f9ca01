import Foundation
import Glibc
import Testing
import TestSupport

/// The whole tree through the mount, read by every file and copied with the tools people use:
/// every file arrives whole. Every image listed is made here: fewer of them (every 10 s), and no
/// damaged file, whose frames past the damage give EIO by design (ThumbsTests checks that).
@Suite(.mounts, .sharedLibraryMount("copy", arguments: ["--thumb-interval", "10"], prepare: { source in
    try FileManager.default.removeItem(atPath: source + "/broken/feature-truncated.mp4")
}))
struct CopyingTests {
    /// For every file, the size `stat` reports is the number of bytes a read gives (also through
    /// mmap), and the type and inode number each folder listing reports are those `stat` reports.
    @Test func everyFileIsWholeAndListingTypesMatchStat() throws {
        let mount = try LibraryMount.shared.client
        var folders = [""]
        var (files, folderCount, images) = (0, 0, 0)
        while let folder = folders.popLast() {
            for entry in try mount.list(folder) {
                let path = mount.join(folder, entry.name)
                let status = try mount.stat(path)
                #expect(status.type == entry.type && status.inode == entry.inode, "\(path): listed \(entry), stat \(status)")
                if status.type == .directory {
                    folderCount += 1
                    folders.append(path)
                    continue
                }
                files += 1
                // poster.jpg: a plain file.
                if (entry.name.hasSuffix(".png") || entry.name.hasSuffix(".jpg")) && entry.name != "poster.jpg" { images += 1 }
                let bytes = try mount.read(path)
                #expect(Int64(bytes.count) == status.size, "size: \(path): stat \(status.size), read \(bytes.count)")
                #expect(try mount.mapped(path) == bytes, "mmap: \(path)")
            }
        }
        // 13 media folders × (original + info.json) + 8 plain files (with the library's hidden
        // .fixtures-stamp) + 3 chapter folders × (chapters.json + chapters.txt) + 29 track files +
        // 12 videos' storyboard.vtt and .m3u8; 13 media folders + 12 thumbs/ (not the audiobook's)
        // + 3 chapters/ + 6 source folders + 13 tracks/ with their 17 group folders + 12
        // storyboard/; the markers of each of those 40 made folders and each media folder's
        // .directory; the images listed in thumbs/, chapters/ and storyboard/, the covers, the
        // contact sheets and each media folder's folder.jpg.
        let made = 40 * MediaFolderLayout.markers.count + 13
        #expect(files - images == 26 + 8 + 6 + 29 + 24 + made, "\(files - images) files besides images")
        #expect(folderCount == 34 + 30 + 12, "\(folderCount) folders")
        #expect(images > 60, "\(images) images")
    }

    @Test func cpRsyncTarAndPythonCopyEverything() throws {
        let library = try LibraryMount.shared
        let point = library.mount.point
        let copies = [
            ("cp", ["cp", "-r", point, library.folder.path("cp")]),
            ("rsync", ["rsync", "-a", point + "/", library.folder.path("rsync")]),
            ("tar", ["/bin/sh", "-c", #"mkdir "$2" && tar -C "$1" -cf - . | tar -C "$2" -xf -"#, "sh",
                     point, library.folder.path("tar")]),
            ("python", [Command.pythonPath, "-c", "import shutil, sys; shutil.copytree(sys.argv[1], sys.argv[2])",
                        point, library.folder.path("python")]),
        ]
        for (name, arguments) in copies {
            expectSuccess(try Command.run(arguments, timeout: 180), name)
            // Same names, same bytes as the mount shows...
            expectSuccess(try Command.run(["diff", "-r", "-q", point, library.folder.path(name)], timeout: 120), name)
            // ...and each original as the source holds it.
            for relative in Library.mediaFolders where relative != "broken/feature-truncated.mp4" {
                expectSuccess(try Command.run(["cmp", "--", library.source + "/" + relative,
                                               library.folder.path(name) + "/" + Library.original(relative)]),
                              "\(name): \(relative)")
            }
        }
        // rsync -a keeps the times the mount reports.
        var (source, copied) = (stat(), stat())
        #expect(stat(library.source + "/notes.txt", &source) == 0 && stat(library.folder.path("rsync/notes.txt"), &copied) == 0)
        #expect(source.st_mtim.tv_sec == copied.st_mtim.tv_sec)
    }

    /// Reading the same file twice, in pieces at odd offsets, gives the same bytes.
    @Test func readsAtAnyOffsetMatchTheSource() throws {
        let library = try LibraryMount.shared
        let source = Array(try Data(contentsOf: URL(fileURLWithPath: library.source + "/movie-1080p.mkv")))
        let fd = open(library.path(Library.original("movie-1080p.mkv")), O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var random = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let offset = Int.random(in: 0..<source.count + 10, using: &random)
            let count = [1, 7, 4096, 65537, 300000].randomElement(using: &random)!
            var buffer = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset + got)) }
                guard n > 0 else { #expect(n == 0, "pread: errno \(errno)"); break }
                got += n
            }
            let expected = offset < source.count ? Array(source[offset..<min(offset + count, source.count)]) : []
            #expect(Array(buffer.prefix(got)) == expected, "\(count) bytes at \(offset)")
        }
    }
}
