#ifndef MEDIAFS_CJPEG_H
#define MEDIAFS_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/*
 * The one place that calls libjpeg (libjpeg-turbo). libjpeg reports errors through an error_exit
 * callback that must not return, which Swift cannot provide, so this function owns the
 * setjmp/longjmp and turns an error into a return code and a message.
 */

/* What cjpeg_write_rgb24 returns. */
enum {
    CJPEG_WRITTEN = 0,   /* the whole file is in `out`, its length in `*written` */
    CJPEG_TOO_LONG = 1,  /* the file would be longer than `capacity`: stopped, nothing written */
    CJPEG_FAILED = -1,   /* a libjpeg error (or out of memory): the text is in `message` */
};

/*
 * Writes an 8-bit RGB picture of `width` x `height` pixels as a baseline JFIF file into `out`:
 * SOI, the JFIF APP0 segment (version 1.01, aspect 1:1), DQT, SOF0, DHT, one sequential scan
 * (SOS), EOI; YCbCr, with 4:4:4 chroma, or 4:2:0 (one Cb and one Cr sample per 2x2 pixels) when
 * `chroma_halved` is nonzero; libjpeg's standard quantization tables scaled for `quality` (1-100,
 * jpeg_set_quality with force_baseline, so every table entry is 1-255), the accurate integer DCT
 * (JDCT_ISLOW), no restart markers, no other segments.
 *
 * `optimize_coding` nonzero: Huffman tables made for this picture (a statistics pass first, and
 * the whole picture's coefficients in memory: 6 bytes a pixel at 4:4:4, 3 at 4:2:0); zero: the
 * standard tables of the JPEG specification (Annex K.3), one pass in a few rows of memory.
 *
 * `pixels` holds `height` rows of `3 * width` bytes, each row `stride` bytes after the previous.
 * `width` and `height` are 1-65500 (more is a libjpeg error).
 *
 * Returns CJPEG_WRITTEN with the length in `*written`; CJPEG_TOO_LONG as soon as the file
 * would pass `capacity` bytes (a file of exactly `capacity` bytes is written); CJPEG_FAILED with
 * a message in `message` (always NUL-terminated). Nothing stays allocated whatever it returns.
 */
int cjpeg_write_rgb24(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                      int quality, int optimize_coding, int chroma_halved,
                      uint8_t *out, size_t capacity, size_t *written,
                      char *message, size_t message_capacity);

/* The libjpeg-turbo version the target was built with, e.g. 2001005 for 2.1.5. */
int cjpeg_libjpeg_turbo_version(void);

#endif
