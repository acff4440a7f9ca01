#define _GNU_SOURCE
#include "clinux.h"

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// ioprio_set(2) has no glibc wrapper; its constants are linux/ioprio.h's.
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_CLASS_SHIFT 13

int clinux_lower_this_thread(void) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    // On Linux, nice and the I/O priority of a thread id are the thread's alone.
    if (setpriority(PRIO_PROCESS, (id_t)thread, 19) != 0) return errno;
    // SCHED_IDLE: below even nice 19, the thread runs only on a processor nothing else wants.
    struct sched_param none = {0};
    if (sched_setscheduler(thread, SCHED_IDLE, &none) != 0) return errno;
    if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, thread, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT) != 0) return errno;
    return 0;
}
