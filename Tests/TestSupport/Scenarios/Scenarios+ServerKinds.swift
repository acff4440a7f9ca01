/// The scenarios of each kind of entry the server layout shows beside a film, each kind's in a file
/// of its own (Scenarios+Server<Kind>.swift): one line per kind.
extension ScenarioGroup {
    static let serverKinds: [[Scenario]] = [
        serverPosters,
        serverSidecars,
        serverFrames,
        serverTrickplay,
        serverBIF,
    ]
}
