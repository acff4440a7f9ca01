import Foundation
import Testing

/// One group's scenarios over one source and one tree or mount: the source made (from the test
/// media, which every group shares) and the tree or mount opened before the group's first
/// scenario, ended after its last, so that a scenario of its own costs no more than it did as a
/// step of its group. A trait on the group's parameterized test, whose cases must run one at a
/// time (`.serialized`): they share the tree, and some count what it made.
///
///     @Test(.serialized, .scenarios(.thumbs, on: "tree", open: …), arguments: ScenarioGroup.thumbs.selected)
///     func thumbs(_ scenario: Scenario) throws { try scenario.run() }
///
/// Like `SharedLibraryMount`, but for a function's test cases rather than a suite's tests.
public struct ScenarioScope: TestTrait, TestScoping {
    /// What a side opens over a group's source.
    public struct Opened: Sendable {
        /// What the scenarios read through.
        public let client: any TreeClient
        /// Ends it the checked way once the last scenario has run (a mount: `Mount.finish()`).
        public let finish: @Sendable () throws -> Void
        /// Tears down whatever is left, in every case, last (a mount: `Mount.teardown()`).
        public let close: @Sendable () -> Void

        public init(client: any TreeClient, finish: @escaping @Sendable () throws -> Void = {},
                    close: @escaping @Sendable () -> Void = {}) {
            self.client = client
            self.finish = finish
            self.close = close
        }
    }

    let group: ScenarioGroup
    /// "tree" or "mount", for the folder's name.
    let side: String
    /// Opens the tree or mount of `group` over the source at `source`, with anything else it
    /// keeps (a cache folder, a log) in `folder`.
    let open: @Sendable (_ group: ScenarioGroup, _ folder: TempFolder, _ source: String) throws -> Opened

    /// Once for the whole test, around all its cases (a test case alone would get a tree each).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? self : nil
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // (A group none of whose scenarios is selected has no case, and Swift Testing skips it
        // without asking for its scope: no source is made.)
        let folder = try TempFolder("scenarios-\(side)-\(group.name)")
        defer { folder.remove() }
        let source = folder.path("source")
        try group.makeSource(source)
        let opened = try open(group, folder, source)
        defer { opened.close() }
        try await ScenarioContext.$current.withValue(ScenarioContext(client: opened.client, source: source)) {
            try await function()
        }
        try opened.finish()
    }
}

extension Trait where Self == ScenarioScope {
    /// `group`'s scenarios run on what `open` makes over a source of the group's (`ScenarioScope`).
    public static func scenarios(_ group: ScenarioGroup, on side: String,
                                 open: @escaping @Sendable (ScenarioGroup, TempFolder, String) throws -> ScenarioScope.Opened) -> Self {
        ScenarioScope(group: group, side: side, open: open)
    }
}

extension ScenarioGroup {
    /// `MEDIAFS_SCENARIO`, when set and not empty: the scenarios to run, by part of their
    /// `GROUP/NAME` (any case). Swift Testing's `--filter` selects a test, not one of its cases:
    ///
    ///     MEDIAFS_SCENARIO='thumbs/a time past' swift test --filter MediaTreeTests.ScenarioTests
    public static let selection: String? = {
        let given = ProcessInfo.processInfo.environment["MEDIAFS_SCENARIO"] ?? ""
        return given.isEmpty ? nil : given
    }()

    /// The scenarios `MEDIAFS_SCENARIO` selects (all of them without it): the arguments of the
    /// group's test.
    public var selected: [Scenario] {
        guard let selection = Self.selection else { return scenarios }
        return scenarios.filter { $0.id.localizedCaseInsensitiveContains(selection) }
    }

    /// Whether `MEDIAFS_SCENARIO` names no scenario of any group: a typo, which would otherwise
    /// skip every group's test and pass.
    public static var selectsNothing: Bool {
        selection != nil && all.allSatisfy { $0.selected.isEmpty }
    }
}
