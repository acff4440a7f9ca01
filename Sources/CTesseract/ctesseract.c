#include "ctesseract.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;

static TessBaseAPI *(*create)(void);
static void (*delete_api)(TessBaseAPI *);
static BOOL (*set_variable)(TessBaseAPI *, const char *, const char *);
static int (*init2)(TessBaseAPI *, const char *, const char *, TessOcrEngineMode);
static void (*set_page_seg_mode)(TessBaseAPI *, TessPageSegMode);
static void (*set_image)(TessBaseAPI *, const unsigned char *, int, int, int, int);
static void (*set_source_resolution)(TessBaseAPI *, int);
static char *(*get_utf8_text)(TessBaseAPI *);
static void (*delete_text)(const char *);
static void (*clear)(TessBaseAPI *);
static void (*end)(TessBaseAPI *);
static void (*max_active_levels)(int);

/* Every symbol, or a failure naming the first missing. Handles are kept for the process's life. */
static void load(void) {
    void *tesseract = dlopen("libtesseract.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!tesseract) {
        failure = dlerror();
        return;
    }
#define FIND(variable, name) \
    if (!(*(void **)&variable = dlsym(tesseract, name))) { failure = "libtesseract.so.5 lacks " name; return; }
    FIND(create, "TessBaseAPICreate")
    FIND(delete_api, "TessBaseAPIDelete")
    FIND(set_variable, "TessBaseAPISetVariable")
    FIND(init2, "TessBaseAPIInit2")
    FIND(set_page_seg_mode, "TessBaseAPISetPageSegMode")
    FIND(set_image, "TessBaseAPISetImage")
    FIND(set_source_resolution, "TessBaseAPISetSourceResolution")
    FIND(get_utf8_text, "TessBaseAPIGetUTF8Text")
    FIND(delete_text, "TessDeleteText")
    FIND(clear, "TessBaseAPIClear")
    FIND(end, "TessBaseAPIEnd")
#undef FIND
    /* libtesseract's own dependency, loaded with it; a build without OpenMP has none. */
    void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (gomp) *(void **)&max_active_levels = dlsym(gomp, "omp_set_max_active_levels");
}

int ctess_load(void) {
    pthread_once(&once, load);
    return failure == NULL;
}

const char *ctess_load_error(void) {
    pthread_once(&once, load);
    return failure;
}

TessBaseAPI *ctess_create(void) { return create(); }
void ctess_delete(TessBaseAPI *api) { delete_api(api); }
int ctess_set_variable(TessBaseAPI *api, const char *name, const char *value) { return set_variable(api, name, value); }
int ctess_init_lstm(TessBaseAPI *api, const char *datapath, const char *language) {
    return init2(api, datapath, language, OEM_LSTM_ONLY);
}
void ctess_set_page_seg_mode(TessBaseAPI *api, TessPageSegMode mode) { set_page_seg_mode(api, mode); }
void ctess_set_image(TessBaseAPI *api, const unsigned char *data, int width, int height, int bytes_per_pixel,
                     int bytes_per_line) {
    set_image(api, data, width, height, bytes_per_pixel, bytes_per_line);
}
void ctess_set_source_resolution(TessBaseAPI *api, int ppi) { set_source_resolution(api, ppi); }
char *ctess_get_utf8_text(TessBaseAPI *api) { return get_utf8_text(api); }
void ctess_delete_text(char *text) { delete_text(text); }
void ctess_clear(TessBaseAPI *api) { clear(api); }
void ctess_end(TessBaseAPI *api) { end(api); }
void ctess_single_thread(void) {
    if (max_active_levels) max_active_levels(0);
}
