import CJemalloc
import Logging
import MediaTree

/// The jemalloc arena the threads listing the source's folders allocate from: they probe file
/// after file, and each probe opens libavcodec's decoders (`avformat_find_stream_info`), which
/// allocate and zero the same few megabytes and free them a few milliseconds later. With the
/// program's decay time of 0 (`Allocator`) every probe had those pages handed back to the system
/// and faulted in again, the largest cost of a first listing after the probes' own work (the
/// bench's films section). Here freed pages wait `decayMilliseconds` for the next probe, then go
/// back; the rest of the program keeps its decay of 0.
enum ProbeArena {
    /// Long enough to span the probes of a listing (a few milliseconds apart), short enough that
    /// the memory goes back soon after the listing.
    static let decayMilliseconds = 500

    /// Makes the arena and has the listing threads use it. Logs and goes on when it cannot.
    static func configure(logger: Logger) {
        var arena: UInt32 = 0
        let made = cjemalloc_make_arena(decayMilliseconds, &arena)
        guard made == 0 else {
            logger.warning("jemalloc could not make the probing threads' arena (error \(made)): they use the others")
            return
        }
        let index = arena
        ListingThreads.prepare { _ = cjemalloc_use_arena(index) }
        logger.debug("the listing threads allocate from jemalloc's arena \(arena), with a decay time of \(decayMilliseconds) ms")
    }
}
