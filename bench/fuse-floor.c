/* fuse-floor: what any FUSE file system pays to be listed, and nothing else.
 *
 * Usage: fuse-floor TREE MOUNTPOINT
 *
 * Reads the tree under TREE once, at start (names, types, sizes, times), and serves it read-only
 * from memory on MOUNTPOINT, answering every request from that table: no system call per request
 * besides the reply. It speaks to the kernel as mediafs does (libfuse's low-level API, the
 * multithreaded loop with 16 threads and no cloned descriptors, attributes with every readdir entry
 * (readdirplus, not only for a folder's first buffer), the same cache times (1 s) and the same
 * answers to extended-attribute questions), so `ls -lR` of its mount costs the kernel round trips
 * that listing the same tree through FUSE cannot avoid: the floor under mediafs's listing.
 *
 * Compiled at bench time by bench/floor.py (gcc, pkg-config fuse3); the process stays in the
 * foreground until the mount is gone (`fusermount3 -u MOUNTPOINT`). */
/* 312: fuse_session_loop_mt takes the fuse_loop_config made below (with 34 it would read it as the
   older struct, and start and end a thread per request). */
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One entry of the tree; its inode number is its index + 1 (the root is 1). */
struct node {
    char *name;
    size_t parent;              /* index of the folder that lists it */
    struct stat st;
    size_t *children;           /* indices, in the order the source listed them */
    size_t child_count, child_capacity;
};

static struct node *nodes;
static size_t node_count, node_capacity;
static const double cache_seconds = 1.0;

static void *grown(void *array, size_t *capacity, size_t element) {
    *capacity = *capacity ? *capacity * 2 : 16;
    void *bigger = realloc(array, *capacity * element);
    if (!bigger) { perror("realloc"); exit(1); }
    return bigger;
}

static size_t add_node(const char *name, size_t parent, const struct stat *st) {
    if (node_count == node_capacity) nodes = grown(nodes, &node_capacity, sizeof *nodes);
    struct node *n = &nodes[node_count];
    memset(n, 0, sizeof *n);
    n->name = strdup(name);
    n->parent = parent;
    n->st = *st;
    n->st.st_ino = node_count + 1;
    n->st.st_mode &= ~0222;     /* read-only, as mediafs */
    return node_count++;
}

static void add_child(size_t folder, size_t child) {
    struct node *f = &nodes[folder];
    if (f->child_count == f->child_capacity) f->children = grown(f->children, &f->child_capacity, sizeof(size_t));
    f->children[f->child_count++] = child;
}

/* Reads the folder `fd` (node `index`) and everything under it into the table. */
static void read_folder(int fd, size_t index) {
    DIR *dir = fdopendir(fd);
    if (!dir) { perror("fdopendir"); exit(1); }
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        struct stat st;
        if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) { perror(e->d_name); exit(1); }
        size_t child = add_node(e->d_name, index, &st);
        add_child(index, child);
        if (S_ISDIR(st.st_mode)) {
            int sub = openat(dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY);
            if (sub < 0) { perror(e->d_name); exit(1); }
            read_folder(sub, child);
        }
    }
    closedir(dir);
}

static struct node *node_of(fuse_ino_t ino) {
    return ino >= 1 && ino <= node_count ? &nodes[ino - 1] : NULL;
}

static void entry_of(size_t index, struct fuse_entry_param *entry) {
    memset(entry, 0, sizeof *entry);
    entry->ino = index + 1;
    entry->generation = 1;
    entry->attr = nodes[index].st;
    entry->attr_timeout = cache_seconds;
    entry->entry_timeout = cache_seconds;
}

static void floor_init(void *userdata, struct fuse_conn_info *conn) {
    (void)userdata;
    conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
}

static void floor_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
    struct node *folder = node_of(parent);
    if (!folder) { fuse_reply_err(req, ENOENT); return; }
    for (size_t i = 0; i < folder->child_count; i++) {
        size_t child = folder->children[i];
        if (!strcmp(nodes[child].name, name)) {
            struct fuse_entry_param entry;
            entry_of(child, &entry);
            fuse_reply_entry(req, &entry);
            return;
        }
    }
    fuse_reply_err(req, ENOENT);
}

