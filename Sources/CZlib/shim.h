#ifndef MEDIAFS_CZLIB_SHIM_H
#define MEDIAFS_CZLIB_SHIM_H

/* zlib (libpng's own compression library): the memory cache keeps made pictures deflated. */
#include <zlib.h>

#endif
