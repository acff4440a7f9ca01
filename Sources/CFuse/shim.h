#ifndef MEDIAFS_CFUSE_SHIM_H
#define MEDIAFS_CFUSE_SHIM_H

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

#endif
