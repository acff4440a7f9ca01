#ifndef CLINUX_H
#define CLINUX_H

/* Linux calls Swift's Glibc module does not import: sys/xattr.h, and ioprio_set(2), which has no
   glibc wrapper. */

#include <sys/types.h>
#include <sys/xattr.h>

/// Puts the calling thread (not the process) at the lowest CPU priority (nice 19, and the idle
/// scheduling class, SCHED_IDLE, where it runs only on a processor nothing else wants) and in the
/// idle I/O class, where the kernel serves its reads only when no one else's are waiting.
/// Returns 0, or the errno of the first call that failed (the thread then runs as it was).
int clinux_lower_this_thread(void);

#endif
