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
    /// Lets a jemalloc background thread return freed memory to the system after its decay time
    /// (10 s) while the daemon is idle; without it that happens only on later allocations, so
    /// the peak of a thumbnail burst would stay resident until the next request. Logs and goes
    /// on without it when it cannot start.
    static func startBackgroundPurging(logger: Logger) {
        let status = cjemalloc_start_background_thread()
        if status != 0 {
            logger.warning("jemalloc's background thread did not start (error \(status)): freed memory is returned only as the daemon works")
        }
    }
}
