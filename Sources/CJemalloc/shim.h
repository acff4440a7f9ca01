#ifndef MEDIAFS_CJEMALLOC_SHIM_H
#define MEDIAFS_CJEMALLOC_SHIM_H

/* jemalloc, linked into the mediafs program, replaces malloc for the whole process: libav*
 * included. Only its control interface is used by name; the rest works by linking. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
int mallctlnametomib(const char *name, size_t *mibp, size_t *miblenp);
int mallctlbymib(const size_t *mib, size_t miblen, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

/* Makes an arena of its own whose freed pages stay "dirty" (kept for reuse) `milliseconds` before
 * they go back to the system, and "muzzy" not at all; its index in `arena`. For threads that free
 * and allocate the same memory again and again within that time. 0 on success, an errno value
 * otherwise. */
static inline int cjemalloc_make_arena(long milliseconds, unsigned *arena) {
    size_t size = sizeof *arena;
    int status = mallctl("arenas.create", arena, &size, NULL, 0);
    if (status != 0) return status;
    const char *names[] = {"arena.0.dirty_decay_ms", "arena.0.muzzy_decay_ms"};
    ssize_t times[] = {milliseconds, 0};
    for (int i = 0; i < 2; i++) {
        size_t mib[3], length = 3;
        if ((status = mallctlnametomib(names[i], mib, &length)) != 0) return status;
        mib[1] = *arena;  /* arena.<arena>.*_decay_ms */
        if ((status = mallctlbymib(mib, length, NULL, NULL, &times[i], sizeof times[i])) != 0) return status;
    }
    return 0;
}

/* Makes the calling thread allocate from `arena` (where it does not already). 0 on success, an
 * errno value otherwise. */
static inline int cjemalloc_use_arena(unsigned arena) {
    unsigned current = 0;
    size_t size = sizeof current;
    int status = mallctl("thread.arena", &current, &size, NULL, 0);
    if (status == 0 && current == arena) return 0;
    return mallctl("thread.arena", NULL, NULL, &arena, sizeof arena);
}

/* Starts one jemalloc background thread (it starts one per CPU otherwise), which gives freed
 * memory back to the system after its decay time even while the process is idle. 0 on success,
 * an errno value otherwise. */
static inline int cjemalloc_start_background_thread(void) {
    size_t one = 1;
    int status = mallctl("max_background_threads", NULL, NULL, &one, sizeof one);
    if (status != 0) return status;
    bool on = true;
    return mallctl("background_thread", NULL, NULL, &on, sizeof on);
}

/* Sets the time freed pages stay "dirty" (kept for reuse) and "muzzy" (lazily freed) before they are
 * returned to the system, in milliseconds, for every arena there is and every arena made later.
 * 0 on success, an errno value otherwise. */
static inline int cjemalloc_set_decay(long milliseconds) {
    ssize_t ms = milliseconds;
    const char *names[] = {"arenas.dirty_decay_ms", "arenas.muzzy_decay_ms",
                           "arena.4096.dirty_decay_ms", "arena.4096.muzzy_decay_ms"}; /* 4096: MALLCTL_ARENAS_ALL */
    for (int i = 0; i < 4; i++) {
        int status = mallctl(names[i], NULL, NULL, &ms, sizeof ms);
        if (status != 0) return status;
    }
    return 0;
}

#endif
