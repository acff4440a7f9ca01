import Foundation
import Testing
import TestSupport

/// A real browser reads the storyboard (issue 17): headless Chromium opens a page served by
/// `python3 -m http.server` on 127.0.0.1 with a `<video>` of the original and a
/// `<track kind="metadata">` of `storyboard.vtt`; through the TextTrack API the page checks that
/// every cue was parsed with the right times and that each cue's sheet loads with the natural
/// size its region needs. A screenshot of one sheet drawn on a page is kept as an artefact.
@Suite(.mounts) struct BrowserTests {
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { access($0, X_OK) == 0 }
    }

    static let page = #"""
    <!doctype html>
    <html><body>
    <video id="v" src="film/clip.mp4" preload="metadata" muted>
      <track id="t" kind="metadata" src="film/storyboard/storyboard.vtt" default>
    </video>
    <pre id="out">waiting</pre>
    <script>
    const out = document.getElementById("out");
    const track = document.getElementById("t").track;
    track.mode = "hidden";
    function cuesReady() {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        (function poll() {
          if (track.cues && track.cues.length > 0) return resolve(track.cues);
          if (Date.now() - started > 4000) return reject("no cues");
          setTimeout(poll, 50);
        })();
      });
    }
    function load(src) {
      return new Promise((resolve, reject) => {
        const image = new Image();
        image.onload = () => resolve(image);
        image.onerror = () => reject("cannot load " + src);
        image.src = src;
      });
    }
    cuesReady().then(async cues => {
      const found = [];
      const images = {};
      for (const cue of cues) {
        const [sheet, fragment] = cue.text.split("#xywh=");
        const [x, y, w, h] = fragment.split(",").map(Number);
        if (!(sheet in images)) images[sheet] = await load("film/storyboard/" + sheet);
        const image = images[sheet];
        found.push({start: cue.startTime, end: cue.endTime, sheet, fits: image.naturalWidth >= x + w && image.naturalHeight >= y + h,
                    width: image.naturalWidth, height: image.naturalHeight});
      }
      out.textContent = "RESULT " + JSON.stringify(found);
    }).catch(error => { out.textContent = "FAILED " + error; });
    </script>
    </body></html>
    """#

    @Test func chromiumParsesEveryCueAndLoadsEverySheet() throws {
        guard let chromium = Self.chromium else {
            Issue.record("chromium is not installed (make deps installs it)")
            return
        }
        let folder = try TempFolder("browser")
        defer { folder.remove() }
        let source = try folder.makeFolder("source")
        try StoryboardTests.makeClip(source + "/clip.mp4")
        let point = try folder.makeFolder("mnt")
        try Mount.with(source: source, point: point, log: folder.path("mediafs.log"),
                       arguments: StoryboardTests.arguments) { mount in
            // The page beside a link to the mounted film's folder, served as a web server would.
            let site = try folder.makeFolder("site")
            try Self.page.write(toFile: site + "/page.html", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: site + "/film", withDestinationPath: mount.path("clip.mp4"))
            let port = try Loopback.sparePort()
            let server = try ChildProcess([Command.pythonPath, "-m", "http.server", String(port), "--bind", "127.0.0.1",
                                           "--directory", site])
            defer {
                server.signal(SIGTERM)
                if server.wait(timeout: 5) == nil { _ = server.kill9() }
            }
            let ready = Wait.until(10) { Loopback.accepts(port: port) }
            #expect(ready, "the web server answers")
            let browser = try Command.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                                           "--dump-dom", "http://127.0.0.1:\(port)/page.html"], timeout: 90)
            guard let line = browser.stdout.split(separator: "\n").first(where: { $0.contains("RESULT ") || $0.contains("FAILED ") }),
                  let json = line.range(of: "RESULT ").map({ String(line[$0.upperBound...]).replacingOccurrences(of: "</pre>", with: "") }),
                  let cues = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
                Issue.record("the page gave no result: \(browser)")
                return
            }
            // 30 s every 2 s: 15 cues, [2i, 2i+2] each, 12 on the first sheet.
            #expect(cues.count == 15)
            for (i, cue) in cues.enumerated() {
                #expect(abs((cue["start"] as? Double ?? -1) - Double(2 * i)) < 0.001, "\(cue)")
                #expect(abs((cue["end"] as? Double ?? -1) - Double(min(2 * i + 2, 30))) < 0.05, "\(cue)")
                #expect(cue["fits"] as? Bool == true, "\(cue)")
                #expect(cue["sheet"] as? String == (i < 12 ? "0001.jpg" : "0002.jpg"))
            }
            // A screenshot of the first sheet, kept for a person to look at.
            let shot = try folder.makeFolder("shot")
            try #"<html><body style="margin:0"><img src="film/storyboard/0001.jpg"></body></html>"#
                .write(toFile: site + "/sheet.html", atomically: false, encoding: .utf8)
            let artefacts = ProcessInfo.processInfo.environment["MEDIAFS_TEST_ARTEFACTS"] ?? "/tmp/mediafs-test-artefacts"
            try FileManager.default.createDirectory(atPath: artefacts, withIntermediateDirectories: true)
            let picture = artefacts + "/storyboard-sheet.png"
            let screenshot = try Command.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000",
                                              "--window-size=1280,720", "--screenshot=\(picture)",
                                              "http://127.0.0.1:\(port)/sheet.html"], timeout: 90, directory: shot)
            #expect(screenshot.succeeded && FileManager.default.fileExists(atPath: picture), "\(screenshot)")
        }
    }
}
