import Foundation
import Testing
import TestSupport

/// The scenario suites (TestSupport/Scenarios: browsing, thumbs, chapters, tracks, server) run directly
/// against a `MediaTree`: one tree per group over a source of its own, every operation waited
/// for on its reply. IntegrationTests/MountedScenarioTests runs the same scenarios through a mount.
@Suite struct ScenarioTests {
    @Test(arguments: ScenarioGroup.all)
    func scenarios(_ group: ScenarioGroup) throws {
        let folder = try TempFolder("scenarios-tree-\(group.name)")
        defer { folder.remove() }
        let source = folder.path("source")
        try group.makeSource(source)
        let fixture = TreeFixture(source: URL(fileURLWithPath: source),
                                  settings: group.treeSettings(cacheDirectory: folder.path("cache")))
        withExtendedLifetime(fixture) {  // its deinit closes the tree
            group.run(DirectTreeClient(fixture.tree), source: source)
        }
    }
}
