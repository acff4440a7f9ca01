#include "cjpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/* How much the destination may overrun `capacity` before it is known to be too long: libjpeg
 * asks for more room as soon as the buffer is full, before it knows whether another byte comes. */
#define CJPEG_SPARE 16

/*
 * Everything one call owns, in one allocation, so that nothing the longjmp comes back to is an
 * automatic variable changed after the setjmp (those would be indeterminate).
 */
struct cjpeg_job {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr error;
    struct jpeg_destination_mgr destination;
    jmp_buf jump;
    int too_long;
    uint8_t *out;
    size_t capacity;
    /* Where libjpeg writes once `out` is full: a byte landing here makes the file too long. */
    uint8_t spare[CJPEG_SPARE];
    int in_spare;
    size_t length;
    char *message;
    size_t message_capacity;
};

static struct cjpeg_job *cjpeg_job_of(j_common_ptr cinfo) {
    return (struct cjpeg_job *)cinfo->client_data;
}

static void cjpeg_set_message(struct cjpeg_job *job, const char *text) {
    if (job->message_capacity == 0) return;
    strncpy(job->message, text, job->message_capacity - 1);
    job->message[job->message_capacity - 1] = '\0';
}

/* Called by libjpeg on an error: keep its text, then jump back to cjpeg_write_rgb24's setjmp. */
static void cjpeg_on_error(j_common_ptr cinfo) {
    struct cjpeg_job *job = cjpeg_job_of(cinfo);
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    cjpeg_set_message(job, text);
    longjmp(job->jump, 1);
}

/* Warnings and trace messages (none are expected for this fixed configuration) are dropped. */
static void cjpeg_on_message(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

static void cjpeg_init_destination(j_compress_ptr cinfo) {
    struct cjpeg_job *job = cjpeg_job_of((j_common_ptr)cinfo);
    /* libjpeg writes a byte before it looks at the room left, so it is never given none: with no
     * capacity at all, the first byte goes to the spare bytes and makes the file too long. */
    job->in_spare = job->capacity == 0;
    job->destination.next_output_byte = job->in_spare ? job->spare : job->out;
    job->destination.free_in_buffer = job->in_spare ? CJPEG_SPARE : job->capacity;
}

/* libjpeg filled the buffer it was given: the first time, `out` is full and the file may still
 * end there, so writing goes on into the spare bytes; the second time, it is too long. */
static boolean cjpeg_empty_output_buffer(j_compress_ptr cinfo) {
    struct cjpeg_job *job = cjpeg_job_of((j_common_ptr)cinfo);
    if (job->in_spare) {
        job->too_long = 1;
        longjmp(job->jump, 1);
    }
    job->in_spare = 1;
    job->destination.next_output_byte = job->spare;
    job->destination.free_in_buffer = CJPEG_SPARE;
    return TRUE;
}

static void cjpeg_term_destination(j_compress_ptr cinfo) {
    struct cjpeg_job *job = cjpeg_job_of((j_common_ptr)cinfo);
    if (job->in_spare) {
        if (job->destination.free_in_buffer < CJPEG_SPARE) job->too_long = 1;
        job->length = job->capacity;
    } else {
        job->length = job->capacity - job->destination.free_in_buffer;
    }
}

int cjpeg_write_rgb24(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                      int quality, int optimize_coding, int chroma_halved,
                      uint8_t *out, size_t capacity, size_t *written,
                      char *message, size_t message_capacity) {
    if (message_capacity > 0) message[0] = '\0';
    *written = 0;
    struct cjpeg_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        if (message_capacity > 0) {
            strncpy(message, "out of memory", message_capacity - 1);
            message[message_capacity - 1] = '\0';
        }
        return CJPEG_FAILED;
    }
    job->out = out;
    job->capacity = capacity;
    job->message = message;
    job->message_capacity = message_capacity;

    j_compress_ptr cinfo = &job->cinfo;
    cinfo->err = jpeg_std_error(&job->error);
    job->error.error_exit = cjpeg_on_error;
    job->error.emit_message = cjpeg_on_message;
    cinfo->client_data = job;
    /* Only `job` (set before, never changed after) is read once the jump has come back. */
    if (setjmp(job->jump)) {
        int result = job->too_long ? CJPEG_TOO_LONG : CJPEG_FAILED;
        jpeg_destroy_compress(&job->cinfo);
        free(job);
        return result;
    }
    jpeg_create_compress(cinfo);
    cinfo->client_data = job;

    job->destination.init_destination = cjpeg_init_destination;
    job->destination.empty_output_buffer = cjpeg_empty_output_buffer;
    job->destination.term_destination = cjpeg_term_destination;
    cinfo->dest = &job->destination;

    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 3;
    cinfo->in_color_space = JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_colorspace(cinfo, JCS_YCbCr);  /* also asks for the JFIF APP0 segment */
    cinfo->comp_info[0].h_samp_factor = chroma_halved ? 2 : 1;
    cinfo->comp_info[0].v_samp_factor = chroma_halved ? 2 : 1;
    cinfo->comp_info[1].h_samp_factor = 1;
    cinfo->comp_info[1].v_samp_factor = 1;
    cinfo->comp_info[2].h_samp_factor = 1;
    cinfo->comp_info[2].v_samp_factor = 1;
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->optimize_coding = optimize_coding ? TRUE : FALSE;
    cinfo->write_JFIF_header = TRUE;
    cinfo->write_Adobe_marker = FALSE;

    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);

    int result = job->too_long ? CJPEG_TOO_LONG : CJPEG_WRITTEN;
    if (result == CJPEG_WRITTEN) *written = job->length;
    jpeg_destroy_compress(cinfo);
    free(job);
    return result;
}

int cjpeg_libjpeg_turbo_version(void) {
    return LIBJPEG_TURBO_VERSION_NUMBER;
}
