import Foundation
import Testing
import TestSupport

/// The scenario suites (TestSupport/Scenarios: browsing, thumbs, chapters, tracks, server) run directly
/// against a `MediaTree`: a test per group, a test case per scenario, one tree per group over a
/// source of its own, every operation waited for on its reply. IntegrationTests/MountedScenarioTests
/// runs the same scenarios through a mount. One scenario alone: `MEDIAFS_SCENARIO` (`ScenarioGroup.selected`).
@Suite struct ScenarioTests {
    @Test(.serialized, .onTree(.browsing), arguments: ScenarioGroup.browsing.selected)
    func browsing(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .onTree(.thumbs), arguments: ScenarioGroup.thumbs.selected)
    func thumbs(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .onTree(.chapters), arguments: ScenarioGroup.chapters.selected)
    func chapters(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .onTree(.tracks), arguments: ScenarioGroup.tracks.selected)
    func tracks(_ scenario: Scenario) throws { try scenario.run() }

    @Test(.serialized, .onTree(.server), arguments: ScenarioGroup.server.selected)
    func server(_ scenario: Scenario) throws { try scenario.run() }

    /// A group added to `ScenarioGroup.all` needs its test above and in MountedScenarioTests:
    /// this fails until the list here says it has them. And a `MEDIAFS_SCENARIO` that names no
    /// scenario (a typo) fails here, where it would only skip the groups' tests.
    @Test func everyGroupHasItsTestsAndTheSelectionNamesAScenario() {
        #expect(ScenarioGroup.all.map(\.name) == ["browsing", "thumbs", "chapters", "tracks", "server"])
        #expect(!ScenarioGroup.selectsNothing, "MEDIAFS_SCENARIO=\(ScenarioGroup.selection ?? "") names no scenario")
    }
}

extension Trait where Self == ScenarioScope {
    /// `group`'s scenarios on one tree over its source (`TreeFixture`, closed at the end).
    static func onTree(_ group: ScenarioGroup) -> Self {
        .scenarios(group, on: "tree") { group, folder, source in
            let fixture = TreeFixture(source: URL(fileURLWithPath: source),
                                      settings: group.treeSettings(cacheDirectory: folder.path("cache")))
            // Kept until `close`: its deinit closes the tree.
            return .init(client: DirectTreeClient(fixture.tree), close: { withExtendedLifetime(fixture) {} })
        }
    }
}
