#ifndef MEDIAFS_CFUSE_SHIM_H
#define MEDIAFS_CFUSE_SHIM_H

/* No _GNU_SOURCE here: it changes how glibc's headers define shared types (fd_set's field is
   `fds_bits` instead of `__fds_bits`), and the clang module built from this header then
   conflicts with Swift's Glibc module. The few GNU functions needed are reached below without it. */

/* 312: fuse_session_loop_mt is a real function and fuse_loop_config is opaque. */
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <errno.h>
#include <string.h>

/* fuse_args with nothing in it (FUSE_ARGS_INIT does not import). */
static inline struct fuse_args cfuse_args_empty(void) {
    struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
    return args;
}

/* Reply to a read with `size` bytes of `fd` from `offset`, letting libfuse splice when it can.
   The corresponding C function is fuse_reply_data over a one-entry fuse_bufvec. */
static inline int cfuse_reply_fd(fuse_req_t req, int fd, size_t size, off_t offset) {
    struct fuse_bufvec buf = FUSE_BUFVEC_INIT(size);
    buf.buf[0].flags = (enum fuse_buf_flags)(FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK);
    buf.buf[0].fd = fd;
    buf.buf[0].pos = offset;
    return fuse_reply_data(req, &buf, FUSE_BUF_SPLICE_MOVE);
}

/* Asks the CPU to bring the cache line at `address` in for writing, ahead of its use: the node
   table's slots for one readdirplus reply are fetched together (NumberSlots.prefetch). */
static inline void cfuse_prefetch(const void *address) { __builtin_prefetch(address, 1, 3); }

/* The file-info flags Swift sees as bit fields; set them through these. */
static inline void cfuse_fi_set_keep_cache(struct fuse_file_info *fi, int on) { fi->keep_cache = on ? 1 : 0; }
static inline void cfuse_fi_set_direct_io(struct fuse_file_info *fi, int on) { fi->direct_io = on ? 1 : 0; }
static inline void cfuse_fi_set_cache_readdir(struct fuse_file_info *fi, int on) { fi->cache_readdir = on ? 1 : 0; }
static inline int cfuse_fi_flags(const struct fuse_file_info *fi) { return fi->flags; }

/* Runs the multithreaded loop with at most `max_threads` workers until the session ends.
   The corresponding C functions are fuse_loop_cfg_create and fuse_session_loop_mt. */
static inline int cfuse_session_loop_mt(struct fuse_session *se, unsigned int max_threads) {
    struct fuse_loop_config *config = fuse_loop_cfg_create();
    if (config == NULL) return -ENOMEM;
    fuse_loop_cfg_set_clone_fd(config, 0);
    fuse_loop_cfg_set_max_threads(config, max_threads);
    int res = fuse_session_loop_mt(se, config);
    fuse_loop_cfg_destroy(config);
    return res;
}

/* FUSE passthrough (Linux 6.9): the kernel reads a file straight from a descriptor the daemon
   registered, so reads never reach the daemon. libfuse 3.14 and Debian 12's kernel headers predate
   it, so its part of the kernel ABI (include/uapi/linux/fuse.h, protocol 7.40) is spelled out here
   and applied to the INIT and OPEN replies on their way to /dev/fuse (see Passthrough.swift). */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/syscall.h>

enum {
    CFUSE_OPCODE_OPEN = 14,
    CFUSE_OPCODE_INIT = 26,
    CFUSE_INIT_EXT = 1u << 30,              /* flags: flags2 is valid */
    CFUSE_PASSTHROUGH_FLAGS2 = 1u << 5,     /* FUSE_PASSTHROUGH (1ULL << 37), in flags2 */
    CFUSE_FOPEN_PASSTHROUGH = 1u << 7,
    CFUSE_MAX_STACK_DEPTH = 1,              /* sources on a plain (unstacked) file system */
};

struct cfuse_in_header { uint32_t len, opcode; uint64_t unique, nodeid; uint32_t uid, gid, pid; uint16_t total_extlen, padding; };
struct cfuse_out_header { uint32_t len; int32_t error; uint64_t unique; };
struct cfuse_init_in { uint32_t major, minor, max_readahead, flags, flags2, unused[11]; };
struct cfuse_init_out {
    uint32_t major, minor, max_readahead, flags;
    uint16_t max_background, congestion_threshold;
    uint32_t max_write, time_gran;
    uint16_t max_pages, map_alignment;
    uint32_t flags2, max_stack_depth;
    uint16_t request_timeout, unused[11];
};
struct cfuse_open_out { uint64_t fh; uint32_t open_flags; int32_t backing_id; };
struct cfuse_backing_map { int32_t fd; uint32_t flags; uint64_t padding; };

