/*
 * demux-floor.c: the demuxing floor under a film's tracks, for the bench.
 *
 * What making any track of a film (a subtitle file, an audio track) cannot cost less than when
 * the film is read once: libavformat opens the file (avformat_open_input,
 * avformat_find_stream_info) and reads every packet of it once (av_read_frame to the end), as
 * the daemon's pass does (Sources/MediaKit/Tracks/TrackExtractor+Pass.swift), and nothing else:
 * no decoding, no muxing, nothing written, no FUSE.
 *
 * Usage: demux-floor FILE [STREAM...]
 *   With STREAM indices, the other streams are discarded in the demuxer (AVDISCARD_ALL), as the
 *   pass discards the streams no track needs; without, every packet of every stream is handed out.
 * Prints one line, tab-separated:
 *   PACKETS  BYTES  OPEN-SECONDS  READ-SECONDS
 *
 * Build: gcc -O2 -o demux-floor demux-floor.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)
 */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = "";
    if (code < 0) av_strerror(code, text, sizeof text);
    fprintf(stderr, "demux-floor: %s%s%s\n", what, code < 0 ? ": " : "", text);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: demux-floor FILE [STREAM...]\n");
        return 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    double opening = now();
    AVFormatContext *input = NULL;
    int err;
    if ((err = avformat_open_input(&input, argv[1], NULL, NULL)) < 0) fail("avformat_open_input", err);
    if ((err = avformat_find_stream_info(input, NULL)) < 0) fail("avformat_find_stream_info", err);
    if (argc > 2) {
        for (unsigned i = 0; i < input->nb_streams; i++) input->streams[i]->discard = AVDISCARD_ALL;
        for (int a = 2; a < argc; a++) {
            long index = strtol(argv[a], NULL, 10);
            if (index < 0 || index >= (long)input->nb_streams) fail("no such stream", 0);
            input->streams[index]->discard = AVDISCARD_DEFAULT;
        }
    }
    double opened = now();

    AVPacket *packet = av_packet_alloc();
    if (!packet) fail("av_packet_alloc", AVERROR(ENOMEM));
    long long packets = 0, bytes = 0;
    while ((err = av_read_frame(input, packet)) >= 0) {
        packets++;
        bytes += packet->size;
        av_packet_unref(packet);
    }
    if (err != AVERROR_EOF) fail("av_read_frame", err);
    double read = now();

    printf("%lld\t%lld\t%.6f\t%.6f\n", packets, bytes, opened - opening, read - opened);
    av_packet_free(&packet);
    avformat_close_input(&input);
    return 0;
}
