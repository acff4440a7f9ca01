import Foundation
import Glibc

/// A test's own copy of the test media library, mounted with mediafs, torn down afterwards in every
/// path (unmounted, daemon ended, folder removed).
public struct LibraryMount: Sendable {
    public let folder: TempFolder
    public let source: String
    public let mount: Mount

    /// `mount.path(relative)`.
    public func path(_ relative: String) -> String { mount.path(relative) }

    /// A reader of the mount by paths relative to its root (`MountedTreeClient`).
    public var client: MountedTreeClient { MountedTreeClient(point: mount.point) }

    /// Copies the library, mounts it on an empty folder with `arguments`, runs `body`, ends the
    /// mount as `ending` says (by default unmounted and checked: `Mount.finish()`), tears down.
    public static func with<T>(_ name: String, arguments: [String] = [], environment: [String: String]? = nil,
                               ending: Mount.Ending = .unmountChecked, prepare: (String) throws -> Void = { _ in },
                               _ body: (LibraryMount) throws -> T) throws -> T {
        let folder = try TempFolder(name)
        defer { folder.remove() }
        let source = try folder.copyOfLibrary()
        try prepare(source)
        let point = try folder.makeFolder("mnt")
        return try Mount.with(source: source, point: point, log: folder.path("mediafs.log"),
                              arguments: arguments, environment: environment, ending: ending) { mount in
            try body(LibraryMount(folder: folder, source: source, mount: mount))
        }
    }

    /// `user.mediafs.stats` of the mount's root, as numbers by name.
    public func statistics() throws -> [String: Int] {
        try client.statistics()
    }
}