static void floor_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    (void)fi;
    struct node *n = node_of(ino);
    if (!n) { fuse_reply_err(req, ENOENT); return; }
    fuse_reply_attr(req, &n->st, cache_seconds);
}

static void floor_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    struct node *n = node_of(ino);
    if (!n) { fuse_reply_err(req, ENOENT); return; }
    if (!S_ISDIR(n->st.st_mode)) { fuse_reply_err(req, ENOTDIR); return; }
    fuse_reply_open(req, fi);
}

/* Entries from index `offset` ("." and ".." first), as many as fit in `size`. */
static void list(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, int plus) {
    struct node *folder = node_of(ino);
    if (!folder) { fuse_reply_err(req, ENOENT); return; }
    char *buffer = malloc(size);
    if (!buffer) { fuse_reply_err(req, ENOMEM); return; }
    size_t used = 0;
    for (size_t i = (size_t)offset; i < folder->child_count + 2; i++) {
        struct fuse_entry_param entry;
        const char *name;
        if (i < 2) {
            memset(&entry, 0, sizeof entry);
            entry.attr.st_ino = ino;
            entry.attr.st_mode = S_IFDIR;
            name = i == 0 ? "." : "..";
        } else {
            size_t child = folder->children[i - 2];
            entry_of(child, &entry);
            name = nodes[child].name;
        }
        size_t needed = plus ? fuse_add_direntry_plus(req, buffer + used, size - used, name, &entry, i + 1)
                             : fuse_add_direntry(req, buffer + used, size - used, name, &entry.attr, i + 1);
        if (used + needed > size) break;
        used += needed;
    }
    fuse_reply_buf(req, buffer, used);
    free(buffer);
}

static void floor_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)fi;
    list(req, ino, size, offset, 0);
}

static void floor_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)fi;
    list(req, ino, size, offset, 1);
}

/* As mediafs: no attribute in user.*, other namespaces unsupported. */
static void floor_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size) {
    (void)ino;
    (void)size;
    fuse_reply_err(req, strncmp(name, "user.", 5) == 0 ? ENODATA : EOPNOTSUPP);
}

static void floor_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size) {
    (void)ino;
    if (size == 0) fuse_reply_xattr(req, 0);
    else fuse_reply_buf(req, NULL, 0);
}

static void floor_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
    struct node *n = node_of(ino);
    if (!n) { fuse_reply_err(req, ENOENT); return; }
    if (S_ISDIR(n->st.st_mode)) { fuse_reply_err(req, EISDIR); return; }
    fuse_reply_open(req, fi);
}

/* The files are empty: every read is at or past their end. */
static void floor_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void)ino; (void)size; (void)offset; (void)fi;
    fuse_reply_buf(req, NULL, 0);
}

static const struct fuse_lowlevel_ops operations = {
    .init = floor_init,
    .lookup = floor_lookup,
    .getattr = floor_getattr,
    .opendir = floor_opendir,
    .readdir = floor_readdir,
    .readdirplus = floor_readdirplus,
    .getxattr = floor_getxattr,
    .listxattr = floor_listxattr,
    .open = floor_open,
    .read = floor_read,
};

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s TREE MOUNTPOINT\n", argv[0]);
        return 2;
    }
    struct stat root;
    int fd = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (fd < 0 || fstat(fd, &root) != 0) { perror(argv[1]); return 1; }
    add_node("", 0, &root);
    read_folder(fd, 0);

    char *fuse_argv[] = {argv[0], "-o", "ro,default_permissions,fsname=fuse-floor", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, fuse_argv);
    struct fuse_session *session = fuse_session_new(&args, &operations, sizeof operations, NULL);
    if (!session) return 1;
    if (fuse_session_mount(session, argv[2]) != 0) return 1;
    fprintf(stderr, "fuse-floor: %zu entries of %s on %s\n", node_count - 1, argv[1], argv[2]);
    struct fuse_loop_config *config = fuse_loop_cfg_create();
    fuse_loop_cfg_set_clone_fd(config, 0);
    fuse_loop_cfg_set_max_threads(config, 16);
    int code = fuse_session_loop_mt(session, config);
    fuse_loop_cfg_destroy(config);
    fuse_session_unmount(session);
    fuse_session_destroy(session);
    return code ? 1 : 0;
}
