#ifndef MEDIAFS_CJEMALLOC_SHIM_H
#define MEDIAFS_CJEMALLOC_SHIM_H

/* jemalloc, linked into the mediafs program, replaces malloc for the whole process: libav*
 * included. Only its control interface is used by name; the rest works by linking. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

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

/* Refreshes jemalloc's statistics ("epoch"); then `cjemalloc_size` reads one ("stats.resident", …).
 * 0 when the name is unknown (a jemalloc built without statistics). */
static inline void cjemalloc_refresh(void) {
    uint64_t epoch = 1;
    size_t length = sizeof epoch;
    mallctl("epoch", &epoch, &length, &epoch, length);
}

static inline size_t cjemalloc_size(const char *name) {
    size_t value = 0, length = sizeof value;
    if (mallctl(name, &value, &length, NULL, 0) != 0) return 0;
    return value;
}

#endif
