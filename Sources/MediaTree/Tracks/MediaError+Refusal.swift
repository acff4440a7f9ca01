import Glibc
import MediaKit

extension MediaError {
    /// The errno with which the disk a pass writes to refused a write (`DiskRefusals.isRefusal`:
    /// full, over quota, read-only, failing), if this is such a failure: a muxer's (libav's
    /// `AVERROR(e)`, which is `-e` where errno values are positive, as on Linux) or one of our own
    /// writes (`output`, whose reason is the system's message). A pass reads its source through
    /// `av_read_frame`, whose errors cut the pass short and are never these, so such an error is
    /// the destination's.
    var refusedWrite: Int32? {
        let codes = [ENOSPC, EDQUOT, EROFS, EIO]
        switch self {
        case .library(_, let code, _): return codes.first { -$0 == code }
        case .output(_, let reason): return codes.first { String(cString: strerror($0)) == reason }
        default: return nil
        }
    }
}
