import CAV

/// A libavfilter graph with one video input and one video output, configured for one input
/// format: the one owner of an `AVFilterGraph` (and, through it, of every filter in it), freed in
/// `deinit`. Frames go in and come out one at a time; the graph is kept for the next frame of
/// the same format. Used by one thread at a time.
///
/// As FFmpeg's doc/examples/filtering_video.c builds it: a `buffer` source, the filters parsed
/// from a description, a `buffersink`.
final class FilterGraph {
    /// The filters between the source and the sink, as `avfilter_graph_parse_ptr` reads them.
    let description: String
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    /// The `buffer` and `buffersink` filters, owned by the graph.
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds and configures `description` for input frames of `width` × `height` pixels in
    /// `format`. Filters with slice threads (`zscale`, `tonemap`) use up to `threads`.
    /// The corresponding C functions are `avfilter_graph_alloc`, `avfilter_graph_create_filter`,
    /// `avfilter_graph_parse_ptr` and `avfilter_graph_config`.
    /// - Throws: `MediaError.library` naming the call that failed (a filter missing from this
    ///   libavfilter, a bad description, formats no filter converts between).
    init(description: String, width: Int32, height: Int32, format: AVPixelFormat, threads: Int32 = 1) throws {
        guard let graph = avfilter_graph_alloc() else {
            throw MediaError.library(function: "avfilter_graph_alloc", code: cav_averror(ENOMEM), message: "out of memory")
        }
        var built = false
        defer {
            if !built {
                var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
                avfilter_graph_free(&owned)
            }
        }
        // Before any filter is added (avfilter.h).
        graph.pointee.nb_threads = threads

        guard let buffer = avfilter_get_by_name("buffer"), let buffersink = avfilter_get_by_name("buffersink") else {
            throw MediaError.library(function: "avfilter_get_by_name", code: cav_averror(ENOSYS),
                                     message: "libavfilter has no buffer or buffersink filter")
        }
        var source: UnsafeMutablePointer<AVFilterContext>?
        let arguments = "video_size=\(width)x\(height):pix_fmt=\(format.rawValue):time_base=1/1:pixel_aspect=1/1"
        try check(avfilter_graph_create_filter(&source, buffer, "in", arguments, nil, graph),
                  "avfilter_graph_create_filter(buffer)")
        var sink: UnsafeMutablePointer<AVFilterContext>?
        try check(avfilter_graph_create_filter(&sink, buffersink, "out", nil, nil, graph),
                  "avfilter_graph_create_filter(buffersink)")
        guard let source, let sink else {
            throw MediaError.library(function: "avfilter_graph_create_filter", code: cav_averror(EINVAL), message: "no filter made")
        }

        // The open ends of the parsed chain: its input is fed by the source ("in"), its output
        // feeds the sink ("out"). Parsing takes what it links; what is left is freed here.
        var outputs = avfilter_inout_alloc()
        var inputs = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&outputs)
            avfilter_inout_free(&inputs)
        }
        guard let open = outputs, let close = inputs else {
            throw MediaError.library(function: "avfilter_inout_alloc", code: cav_averror(ENOMEM), message: "out of memory")
        }
        open.pointee.name = av_strdup("in")
        open.pointee.filter_ctx = source
        close.pointee.name = av_strdup("out")
        close.pointee.filter_ctx = sink
        try check(avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil), "avfilter_graph_parse_ptr")
        try check(avfilter_graph_config(graph, nil), "avfilter_graph_config")

        self.description = description
        self.graph = graph
        self.source = source
        self.sink = sink
        built = true
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
        avfilter_graph_free(&owned)
    }

    /// `frame` through the graph. `frame` is left as it was (the source takes its own reference).
    /// The corresponding C functions are `av_buffersrc_add_frame_flags` (with
    /// `AV_BUFFERSRC_FLAG_KEEP_REF`) and `av_buffersink_get_frame`.
    /// - Throws: `MediaError.library`; EAGAIN from the sink (a filter that holds frames back,
    ///   which the graphs made here have none of) is one too.
    func filter(_ frame: Frame) throws -> Frame {
        try check(av_buffersrc_add_frame_flags(source, frame.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
                  "av_buffersrc_add_frame_flags")
        let out = try Frame()
        try check(av_buffersink_get_frame(sink, out.pointer), "av_buffersink_get_frame")
        return out
    }
}
