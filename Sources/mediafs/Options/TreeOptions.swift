import ArgumentParser
import MediaTree

/// A group of `mediafs mount` options that sets some of the tree's settings: each kind of entry
/// with settings of its own has one (`ThumbsOptions`, `StoryboardOptions`, …), named once in
/// `MountCommand`. The background daemon is given the user's own arguments again (`Background`),
/// so no option is listed anywhere else.
protocol TreeOptions: ParsableArguments {
    /// Sets what the options say.
    /// - Throws: `ValidationError` naming the option that is wrong.
    func apply(to settings: inout TreeSettings) throws
}
