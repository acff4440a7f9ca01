#ifndef MEDIAFS_CTESSERACT_SHIM_H
#define MEDIAFS_CTESSERACT_SHIM_H

/* Tesseract 5 (libtesseract-dev), through its C API: picture subtitles read into text
   (MediaKit/PictureText). */
#include <tesseract/capi.h>

#endif
