import Foundation
import Testing
import TestSupport

/// Never a broken file (issue 18): while the source video is replaced, in place (`cp` over it)
/// and by a rename over it, four readers poll its thumbnail, `info.json`, a chapter image and an
/// audio track every 20 ms; every read is the whole file of the old or of the new version (an
/// error that makes the reader look again, ENOENT or ESTALE, is allowed; a mix or a cut file is not).
@Suite(.mounts) struct ReplacementTests {
    /// A video of one colour with a sine audio track and two chapters, made with the ffmpeg command.
    private func makeVideo(_ path: String, color: String, size: String, seconds: Int, folder: TempFolder) throws {
        let metadata = folder.path("chapters-\(color).txt")
        try """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=2000
            title=One
            [CHAPTER]
            TIMEBASE=1/1000
            START=2000
            END=\(seconds * 1000)
            title=Two

            """.write(toFile: metadata, atomically: false, encoding: .utf8)
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):s=\(size):r=10:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-i", metadata, "-map", "0:v", "-map", "1:a",
            "-map_metadata", "2", "-map_chapters", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-f", "mp4", path,
        ], timeout: 60), "ffmpeg \(path)")
    }

    /// Polls the four files while `change` replaces the video, twice: in place, then by a rename.
    /// Prints one JSON line: per file, the reads that were neither version, the reads of each
    /// version, and the errors.
    static let script = #"""
    import hashlib, json, os, shutil, sys, threading, time
    mnt, source, old, new = sys.argv[1:5]
    film = os.path.join(mnt, 'a.mp4')
    target = os.path.join(source, 'a.mp4')
    def names():
        chapter = sorted(n for n in os.listdir(film + '/chapters') if n.endswith('.png'))[0]
        track = sorted(os.listdir(film + '/tracks/audible'))[0]
        return {'thumbnail': 'thumbs/at-1s.png', 'info': 'info.json', 'chapter': 'chapters/' + chapter,
                'track': 'tracks/audible/' + track}
    files = names()
    def digest(path):
        with open(path, 'rb') as f:
            return hashlib.sha1(f.read()).hexdigest()
    def settled():
        # Each file read twice alike, a second apart.
        time.sleep(1.5)
        for _ in range(20):
            first = {k: digest(os.path.join(film, p)) for k, p in files.items()}
            time.sleep(0.5)
            if first == {k: digest(os.path.join(film, p)) for k, p in files.items()}:
                return first
        raise SystemExit('the files did not settle')
    def poll(change):
        reads = {k: [] for k in files}
        stop = threading.Event()
        def reader(key):
            path = os.path.join(film, files[key])
            while not stop.is_set():
                try:
                    reads[key].append(digest(path))
                except OSError as error:
                    reads[key].append('errno %d' % error.errno)
                time.sleep(0.02)
        threads = [threading.Thread(target=reader, args=(k,)) for k in files]
        for t in threads: t.start()
        time.sleep(0.5)
        change()
        time.sleep(2.5)
        stop.set()
        for t in threads: t.join()
        return reads
    def in_place(origin):
        return lambda: shutil.copyfile(origin, target)
    def by_rename(origin):
        def change():
            shutil.copyfile(origin, target + '.part')
            os.rename(target + '.part', target)
        return change
    versions = [settled()]
    rounds = [poll(in_place(new))]
    versions.append(settled())
    rounds.append(poll(by_rename(old)))
    versions.append(settled())
    report = {}
    for key in files:
        known = {versions[0][key]: 'old', versions[1][key]: 'new'}
        counts = {'old': 0, 'new': 0, 'neither': 0, 'errors': []}
        for reads in rounds:
            for read in reads[key]:
                if read.startswith('errno'):
                    counts['errors'].append(read)
                else:
                    counts[known.get(read, 'neither')] += 1
        counts['versions_differ'] = versions[0][key] != versions[1][key]
        counts['back_to_old'] = versions[2][key] == versions[0][key]
        report[key] = counts
    print(json.dumps(report))
    """#

    @Test func readersGetWholeFilesOfOneVersionWhileTheSourceIsReplaced() throws {
        let folder = try TempFolder("replacement")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let old = folder.path("old.mp4")
        let new = folder.path("new.mp4")
        // Other sizes: the images of the two versions differ in length, as the documents do.
        try makeVideo(old, color: "red", size: "320x240", seconds: 4, folder: folder)
        try makeVideo(new, color: "blue", size: "640x360", seconds: 5, folder: folder)
        expectSuccess(try Command.run(["cp", old, source + "/a.mp4"]))
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { mount in
            let result = try Command.python(Self.script, [mount.point, source, old, new], timeout: 120)
            expectSuccess(result, "the readers")
            guard let data = result.stdout.split(separator: "\n").last.map({ Data($0.utf8) }),
                  let report = try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else {
                Issue.record("no report: \(result)")
                return
            }
            for (file, counts) in report.sorted(by: { $0.key < $1.key }) {
                #expect(counts["neither"] as? Int == 0, "\(file): a read that was neither version (cut or mixed): \(counts)")
                #expect((counts["old"] as? Int ?? 0) > 0 && (counts["new"] as? Int ?? 0) > 0,
                        "\(file): both versions read: \(counts)")
                #expect(counts["versions_differ"] as? Bool == true && counts["back_to_old"] as? Bool == true, "\(file): \(counts)")
                let errors = counts["errors"] as? [String] ?? []
                #expect(errors.allSatisfy { $0 == "errno \(ENOENT)" || $0 == "errno \(ESTALE)" }, "\(file): \(errors)")
            }
        }
    }
}
