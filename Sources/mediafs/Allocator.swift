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
    /// 10 s, in every arena there is and every arena made later): a decoder closed or put to
    /// sleep frees tens of megabytes of frames, which jemalloc otherwise keeps resident for its
    /// decay time (Docs/ARCHITECTURE.md, "Memory"). Reads the times back, and says so at debug
    /// level. Then lets a jemalloc background thread do the returning; without it that happens
    /// only on later allocations. Logs and goes on when either cannot be set.
    static func configure(logger: Logger) {
        let decay = cjemalloc_set_decay(0)
        var largest = 0
        var arenas: UInt32 = 0
        let readBack = decay == 0 ? cjemalloc_largest_decay(&largest, &arenas) : decay
        if decay != 0 {
            logger.warning("jemalloc's decay time could not be set (error \(decay)): freed memory stays resident up to 10 s")
        } else if readBack != 0 || largest != 0 {
            logger.warning("jemalloc's decay time reads back \(largest) ms (error \(readBack)), not 0: freed memory may stay resident")
        } else {
            logger.debug("jemalloc's decay time is 0 ms in the \(arenas) arenas there are and for those made later")
        }
        let status = cjemalloc_start_background_thread()
        if status != 0 {
            logger.warning("jemalloc's background thread did not start (error \(status)): freed memory is returned only as the daemon works")
        }
        ChurnArena.configure(logger: logger)
    }
}
