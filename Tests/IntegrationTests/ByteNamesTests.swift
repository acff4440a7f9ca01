import Foundation
import Testing
import TestSupport

/// Every name of the source is shown byte for byte (issue 18): a video, a plain file and a folder
/// whose names are not UTF-8 (Latin-1, as copied from an old Windows or Samba share) are listed
/// with their exact bytes, read and browsed; `info.json` names the file escaped, with its bytes.
@Suite(.mounts) struct ByteNamesTests {
    static let script = #"""
    import json, os, subprocess, sys
    mnt, source = (os.fsencode(a) for a in sys.argv[1:3])
    video, plain, folder = b'bad\xff.mp4', b'plain\xe9.txt', b'dir\xe9'
    report = {}
    report['root'] = sorted(n.hex() for n in os.listdir(mnt))
    report['expected_root'] = sorted(n.hex() for n in (video, plain, folder))
    with open(os.path.join(mnt, plain), 'rb') as f:
        report['plain_same'] = f.read() == open(os.path.join(source, plain), 'rb').read()
    report['folder_listing'] = sorted(n.hex() for n in os.listdir(os.path.join(mnt, folder)))
    film = os.path.join(mnt, video)
    report['film_is_folder'] = os.path.isdir(film)
    if report['film_is_folder']:
        report['film_listing'] = sorted(n.hex() for n in os.listdir(film))
        with open(os.path.join(film, video), 'rb') as f:
            report['original_same'] = f.read() == open(os.path.join(source, video), 'rb').read()
        info = json.loads(open(os.path.join(film, b'info.json'), 'rb').read().decode('utf-8'))
        report['info_file'] = info.get('file')
        report['info_file_bytes'] = bytes(info.get('file_bytes', [])).hex()
        png = open(os.path.join(film, b'thumbs/at-1s.png'), 'rb').read()
        report['thumbnail_png'] = png.startswith(b'\x89PNG') and png.endswith(b'IEND\xaeB`\x82')
        inner = os.path.join(mnt, folder, b'inner\xe0.mp4')
        report['inner_is_folder'] = os.path.isdir(inner)
    print(json.dumps(report))
    """#

    @Test func namesThatAreNotUTF8AreListedReadAndBrowsed() throws {
        let folder = try TempFolder("byte-names")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        let made = folder.path("made.mp4")
        expectSuccess(try Command.run([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240:r=10:d=3",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", made,
        ], timeout: 60), "ffmpeg")
        // The names are made from Python, which takes bytes.
        expectSuccess(try Command.python(#"""
            import os, shutil, sys
            source, made = (os.fsencode(a) for a in sys.argv[1:3])
            shutil.copyfile(made, os.path.join(source, b'bad\xff.mp4'))
            open(os.path.join(source, b'plain\xe9.txt'), 'wb').write(b'caf\xe9\n')
            os.mkdir(os.path.join(source, b'dir\xe9'))
            shutil.copyfile(made, os.path.join(source, b'dir\xe9', b'inner\xe0.mp4'))
            """#, [source, made]), "making the names")
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log")) { mount in
            let result = try Command.python(Self.script, [mount.point, source], timeout: 60)
            expectSuccess(result, "reading the names")
            guard let data = result.stdout.split(separator: "\n").last.map({ Data($0.utf8) }),
                  let report = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                Issue.record("no report: \(result)")
                return
            }
            #expect(report["root"] as? [String] == report["expected_root"] as? [String], "\(report)")
            #expect(report["plain_same"] as? Bool == true)
            #expect(report["folder_listing"] as? [String] == ["696e6e6572e02e6d7034"], "inner\\xe0.mp4: \(report)")
            #expect(report["film_is_folder"] as? Bool == true, "the video behind a Latin-1 name is a media folder: \(report)")
            #expect(report["original_same"] as? Bool == true)
            #expect(report["info_file"] as? String == "bad\\xFF.mp4")
            #expect(report["info_file_bytes"] as? String == "626164ff2e6d7034")
            #expect(report["thumbnail_png"] as? Bool == true)
            #expect(report["inner_is_folder"] as? Bool == true)
        }
    }
}
