import CJemalloc
import Logging

/// The program's malloc: jemalloc, linked in place of glibc's for the whole process, libav*
/// included (Package.swift).
///
/// A track pass allocates a buffer for each packet the demuxer reads and frees it once the muxers
/// have written it: about 77,000 of each for a ten-minute film with three audio tracks. glibc's
/// malloc spent a third of the demuxing in that; jemalloc takes a third less time over the same
/// loop (the figures are in Docs/ARCHITECTURE.md, "The allocator").
enum Allocator {
    /// Returns freed pages to the system at once (jemalloc's dirty and muzzy decay times 0, from
    /// 10 s): a decoder closed or put to sleep frees tens of megabytes of frames, which jemalloc
    /// otherwise keeps resident for its decay time, 20 to 40 MiB of the peak under a parallel
    /// thumbnail load (Docs/ARCHITECTURE.md, "Memory"). Then lets a jemalloc background thread
    /// do the returning; without it that happens only on later allocations. Logs and goes on
    /// when either cannot be set.
    static func configure(logger: Logger) {
        let decay = cjemalloc_set_decay(0)
        if decay != 0 {
            logger.warning("jemalloc's decay time could not be set (error \(decay)): freed memory stays resident up to 10 s")
        }
        let status = cjemalloc_start_background_thread()
        if status != 0 {
            logger.warning("jemalloc's background thread did not start (error \(status)): freed memory is returned only as the daemon works")
        }
        ChurnArena.configure(logger: logger)
    }
}
