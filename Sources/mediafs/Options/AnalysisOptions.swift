import ArgumentParser
import MediaTree

/// When films are analysed for their scenes, intros and credits.
struct AnalysisOptions: TreeOptions {
    @Option(help: ArgumentHelp("""
        background: each media file is analysed (its scenes; an episode's intro and credits) once, as the mount meets it, \
        one at a time at idle CPU and I/O priority, pausing while anything is read, and never again (kept in the cache \
        folder); on-demand: only when asked, by mediafs warm or the user.mediafs.analysis attribute of a media folder.
        """, valueName: "when"))
    var analysis: String = AnalysisMode.background.rawValue

    func apply(to settings: inout TreeSettings) throws {
        guard let chosen = AnalysisMode(rawValue: analysis) else {
            throw ValidationError("--analysis must be one of: \(AnalysisMode.allCases.map(\.rawValue).joined(separator: ", ")) (not '\(analysis)')")
        }
        settings.analysis = chosen
    }
}
