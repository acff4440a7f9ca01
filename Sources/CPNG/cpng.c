#include "cpng.h"

#include <png.h>
#include <setjmp.h>
#include <string.h>

/* Where libpng's callbacks write: the caller's buffer, and the text of the first error. */
struct cpng_sink {
    uint8_t *out;
    size_t capacity;
    size_t length;
    char *message;
    size_t message_capacity;
};

static void cpng_set_message(struct cpng_sink *sink, const char *text) {
    if (sink->message_capacity == 0) return;
    strncpy(sink->message, text, sink->message_capacity - 1);
    sink->message[sink->message_capacity - 1] = '\0';
}

/* Called by libpng on an error: keep the text, then jump back to cpng_write_rgb24's setjmp. */
static void cpng_on_error(png_structp png, png_const_charp text) {
    cpng_set_message((struct cpng_sink *)png_get_error_ptr(png), text ? text : "libpng error");
    png_longjmp(png, 1);
}

/* Warnings (none are expected for this fixed configuration) are not errors: ignore them. */
static void cpng_on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void cpng_on_write(png_structp png, png_bytep data, size_t length) {
    struct cpng_sink *sink = (struct cpng_sink *)png_get_io_ptr(png);
    if (length > sink->capacity - sink->length) {
        png_error(png, "the PNG is longer than the space given for it");
    }
    memcpy(sink->out + sink->length, data, length);
    sink->length += length;
}

static void cpng_on_flush(png_structp png) {
    (void)png;
}

int cpng_write_rgb24(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                     uint32_t zbuffer_size,
                     uint8_t *out, size_t capacity, size_t *written,
                     char *message, size_t message_capacity) {
    struct cpng_sink sink = { out, capacity, 0, message, message_capacity };
    if (message_capacity > 0) message[0] = '\0';
    *written = 0;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink,
                                              cpng_on_error, cpng_on_warning);
    if (png == NULL) {
        cpng_set_message(&sink, "png_create_write_struct failed (out of memory)");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        cpng_set_message(&sink, "png_create_info_struct failed (out of memory)");
        return -1;
    }
    /* Nothing below assigns a local that is read after the jump: png and info are set before. */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }

    png_set_write_fn(png, &sink, cpng_on_write, cpng_on_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* The pixels are sRGB (what swscale's RGB output and every player assume): say so, so that
     * colour-managed viewers show them as the JPEG beside them. The sRGB chunk alone (13 bytes),
     * without the gAMA and cHRM that png_set_sRGB_gAMA_and_cHRM would add. */
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 0);
    png_set_compression_buffer_size(png, zbuffer_size);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *written = sink.length;
    return 0;
}

const char *cpng_libpng_version(void) {
    return png_get_libpng_ver(NULL);
}
