#ifndef MEDIAFS_CCHROMAPRINT_SHIM_H
#define MEDIAFS_CCHROMAPRINT_SHIM_H

/* Chromaprint (libchromaprint-dev): the raw fingerprints episodes' audio is compared by. */
#include <chromaprint.h>

#endif
