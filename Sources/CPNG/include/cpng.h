#ifndef MEDIAFS_CPNG_H
#define MEDIAFS_CPNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * The one place that calls libpng. libpng reports errors by longjmp, which Swift cannot catch,
 * so this function owns the setjmp and turns an error into a return code and a message.
 */

/*
 * Writes an 8-bit RGB PNG of `width` x `height` pixels into `out`: compression level 0 (stored
 * deflate blocks), filter NONE on every row, no interlace, and one optional chunk, sRGB with
 * perceptual rendering intent, so the file is signature, IHDR, sRGB, IDAT..., IEND and its length
 * depends only on the size and `zbuffer_size`.
 *
 * `pixels` holds `height` rows of `3 * width` bytes, each row `stride` bytes after the previous.
 * `zbuffer_size` is libpng's compression buffer size: the IDAT chunk size, and the space zlib
 * sees for its output (see png_set_compression_buffer_size).
 *
 * Returns 0 with the length in `*written`, or -1 with a message in `message` (always
 * NUL-terminated): a libpng error, or output longer than `capacity`. Nothing stays allocated.
 */
int cpng_write_rgb24(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                     uint32_t zbuffer_size,
                     uint8_t *out, size_t capacity, size_t *written,
                     char *message, size_t message_capacity);

/* The libpng version the target was linked with, e.g. "1.6.39". */
const char *cpng_libpng_version(void);

#endif
