#include "cversion.h"

/* Defined by Package.swift from MEDIAFS_VERSION in the environment of the build, on this file's
 * command line only. */
#ifndef MEDIAFS_VERSION
#define MEDIAFS_VERSION "unknown"
#endif

const char *cversion_string(void) { return MEDIAFS_VERSION; }
