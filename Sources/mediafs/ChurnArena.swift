import CJemalloc
import Logging
import MediaTree

/// The jemalloc arena of the threads whose work allocates and frees the same memory over and over
/// (`ChurningThreads`): the listing threads probe file after file, and each probe opens
/// libavcodec's decoders (`avformat_find_stream_info`), which allocate and zero a few megabytes
/// and free them a few milliseconds later; a track pass's reader allocates a buffer for each
/// block it demuxes. With the program's decay time of 0 (`Allocator`) those pages went back to
/// the system at each free and were faulted in again at the next allocation: the largest cost of
/// a first listing after the probes' own work, and a tenth of a pass (the bench's films and tracks
/// sections). Here freed pages wait `decayMilliseconds` for the next allocation, then go back; the
/// rest of the program (the decoders of thumbnails, which hold tens of megabytes) keeps its decay of 0.
enum ChurnArena {
    /// Long enough to span the probes of a listing (a few milliseconds apart), short enough that
    /// the memory goes back soon after the work.
    static let decayMilliseconds = 500

    /// Makes the arena and has the churning threads use it. Logs and goes on when it cannot.
    static func configure(logger: Logger) {
        var arena: UInt32 = 0
        let made = cjemalloc_make_arena(decayMilliseconds, &arena)
        guard made == 0 else {
            logger.warning("jemalloc could not make the arena of the probing and demuxing threads (error \(made)): they use the others")
            return
        }
        let index = arena
        ChurningThreads.prepare { _ = cjemalloc_use_arena(index) }
        logger.debug("the probing and demuxing threads allocate from jemalloc's arena \(arena), with a decay time of \(decayMilliseconds) ms")
    }
}
