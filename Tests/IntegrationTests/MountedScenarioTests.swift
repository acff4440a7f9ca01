import Testing
import TestSupport

/// The scenario suites (TestSupport/Scenarios: browsing, thumbs, chapters, tracks, server) run through a
/// real mount: one mount per group over a source of its own, read with opendir/readdir, stat,
/// open/read and getxattr, always unmounted (`Mount.with` checks the unmount and the daemon's
/// descriptors). MediaTreeTests/ScenarioTests runs the same scenarios directly against the tree.
@Suite(.mounts) struct MountedScenarioTests {
    @Test(arguments: ScenarioGroup.all)
    func scenarios(_ group: ScenarioGroup) throws {
        let folder = try TempFolder("scenarios-mount-\(group.name)")
        defer { folder.remove() }
        let source = folder.path("source")
        try group.makeSource(source)
        try Mount.with(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                       arguments: group.mountArguments) { mount in
            group.run(MountedTreeClient(point: mount.point), source: source)
        }
    }
}
