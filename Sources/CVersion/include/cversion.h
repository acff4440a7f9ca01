#ifndef MEDIAFS_CVERSION_H
#define MEDIAFS_CVERSION_H

/*
 * The version mediafs was built as: what scripts/version.sh printed when the build ran (the
 * Makefile passes it in MEDIAFS_VERSION, Package.swift defines it for cversion.c only), else
 * "unknown". A static string, never freed.
 */
const char *cversion_string(void);

#endif
