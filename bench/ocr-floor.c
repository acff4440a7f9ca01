/*
 * ocr-floor.c: the OCR floor under a subtitle file read from pictures, for the bench's subtitles
 * section.
 *
 * What reading a picture subtitle track into text cannot cost less than: Tesseract's own work on
 * the very images the daemon gives it, and nothing else. The daemon, run with the environment
 * variable MEDIAFS_OCR_DUMP=DIR, writes for every Tesseract call the image it passes (an 8-bit
 * binary PGM, black text on white, DIR/NNNNNN.pgm) and appends one line to DIR/calls.tsv:
 *     NNNNNN.pgm <TAB> LANGUAGE <TAB> PSM <TAB> DPI
 * This program replays those calls with libtesseract's C API, as the daemon makes them:
 *   - one TessBaseAPI per language, initialised once with TessBaseAPIInit2(api, NULL, lang,
 *     OEM_LSTM_ONLY) (the system's tessdata; not timed: the daemon keeps its engines), and
 *     tessedit_do_invert 0 as the daemon sets it (its lines are always dark on light);
 *   - for every call, in the order of calls.tsv: TessBaseAPISetImage (the PGM's bytes, 1 byte per
 *     pixel), TessBaseAPISetSourceResolution(DPI), TessBaseAPISetPageSegMode(PSM),
 *     TessBaseAPIGetUTF8Text, the text freed.
 *   - OpenMP's parallel regions off (omp_set_max_active_levels(0)), as the daemon has them:
 *     Debian's libtesseract runs a line's LSTM layers on a team of OpenMP threads, which on
 *     single lines costs more time than it saves, so the floor is the faster way, on one thread.
 * Every PGM is read into memory first; the timed part is the loop over the calls, on one thread,
 * measured inside the process (CLOCK_MONOTONIC): no process start, no file reading, no picture
 * decoding, binarising or cropping, no SRT, no FUSE.
 *
 * Usage: ocr-floor DIR [TEXT-OUT]
 * Prints one line, tab-separated:  CALLS  LOOP-SECONDS  INIT-SECONDS  TEXT-BYTES
 * With TEXT-OUT, also writes each call's text there (NNNNNN.pgm, then the text, then a form feed).
 * Exit status 1 (with a message on stderr) when DIR or a picture cannot be read or a language
 * cannot be initialised.
 *
 * Build: gcc -O2 -o ocr-floor ocr-floor.c $(pkg-config --cflags --libs tesseract lept) -lgomp
 */
#include <tesseract/capi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libgomp's (GCC's omp.h declares it; libtesseract links libgomp). */
void omp_set_max_active_levels(int max_levels);

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "ocr-floor: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

struct call {
    char name[256], language[64];
    int psm, dpi, width, height;
    unsigned char *pixels;
    TessBaseAPI *api;
};

/* The next token of a PGM header, skipping white space and # comments. */
static int header_int(FILE *f) {
    int c, value = 0, digits = 0;
    for (;;) {
        c = fgetc(f);
        if (c == '#') { while (c != '\n' && c != EOF) c = fgetc(f); continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        break;
    }
    while (c >= '0' && c <= '9') { value = value * 10 + (c - '0'); digits++; c = fgetc(f); }
    return digits ? value : -1; /* the one white space byte after the last number is consumed */
}

static void read_pgm(const char *path, struct call *call) {
    FILE *f = fopen(path, "rb");
    if (!f) fail("cannot open", path);
    if (fgetc(f) != 'P' || fgetc(f) != '5') fail("not a binary PGM (P5)", path);
    call->width = header_int(f);
    call->height = header_int(f);
    int maxval = header_int(f);
    if (call->width <= 0 || call->height <= 0 || maxval != 255) fail("not an 8-bit PGM", path);
    size_t size = (size_t)call->width * (size_t)call->height;
    call->pixels = malloc(size);
    if (!call->pixels || fread(call->pixels, 1, size, f) != size) fail("short PGM", path);
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: ocr-floor DIR [TEXT-OUT]\n");
        return 2;
    }
    omp_set_max_active_levels(0);
    char path[4096];
    snprintf(path, sizeof path, "%s/calls.tsv", argv[1]);
    FILE *list = fopen(path, "r");
    if (!list) fail("cannot open", path);

    struct call *calls = NULL;
    size_t count = 0, capacity = 0;
    char line[1024];
    while (fgets(line, sizeof line, list)) {
        if (line[0] == '\n' || line[0] == '\0') continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 256;
            calls = realloc(calls, capacity * sizeof *calls);
            if (!calls) fail("out of memory", NULL);
        }
        struct call *c = &calls[count];
        memset(c, 0, sizeof *c);
        if (sscanf(line, "%255[^\t]\t%63[^\t]\t%d\t%d", c->name, c->language, &c->psm, &c->dpi) != 4)
            fail("a line of calls.tsv is not NAME TAB LANGUAGE TAB PSM TAB DPI", line);
        snprintf(path, sizeof path, "%s/%s", argv[1], c->name);
        read_pgm(path, c);
        count++;
    }
    fclose(list);

    /* One engine per language, initialised before the timed loop. */
    double init_started = now();
    struct { char language[64]; TessBaseAPI *api; } engines[64];
    size_t engine_count = 0;
    for (size_t i = 0; i < count; i++) {
        size_t e = 0;
        while (e < engine_count && strcmp(engines[e].language, calls[i].language) != 0) e++;
        if (e == engine_count) {
            if (engine_count == 64) fail("more than 64 languages", NULL);
            TessBaseAPI *api = TessBaseAPICreate();
            if (TessBaseAPIInit2(api, NULL, calls[i].language, OEM_LSTM_ONLY) != 0
                || !TessBaseAPISetVariable(api, "tessedit_do_invert", "0"))
                fail("TessBaseAPIInit2 failed for the language", calls[i].language);
            snprintf(engines[e].language, sizeof engines[e].language, "%s", calls[i].language);
            engines[e].api = api;
            engine_count++;
        }
        calls[i].api = engines[e].api;
    }
    double init_seconds = now() - init_started;

    FILE *out = argc == 3 ? fopen(argv[2], "w") : NULL;
    if (argc == 3 && !out) fail("cannot write", argv[2]);
    size_t text_bytes = 0;
    double started = now();
    for (size_t i = 0; i < count; i++) {
        struct call *c = &calls[i];
        TessBaseAPISetImage(c->api, c->pixels, c->width, c->height, 1, c->width);
        TessBaseAPISetSourceResolution(c->api, c->dpi);
        TessBaseAPISetPageSegMode(c->api, (TessPageSegMode)c->psm);
        char *text = TessBaseAPIGetUTF8Text(c->api);
        if (text) {
            text_bytes += strlen(text);
            if (out) fprintf(out, "%s\n%s\f\n", c->name, text);
            TessDeleteText(text);
        }
    }
    double seconds = now() - started;
    if (out) fclose(out);

    printf("%zu\t%.6f\t%.6f\t%zu\n", count, seconds, init_seconds, text_bytes);
    for (size_t e = 0; e < engine_count; e++) {
        TessBaseAPIEnd(engines[e].api);
        TessBaseAPIDelete(engines[e].api);
    }
    for (size_t i = 0; i < count; i++) free(calls[i].pixels);
    free(calls);
    return 0;
}