/* The request in `buf` (as read from /dev/fuse): its opcode and unique, or 0 if too short. */
static inline uint32_t cfuse_request_opcode(const void *buf, ssize_t len, uint64_t *unique) {
    if (len < (ssize_t)sizeof(struct cfuse_in_header)) return 0;
    const struct cfuse_in_header *in = (const struct cfuse_in_header *)buf;
    *unique = in->unique;
    return in->opcode;
}

/* Whether the INIT request in `buf` offers passthrough. */
static inline int cfuse_init_offers_passthrough(const void *buf, ssize_t len) {
    if (len < (ssize_t)(sizeof(struct cfuse_in_header) + sizeof(struct cfuse_init_in))) return 0;
    const struct cfuse_init_in *in = (const struct cfuse_init_in *)((const char *)buf + sizeof(struct cfuse_in_header));
    return (in->flags & CFUSE_INIT_EXT) && (in->flags2 & CFUSE_PASSTHROUGH_FLAGS2);
}

/* The unique and error of the reply in `iov` (its first element is the header), or 0 if none. */
static inline uint64_t cfuse_reply_unique(const struct iovec *iov, int count, int32_t *error) {
    if (count < 1 || iov[0].iov_len < sizeof(struct cfuse_out_header)) return 0;
    const struct cfuse_out_header *out = (const struct cfuse_out_header *)iov[0].iov_base;
    *error = out->error;
    return out->unique;
}

/* Writes the INIT reply in `iov` asking for passthrough; as it is if it is not a whole reply. */
static inline ssize_t cfuse_writev_init_with_passthrough(int fd, const struct iovec *iov, int count) {
    struct cfuse_init_out out;
    if (count != 2 || iov[1].iov_len < offsetof(struct cfuse_init_out, request_timeout)) return writev(fd, iov, count);
    memset(&out, 0, sizeof out);
    memcpy(&out, iov[1].iov_base, iov[1].iov_len < sizeof out ? iov[1].iov_len : sizeof out);
    out.flags |= CFUSE_INIT_EXT;
    out.flags2 |= CFUSE_PASSTHROUGH_FLAGS2;
    out.max_stack_depth = CFUSE_MAX_STACK_DEPTH;
    struct iovec patched[2] = { iov[0], { &out, iov[1].iov_len } };
    return writev(fd, patched, 2);
}

/* The file handle of the OPEN reply in `iov`, or 0 if it is not a whole one. */
static inline uint64_t cfuse_open_reply_fh(const struct iovec *iov, int count) {
    if (count != 2 || iov[1].iov_len != sizeof(struct cfuse_open_out)) return 0;
    return ((const struct cfuse_open_out *)iov[1].iov_base)->fh;
}

/* Writes the OPEN reply in `iov` with the file's reads passed through to `backing_id`. */
static inline ssize_t cfuse_writev_open_with_backing(int fd, const struct iovec *iov, int count, int32_t backing_id) {
    struct cfuse_open_out out;
    memcpy(&out, iov[1].iov_base, sizeof out);
    out.open_flags |= CFUSE_FOPEN_PASSTHROUGH;
    out.backing_id = backing_id;
    struct iovec patched[2] = { iov[0], { &out, sizeof out } };
    return writev(fd, patched, count);
}

/* splice(2), which glibc declares only with _GNU_SOURCE: through syscall(2). */
static inline ssize_t cfuse_splice(int fd_in, off_t *off_in, int fd_out, off_t *off_out, size_t len, unsigned int flags) {
    return syscall(SYS_splice, fd_in, off_in, fd_out, off_out, len, flags);
}

/* Registers `fd` with the connection on `dev_fd`: its backing id, or -1 with errno. */
static inline int cfuse_backing_open(int dev_fd, int fd) {
    struct cfuse_backing_map map = { .fd = fd, .flags = 0, .padding = 0 };
    return ioctl(dev_fd, _IOW(229, 1, struct cfuse_backing_map), &map);
}

/* Drops a backing id; files opened with it keep their descriptor. */
static inline int cfuse_backing_close(int dev_fd, int32_t backing_id) {
    uint32_t id = (uint32_t)backing_id;
    return ioctl(dev_fd, _IOW(229, 2, uint32_t), &id);
}

#endif
