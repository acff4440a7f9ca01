#ifndef MEDIAFS_CTESSERACT_H
#define MEDIAFS_CTESSERACT_H

/* Tesseract 5 (libtesseract5), loaded at the first reading of a picture subtitle rather than
   linked: a mount that never reads one neither maps the library nor runs its static initialisers,
   and the package runs without it (picture subtitles then get no text). The types are the C
   API's (tesseract/capi.h, from libtesseract-dev at build time); each function below calls the
   library's of the same name, once ctess_load() has succeeded. */
#include <tesseract/capi.h>

/* Loads libtesseract.so.5 and libgomp.so.1 the first time (thread-safe); 1 when they are loaded. */
int ctess_load(void);
/* Why the load failed (dlerror's text), or NULL. */
const char *ctess_load_error(void);

TessBaseAPI *ctess_create(void);
void ctess_delete(TessBaseAPI *api);
int ctess_set_variable(TessBaseAPI *api, const char *name, const char *value);
/* TessBaseAPIInit2 with the LSTM engine alone; 0 on success. */
int ctess_init_lstm(TessBaseAPI *api, const char *datapath, const char *language);
void ctess_set_page_seg_mode(TessBaseAPI *api, TessPageSegMode mode);
void ctess_set_image(TessBaseAPI *api, const unsigned char *data, int width, int height, int bytes_per_pixel,
                     int bytes_per_line);
void ctess_set_source_resolution(TessBaseAPI *api, int ppi);
char *ctess_get_utf8_text(TessBaseAPI *api);
void ctess_delete_text(char *text);
void ctess_clear(TessBaseAPI *api);
void ctess_end(TessBaseAPI *api);
/* libgomp's omp_set_max_active_levels(0) on the calling thread: Debian's libtesseract runs a
   line's LSTM on a team of OpenMP threads, which on single lines costs more than it gains. */
void ctess_single_thread(void);

#endif
