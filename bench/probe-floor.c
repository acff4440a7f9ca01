/*
 * probe-floor.c: the probing floor under a first mount of a library, for the bench.
 *
 * What a first `ls -lR` of a library of distinct films cannot cost less than: for every file,
 * libavformat's avformat_open_input and avformat_find_stream_info with their default settings
 * (what `ffprobe -show_format -show_streams` does before it prints), then avformat_close_input.
 * The files are shared among THREADS threads of one process (each takes the next file not yet
 * taken), as many files at once as there are threads. Nothing else: no FUSE, no listing, no
 * document, no database, no process per file.
 *
 * Usage: probe-floor THREADS LIST
 *   LIST is a file of paths, one a line.
 * Prints one line, tab-separated:
 *   FILES  FAILED  SECONDS
 * where SECONDS is the wall-clock time from the first open to the last close (the process's start
 * and the reading of LIST are not counted).
 *
 * Build: gcc -O2 -o probe-floor probe-floor.c $(pkg-config --cflags --libs libavformat libavutil) -lpthread
 */
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char **paths;
static size_t path_count;
static atomic_size_t next_path;
static atomic_size_t failed;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *probe_files(void *unused) {
    (void)unused;
    for (;;) {
        size_t i = atomic_fetch_add(&next_path, 1);
        if (i >= path_count) return NULL;
        AVFormatContext *input = NULL;
        if (avformat_open_input(&input, paths[i], NULL, NULL) < 0) {
            atomic_fetch_add(&failed, 1);
            continue;
        }
        if (avformat_find_stream_info(input, NULL) < 0) atomic_fetch_add(&failed, 1);
        avformat_close_input(&input);
    }
}

static void read_list(const char *list) {
    FILE *f = fopen(list, "r");
    if (!f) {
        perror(list);
        exit(1);
    }
    size_t capacity = 0;
    char *line = NULL;
    size_t length = 0;
    ssize_t got;
    while ((got = getline(&line, &length, f)) > 0) {
        if (line[got - 1] == '\n') line[--got] = '\0';
        if (got == 0) continue;
        if (path_count == capacity) {
            capacity = capacity ? capacity * 2 : 1024;
            paths = realloc(paths, capacity * sizeof *paths);
            if (!paths) {
                perror("realloc");
                exit(1);
            }
        }
        paths[path_count++] = strdup(line);
    }
    free(line);
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: probe-floor THREADS LIST\n");
        return 2;
    }
    int threads = atoi(argv[1]);
    if (threads < 1) threads = 1;
    read_list(argv[2]);
    av_log_set_level(AV_LOG_QUIET);

    pthread_t *workers = calloc((size_t)threads, sizeof *workers);
    if (!workers) return 1;
    double started = now();
    for (int t = 0; t < threads; t++) {
        if (pthread_create(&workers[t], NULL, probe_files, NULL) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int t = 0; t < threads; t++) pthread_join(workers[t], NULL);
    double ended = now();
    printf("%zu\t%zu\t%.6f\n", path_count, (size_t)atomic_load(&failed), ended - started);
    return 0;
}
