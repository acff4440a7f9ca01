import Testing
import TestSupport

/// The scenario suites (TestSupport/Scenarios: browsing, thumbs, chapters, tracks, server) run through a
/// real mount: a test per group, a test case per scenario, one mount per group over a source of
/// its own, read with opendir/readdir, stat, open/read and getxattr, then unmounted and checked
/// (`Mount.finish()`: the unmount and the daemon's descriptors), torn down in every case.
/// MediaTreeTests/ScenarioTests runs the same scenarios directly against the tree. One scenario
/// alone: `MEDIAFS_SCENARIO` (`ScenarioGroup.selected`).
@Suite(.mounts) struct MountedScenarioTests {
    @Test(.serialized, .throughAMount(.browsing), arguments: ScenarioGroup.browsing.selected)
    func browsing(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .throughAMount(.thumbs), arguments: ScenarioGroup.thumbs.selected)
    func thumbs(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .throughAMount(.chapters), arguments: ScenarioGroup.chapters.selected)
    func chapters(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .throughAMount(.tracks), arguments: ScenarioGroup.tracks.selected)
    func tracks(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .throughAMount(.server), arguments: ScenarioGroup.server.selected)
    func server(_ scenario: Scenario) throws { try scenario.run() }
}

extension Trait where Self == ScenarioScope {
    /// `group`'s scenarios through one mount of its source, with the group's arguments.
    static func throughAMount(_ group: ScenarioGroup) -> Self {
        .scenarios(group, on: "mount") { group, folder, source in
            let mount = try Mount(source: source, point: try folder.makeFolder("mnt"), log: folder.path("mediafs.log"),
                                  arguments: group.mountArguments)
            return .init(client: MountedTreeClient(point: mount.point), finish: { try mount.finish() },
                         close: { mount.teardown() })
        }
    }
}
