#ifndef CPRIORITY_H
#define CPRIORITY_H

/// Puts the calling thread (not the process) at the lowest CPU priority (nice 19) and in the
/// idle I/O class, where the kernel serves its reads only when no one else's are waiting.
/// Returns 0, or the errno of the first call that failed (the thread then runs as it was).
int cpriority_lower_this_thread(void);

#endif
