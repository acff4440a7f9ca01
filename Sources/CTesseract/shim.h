#ifndef MEDIAFS_CTESSERACT_SHIM_H
#define MEDIAFS_CTESSERACT_SHIM_H

/* Tesseract 5 (libtesseract-dev), through its C API: picture subtitles read into text
   (MediaKit/PictureText). */
#include <tesseract/capi.h>

/* libgomp, which Debian's libtesseract is built with: its LSTM runs each line's layers on a team
   of OpenMP threads, which on a single line costs more than it gains. A limit of 0 active
   parallel levels makes every region run on the calling thread (GCC's omp.h is not on clang's
   include path, hence the declaration). */
void omp_set_max_active_levels(int max_levels);

#endif
