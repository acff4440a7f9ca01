import Foundation
import Glibc
import Testing
import TestSupport

/// Each media folder's face, checked with the file managers' own tools: KDE's `.directory` by
/// `desktop-file-validate` (desktop-file-utils), and `folder.jpg` thumbnailed by Xfce's tumbler,
/// driven through its D-Bus interface on a private session bus.
@Suite(.mounts, .sharedLibraryMount("faces")) struct FolderFaceTests {
    static func installed(_ program: String) -> Bool {
        ["/usr/bin/", "/usr/local/bin/", "/bin/"].contains { access($0 + program, X_OK) == 0 }
    }

    /// The media folders of the mount with a face.
    static func faces(_ mount: Mount) throws -> [String] {
        try Command.run(["find", mount.point, "-name", "folder.jpg"], timeout: 60).stdout
            .split(separator: "\n").map { ($0 as Substring).dropLast("/folder.jpg".count) }.map(String.init).sorted()
    }

    /// `desktop-file-validate` accepts every `.directory` but for its icon, `./folder.jpg`: a path
    /// relative to the folder, which KDE reads (KIO's `iconFromDirectoryFile`) and the validator,
    /// written for application launchers, does not know.
    @Test(.enabled(if: installed("desktop-file-validate"), "desktop-file-validate is not installed (Debian: desktop-file-utils)"))
    func theDirectoryFilesAreValidDesktopEntries() throws {
        let folders = try Self.faces(try LibraryMount.shared.mount)
        #expect(folders.count >= 10, "\(folders)")
        for folder in folders {
            let result = try Command.run(["desktop-file-validate", folder + "/.directory"], timeout: 30)
            let problems = (result.stdout + result.stderr).split(separator: "\n")
                .filter { !$0.contains(#"value "./folder.jpg" for key "Icon" in group "Desktop Entry" looks like a relative path"#) }
            #expect(problems.isEmpty, "\(folder): \(result)")
        }
    }

    /// tumbler thumbnails every `folder.jpg` of the mount (read through it, whole): as many
    /// thumbnails as pictures, none failed.
    @Test(.enabled(if: installed("dbus-run-session") && installed("gdbus")
                   && access("/usr/share/dbus-1/services/org.xfce.Tumbler.Thumbnailer1.service", R_OK) == 0,
                   "tumbler, dbus-run-session or gdbus is not installed (Debian: tumbler, dbus-daemon, libglib2.0-bin)"))
    func tumblerThumbnailsEveryFolderPicture() throws {
        let library = try LibraryMount.shared
        let folder = try TempFolder("faces-tumbler")
        defer { folder.remove() }
        let home = try folder.makeFolder("home")
        let uris = try Self.faces(library.mount).map { "'file://" + $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "/folder.jpg'" }
        // Queue them all, then wait (bounded) until tumbler has written or refused each. The
        // handle to unqueue is typed: gdbus guesses a bare `0` as int32 where it could not read
        // the method's signature from the service (still starting), and tumbler refuses that.
        let script = #"""
        gdbus call --session --dest org.freedesktop.thumbnails.Thumbnailer1 \
            --object-path /org/freedesktop/thumbnails/Thumbnailer1 \
            --method org.freedesktop.thumbnails.Thumbnailer1.Queue "[$1]" "[$2]" normal default "uint32 0" >/dev/null || exit 2
        for i in $(seq 600); do
            done=$(find "$HOME/.cache/thumbnails" -name '*.png' 2>/dev/null | wc -l)
            [ "$done" -ge "$3" ] && break
            sleep 0.1
        done
        echo "normal $(find "$HOME/.cache/thumbnails/normal" -name '*.png' 2>/dev/null | wc -l)"
        echo "failed $(find "$HOME/.cache/thumbnails/fail" -name '*.png' 2>/dev/null | wc -l)"
        """#
        let mimes = Array(repeating: "'image/jpeg'", count: uris.count).joined(separator: ",")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        environment.removeValue(forKey: "XDG_CACHE_HOME")
        let result = try Command.run(["dbus-run-session", "--", "bash", "-c", script, "tumbler", uris.joined(separator: ","),
                                      mimes, String(uris.count)], timeout: 120, environment: environment)
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("normal \(uris.count)\n") && result.stdout.contains("failed 0\n"), "\(result)")
    }
}
