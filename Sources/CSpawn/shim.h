#ifndef MEDIAFS_CSPAWN_SHIM_H
#define MEDIAFS_CSPAWN_SHIM_H

/* What MountLifecycle needs of glibc to start processes that Swift cannot import: its GNU
   extensions to posix_spawn and pipe2, which glibc declares only with _GNU_SOURCE.

   No _GNU_SOURCE here: it changes how glibc's headers define shared types (fd_set's field is
   `fds_bits` instead of `__fds_bits`), and the clang module built from this header then
   conflicts with Swift's Glibc module. The functions are declared as glibc does, or reached
   through syscall(2). */

#include <spawn.h>
#include <unistd.h>
#include <sys/syscall.h>

/* glibc 2.34 and later. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);

/* glibc's value (<spawn.h>): the child calls setsid. */
enum { CSPAWN_POSIX_SPAWN_SETSID = 0x80 };

/* Closes every descriptor from `from` up in the child. */
static inline int cspawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

/* Changes the child's working folder. */
static inline int cspawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

/* pipe2(2), for a pipe made to be handed to a child (O_CLOEXEC on both ends at once). */
static inline int cspawn_pipe2(int fds[2], int flags) {
    return (int)syscall(SYS_pipe2, fds, flags);
}

#endif
