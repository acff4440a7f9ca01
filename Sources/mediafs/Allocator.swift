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

// EXPERIMENT (memory bound): samples jemalloc's statistics to the log while MEDIAFS_ALLOCATOR_TRACE is set.
import Foundation
extension Allocator {
    static func startTrace(logger: Logger) {
        guard let value = ProcessInfo.processInfo.environment["MEDIAFS_ALLOCATOR_TRACE"], let ms = Int(value) else { return }
        let thread = Thread {
            var peak = (0, 0, 0, 0)
            while true {
                cjemalloc_refresh()
                let allocated = cjemalloc_size("stats.allocated"), active = cjemalloc_size("stats.active")
                let resident = cjemalloc_size("stats.resident"), mapped = cjemalloc_size("stats.mapped")
                if resident > peak.2 { peak = (allocated, active, resident, mapped) }
                logger.notice("jemalloc MiB allocated \(allocated >> 20) active \(active >> 20) resident \(resident >> 20) mapped \(mapped >> 20) | at peak resident: \(peak.0 >> 20) \(peak.1 >> 20) \(peak.2 >> 20) \(peak.3 >> 20)")
                usleep(UInt32(ms) * 1000)
            }
        }
        thread.start()
    }
}
