#ifndef MEDIAFS_CJEMALLOC_SHIM_H
#define MEDIAFS_CJEMALLOC_SHIM_H

/* jemalloc, linked into the mediafs program, replaces malloc for the whole process: libav*
 * included. Only its control interface is used by name; the rest works by linking. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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
 * `arena.<i>.*_decay_ms` takes one arena at a time: MALLCTL_ARENAS_ALL (4096) is no arena for these
 * controls, nor is an index whose arena is not made yet (jemalloc makes them as threads first
 * allocate); both answer EFAULT. So the defaults for arenas made later are set first, then each
 * arena below `arenas.narenas` that exists. 0 on success, an errno value otherwise. */
static inline int cjemalloc_set_decay(long milliseconds) {
    static const char *const kinds[] = {"dirty", "muzzy"};
    ssize_t ms = milliseconds;
    char name[64];
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "arenas.%s_decay_ms", kinds[k]);
        int status = mallctl(name, NULL, NULL, &ms, sizeof ms);
        if (status != 0) return status;
    }
    unsigned count = 0;
    size_t size = sizeof count;
    int status = mallctl("arenas.narenas", &count, &size, NULL, 0);
    if (status != 0) return status;
    for (unsigned i = 0; i < count; i++) {
        for (int k = 0; k < 2; k++) {
            snprintf(name, sizeof name, "arena.%u.%s_decay_ms", i, kinds[k]);
            status = mallctl(name, NULL, NULL, &ms, sizeof ms);
            if (status == EFAULT) break;    /* not made yet: it will take the defaults */
            if (status != 0) return status;
        }
    }
    return 0;
}

/* Reads the decay times back: the largest of the defaults for arenas made later and of every
 * existing arena's dirty and muzzy times, in `largest`, and how many arenas exist, in `arenas`.
 * 0 on success, an errno value otherwise. */
static inline int cjemalloc_largest_decay(long *largest, unsigned *arenas) {
    static const char *const kinds[] = {"dirty", "muzzy"};
    char name[64];
    ssize_t ms = 0;
    size_t size = sizeof ms;
    *largest = -1;
    *arenas = 0;
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "arenas.%s_decay_ms", kinds[k]);
        int status = mallctl(name, &ms, &size, NULL, 0);
        if (status != 0) return status;
        if (ms > *largest) *largest = ms;
    }
    unsigned count = 0;
    size_t countSize = sizeof count;
    int status = mallctl("arenas.narenas", &count, &countSize, NULL, 0);
    if (status != 0) return status;
    for (unsigned i = 0; i < count; i++) {
        int exists = 0;
        for (int k = 0; k < 2; k++) {
            snprintf(name, sizeof name, "arena.%u.%s_decay_ms", i, kinds[k]);
            status = mallctl(name, &ms, &size, NULL, 0);
            if (status == EFAULT) break;
            if (status != 0) return status;
            exists = 1;
            if (ms > *largest) *largest = ms;
        }
        *arenas += exists;
    }
    return 0;
}

#endif
