import ArgumentParser
import MediaTree

/// `thumbs/`: the default size of a thumbnail and the interval of those listed.
struct ThumbsOptions: TreeOptions {
    @Option(help: ArgumentHelp("The box thumbnails named without a size fit in: 320w, 180h, 640x360 or full.",
                               valueName: "size"))
    var thumbSize: String = "320w"

    @Option(help: ArgumentHelp("Seconds between the thumbnails thumbs/ lists (default: chosen per film, a few dozen names).",
                               valueName: "seconds"))
    var thumbInterval: Int?

    func apply(to settings: inout TreeSettings) throws {
        // A bare number is a width, as in `--thumb-size 480`.
        let size = thumbSize.allSatisfy(\.isNumber) ? thumbSize + "w" : thumbSize
        guard let box = ThumbnailName.parseBox(Substring(size)) else {
            throw ValidationError("--thumb-size must be like 320w, 180h, 640x360 or full (not '\(thumbSize)')")
        }
        settings.thumbs.box = box
        if let thumbInterval {
            guard thumbInterval > 0 else { throw ValidationError("--thumb-interval must be a positive number of seconds") }
            settings.thumbs.interval = thumbInterval
        }
    }
}
