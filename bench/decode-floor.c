/*
 * decode-floor.c: the decoding floor under a frame-accurate thumbnail (at-T.png), for the bench.
 *
 * For each TIME it opens FILE, seeks to the keyframe at or before the time and decodes until
 * the frame a player shows at that time is known, as the daemon's DecodeSession does for `at-`
 * (Sources/MediaKit/Thumbnails/DecodeSession*.swift, Docs/ARCHITECTURE.md "Pictures"), with the same settings:
 *   - the first video stream (not cover art); every other stream discarded in the demuxer;
 *   - libavcodec's software decoder with frame threading, one thread per processor, at most 4
 *     (VideoDecoder.maxThreads), pkt_timebase set;
 *   - av_seek_frame(AVSEEK_FLAG_BACKWARD) (without the flag if that fails), then
 *     avcodec_flush_buffers; frames before the first keyframe dropped; a seek whose first
 *     keyframe is later than the time retried 1, 4 and 16 s earlier;
 *   - packets presented two frames' time or more before the time decoded with AVDISCARD_NONREF
 *     (the disposable B-frames on the way cannot be the answer); for AV1, whose libdav1d decoder
 *     ignores skip_frame, the frames of such packets stored in no reference slot
 *     (refresh_frame_flags 0) are not sent (DecodeSession+Skipping.swift,
 *     AV1/AV1TemporalUnits.swift); if one of them is presented after the answer found, the
 *     time is decoded again without skipping;
 *   - decoding stops at the first frame presented after the time, or at it: the answer is the
 *     last at or before the time, or the last frame at the end of the stream.
 * Nothing else: no scaling, no colour conversion, no PNG, no FUSE, no process start.
 *
 * The timed part of each TIME is the seek and the decoding; opening the file and the decoder
 * (avformat_open_input, avformat_find_stream_info, avcodec_open2) is timed apart: the daemon
 * keeps a file and its decoder open between requests (its decode session).
 *
 * Usage: decode-floor FILE TIME...   (TIME in seconds from the stream's first frame)
 * Prints one line per TIME, tab-separated:
 *   TIME  SEEK+DECODE-SECONDS  OPEN-SECONDS  FRAMES-DECODED  ANSWER-TIME
 * where ANSWER-TIME is the answer frame's time in seconds from the first frame.
 * Exit status 1 (with a message on stderr) when a time cannot be answered.
 *
 * Build: gcc -O2 -o decode-floor decode-floor.c $(pkg-config --cflags --libs libavformat libavcodec libavutil) -lm
 */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = "";
    if (code < 0) av_strerror(code, text, sizeof text);
    fprintf(stderr, "decode-floor: %s%s%s\n", what, code < 0 ? ": " : "", text);
    exit(1);
}

/* AV1 headers, read as far as refresh_frame_flags (AV1 specification 5.3, 5.5, 5.9.2): the C
 * twin of Sources/MediaKit/Thumbnails/AV1/, which says why. */
struct bits { const uint8_t *data; size_t size, pos; int failed; };

static uint32_t get(struct bits *b, int n) {
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        if (b->pos >= b->size * 8) { b->failed = 1; return 0; }
        v = v << 1 | ((b->data[b->pos >> 3] >> (7 - (b->pos & 7))) & 1);
        b->pos++;
    }
    return v;
}

static void skip_bits(struct bits *b, size_t n) {
    if (b->pos + n > b->size * 8) b->failed = 1; else b->pos += n;
}

static uint32_t uvlc(struct bits *b) {
    int zeros = 0;
    while (!get(b, 1) && !b->failed)
        if (++zeros >= 32) return UINT32_MAX;
    return zeros ? get(b, zeros) + (1u << zeros) - 1 : 0;
}

static size_t leb128(struct bits *b) {
    size_t v = 0;
    for (int i = 0; i < 8; i++) {
        uint32_t byte = get(b, 8);
        v |= (size_t)(byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) break;
    }
    return v;
}

struct av1_sequence {
    int known, reduced, decoder_model, equal_interval, removal_len, presentation_len, points;
    uint32_t idc[32];
    int has_model[32], id_numbers, id_len, force_sct, force_imv, order_bits;
};

static void av1_read_sequence(struct av1_sequence *q, const uint8_t *p, size_t n) {
    struct bits b = {p, n, 0, 0};
    struct av1_sequence z = {0};
    int delay_len = 0;
    skip_bits(&b, 4);
    z.reduced = get(&b, 1);
    if (z.reduced) {
        skip_bits(&b, 5);
        z.points = 1;
    } else {
        if (get(&b, 1)) {
            skip_bits(&b, 64);
            z.equal_interval = get(&b, 1);
            if (z.equal_interval) uvlc(&b);
            z.decoder_model = get(&b, 1);
            if (z.decoder_model) {
                delay_len = get(&b, 5) + 1;
                skip_bits(&b, 32);
                z.removal_len = get(&b, 5) + 1;
                z.presentation_len = get(&b, 5) + 1;
            }
        }
        int display_delay = get(&b, 1);
        z.points = get(&b, 5) + 1;
        for (int i = 0; i < z.points; i++) {
            z.idc[i] = get(&b, 12);
            if (get(&b, 5) > 7) skip_bits(&b, 1);
            if (z.decoder_model) {
                z.has_model[i] = get(&b, 1);
                if (z.has_model[i]) skip_bits(&b, 2 * delay_len + 1);
            }
            if (display_delay && get(&b, 1)) skip_bits(&b, 4);
        }
    }
    int width_bits = get(&b, 4) + 1, height_bits = get(&b, 4) + 1;
    skip_bits(&b, width_bits + height_bits);
    if (!z.reduced) z.id_numbers = get(&b, 1);
    if (z.id_numbers) {
        int delta = get(&b, 4) + 2;
        z.id_len = delta + get(&b, 3) + 1;
    }
    skip_bits(&b, 3);
    z.force_sct = z.force_imv = 2;
    if (!z.reduced) {
        skip_bits(&b, 4);
        int order_hint = get(&b, 1);
        if (order_hint) skip_bits(&b, 2);
        z.force_sct = get(&b, 1) ? 2 : (int)get(&b, 1);
        if (z.force_sct > 0) z.force_imv = get(&b, 1) ? 2 : (int)get(&b, 1);
        if (order_hint) z.order_bits = get(&b, 3) + 1;
    }
    z.known = !b.failed;
    *q = z;
}

/* refresh_frame_flags of a frame header, 256 for a frame shown again, -1 when it cannot be read. */
static int av1_refresh(const struct av1_sequence *q, const uint8_t *p, size_t n, int tid, int sid) {
    if (q->reduced) return 0xff;
    struct bits b = {p, n, 0, 0};
    if (get(&b, 1)) return b.failed ? -1 : 256;
    int type = get(&b, 2), intra = type == 0 || type == 2, show = get(&b, 1);
    if (show && q->decoder_model && !q->equal_interval) skip_bits(&b, q->presentation_len);
    if (!show) skip_bits(&b, 1);
    if (type == 3 || (type == 0 && show)) return b.failed ? -1 : 0xff;
    int error_resilient = get(&b, 1);
    skip_bits(&b, 1);
    int sct = q->force_sct == 2 ? (int)get(&b, 1) : q->force_sct;
    if (sct > 0 && q->force_imv == 2) skip_bits(&b, 1);
    if (q->id_numbers) skip_bits(&b, q->id_len);
    skip_bits(&b, 1 + q->order_bits);
    if (!intra && !error_resilient) skip_bits(&b, 3);
    if (q->decoder_model && get(&b, 1))
        for (int i = 0; i < q->points; i++)
            if (q->has_model[i] && (q->idc[i] == 0 || ((q->idc[i] >> tid & 1) && (q->idc[i] >> (sid + 8) & 1))))
                skip_bits(&b, q->removal_len);
    int refresh = get(&b, 8);
    return b.failed ? -1 : refresh;
}

/* What of a temporal unit the decoder needs: AV1_WHOLE, AV1_NOTHING (every frame in it is stored
 * in no reference slot, and nothing else in it matters) or AV1_ONLY (the unit without those
 * frames' OBUs, written to `kept`, of `*kept_size` bytes). Takes the sequence headers it carries. */
enum { AV1_WHOLE, AV1_NOTHING, AV1_ONLY };
static int av1_judge(struct av1_sequence *q, const uint8_t *p, size_t n, uint8_t *kept, size_t *kept_size) {
    struct bits b = {p, n, 0, 0};
    int frames = 0, left_out = 0, only_frames = 1, leaving_out = 0;
    size_t size_kept = 0;
    while (b.pos < n * 8) {
        size_t start = b.pos / 8;
        if (get(&b, 1)) return AV1_WHOLE;
        int type = get(&b, 4), extension = get(&b, 1), has_size = get(&b, 1), tid = 0, sid = 0, keeps = 1;
        skip_bits(&b, 1);
        if (extension) { tid = get(&b, 3); sid = get(&b, 2); skip_bits(&b, 3); }
        size_t size = has_size ? leb128(&b) : n - b.pos / 8;
        if (b.failed || size > n - b.pos / 8) return AV1_WHOLE;
        const uint8_t *payload = p + b.pos / 8;
        b.pos += size * 8;
        if (type == 1) {
            av1_read_sequence(q, payload, size);
            if (!q->known) return AV1_WHOLE;
            only_frames = 0;
        } else if (type == 3 || type == 6) {
            frames++;
            leaving_out = q->known && q->points == 1 && sid == 0 && av1_refresh(q, payload, size, tid, sid) == 0;
            left_out += leaving_out;
            keeps = !leaving_out;
        } else if (type == 4 || type == 7) {
            keeps = !leaving_out;
        } else if (type == 8) {
            return AV1_WHOLE;
        } else if (type != 2 && type != 5 && type != 15) {
            only_frames = 0;
        }
        if (keeps && kept) {
            memcpy(kept + size_kept, p + start, b.pos / 8 - start);
            size_kept += b.pos / 8 - start;
        }
    }
    if (kept_size) *kept_size = size_kept;
    if (left_out == 0) return AV1_WHOLE;
    return left_out == frames && only_frames ? AV1_NOTHING : AV1_ONLY;
}

/* One open file and decoder, and the decoding state since the last seek. */
struct session {
    AVFormatContext *input;
    AVStream *stream;
    AVCodecContext *decoder;
    AVPacket *packet;
    int64_t start_pts, one_second, frame_duration, skip_before, last_pts, latest_skippable;
    int input_ended, drained, awaiting_keyframe, frames_decoded, is_av1;
    struct av1_sequence av1;
    AVPacket *trimmed;  /* an AV1 packet without the frames left out */
};

static void open_session(struct session *s, const char *path) {
    int err;
    s->input = NULL;
    if ((err = avformat_open_input(&s->input, path, NULL, NULL)) < 0) fail("avformat_open_input", err);
    if ((err = avformat_find_stream_info(s->input, NULL)) < 0) fail("avformat_find_stream_info", err);
    s->stream = NULL;
    for (unsigned i = 0; i < s->input->nb_streams; i++) {
        AVStream *st = s->input->streams[i];
        if (!s->stream && st->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && !(st->disposition & AV_DISPOSITION_ATTACHED_PIC))
            s->stream = st;
        else
            st->discard = AVDISCARD_ALL;
    }
    if (!s->stream) fail("no video stream", 0);
    const AVCodec *codec = avcodec_find_decoder(s->stream->codecpar->codec_id);
    if (!codec) fail("no decoder for the video codec", 0);
    s->decoder = avcodec_alloc_context3(codec);
    if (!s->decoder) fail("avcodec_alloc_context3", AVERROR(ENOMEM));
    if ((err = avcodec_parameters_to_context(s->decoder, s->stream->codecpar)) < 0) fail("avcodec_parameters_to_context", err);
    s->decoder->pkt_timebase = s->stream->time_base;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    s->decoder->thread_type = FF_THREAD_FRAME;
    s->decoder->thread_count = (int)(cpus < 1 ? 1 : cpus > 4 ? 4 : cpus);
    if ((err = avcodec_open2(s->decoder, codec, NULL)) < 0) fail("avcodec_open2", err);
    s->is_av1 = s->stream->codecpar->codec_id == AV_CODEC_ID_AV1;
    const uint8_t *config = s->stream->codecpar->extradata;
    int config_size = s->stream->codecpar->extradata_size;
    if (s->is_av1 && config && config_size > 4)  /* av1C: 4 bytes, then OBUs; or bare OBUs */
        av1_judge(&s->av1, config[0] == 0x81 ? config + 4 : config, config[0] == 0x81 ? config_size - 4 : config_size,
                  NULL, NULL);
    s->trimmed = av_packet_alloc();
    if (!s->trimmed) fail("av_packet_alloc", AVERROR(ENOMEM));
    s->packet = av_packet_alloc();
    if (!s->packet) fail("av_packet_alloc", AVERROR(ENOMEM));

    AVRational tb = s->stream->time_base;
    int64_t format_start = s->input->start_time == AV_NOPTS_VALUE ? 0 : s->input->start_time;
    s->start_pts = s->stream->start_time != AV_NOPTS_VALUE ? s->stream->start_time
                                                           : av_rescale_q(format_start, AV_TIME_BASE_Q, tb);
    s->one_second = av_rescale_q(1, (AVRational){1, 1}, tb);
    if (s->one_second < 1) s->one_second = 1;
    AVRational rate = s->stream->avg_frame_rate.num > 0 && s->stream->avg_frame_rate.den > 0 ? s->stream->avg_frame_rate
                                                                                              : s->stream->r_frame_rate;
    int64_t one_frame = rate.num > 0 && rate.den > 0 ? av_rescale_q(1, av_inv_q(rate), tb) : 0;
    s->frame_duration = one_frame > 0 ? one_frame : av_rescale_q(40000, AV_TIME_BASE_Q, tb);
    if (s->frame_duration < 1) s->frame_duration = 1;
}

static void close_session(struct session *s) {
    av_packet_free(&s->packet);
    av_packet_free(&s->trimmed);
    avcodec_free_context(&s->decoder);
    avformat_close_input(&s->input);
}

static void seek(struct session *s, int64_t target) {
    int err = av_seek_frame(s->input, s->stream->index, target, AVSEEK_FLAG_BACKWARD);
    if (err < 0) err = av_seek_frame(s->input, s->stream->index, target, 0);
    if (err < 0) fail("av_seek_frame", err);
    avcodec_flush_buffers(s->decoder);
    s->input_ended = s->drained = 0;
    s->awaiting_keyframe = 1;
    s->last_pts = AV_NOPTS_VALUE;
    s->latest_skippable = INT64_MIN;
}

/* The next frame out of the decoder into `frame`, reading packets as needed; 0 once drained. */
static int decode_next(struct session *s, AVFrame *frame) {
    if (s->drained) return 0;
    for (;;) {
        int got = avcodec_receive_frame(s->decoder, frame);
        if (got == 0) {
            s->frames_decoded++;
            int64_t pts = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp
                        : frame->pts != AV_NOPTS_VALUE                    ? frame->pts
                        : s->last_pts != AV_NOPTS_VALUE                   ? s->last_pts + s->frame_duration
                                                                          : s->start_pts;
            frame->pts = pts;
            s->last_pts = pts;
            return 1;
        }
        if (got == AVERROR_EOF || (got == AVERROR(EAGAIN) && s->input_ended)) {
            s->drained = 1;
            return 0;
        }
        if (got != AVERROR(EAGAIN)) fail("avcodec_receive_frame", got);
        int read = av_read_frame(s->input, s->packet);
        if (read < 0) {
            s->input_ended = 1;
            avcodec_send_packet(s->decoder, NULL);
            continue;
        }
        if (s->packet->stream_index == s->stream->index) {
            int64_t pts = s->packet->pts;
            int skippable = pts != AV_NOPTS_VALUE && pts < s->skip_before;
            AVPacket *send = s->packet;
            if (s->is_av1) {
                int err = av_new_packet(s->trimmed, s->packet->size);
                if (err < 0) fail("av_new_packet", err);
                size_t kept = 0;
                int judged = av1_judge(&s->av1, s->packet->data, s->packet->size, s->trimmed->data, &kept);
                if (skippable && judged != AV1_WHOLE) {
                    if (pts > s->latest_skippable) s->latest_skippable = pts;
                    send = NULL;
                    if (judged == AV1_ONLY) {
                        av_shrink_packet(s->trimmed, (int)kept);
                        if ((err = av_packet_copy_props(s->trimmed, s->packet)) < 0) fail("av_packet_copy_props", err);
                        send = s->trimmed;
                    }
                }
            } else {
                s->decoder->skip_frame = skippable ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;
                if (skippable && pts > s->latest_skippable) s->latest_skippable = pts;
            }
            int sent = send ? avcodec_send_packet(s->decoder, send) : 0;
            av_packet_unref(s->trimmed);
            if (sent < 0 && sent != AVERROR(EAGAIN)) fprintf(stderr, "decode-floor: a packet failed to decode\n");
        }
        av_packet_unref(s->packet);
    }
}

static int is_keyframe(const AVFrame *frame) {
#ifdef AV_FRAME_FLAG_KEY
    return (frame->flags & AV_FRAME_FLAG_KEY) != 0; /* FFmpeg 6.1 and later */
#else
    return frame->key_frame != 0;
#endif
}

/* The next frame that can be shown: after a seek, from the first keyframe on. */
static int decode_next_showable(struct session *s, AVFrame *frame) {
    while (decode_next(s, frame)) {
        if (s->awaiting_keyframe && !is_keyframe(frame)) {
            av_frame_unref(frame);
            continue;
        }
        s->awaiting_keyframe = 0;
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: decode-floor FILE TIME...\n");
        return 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    for (int t = 2; t < argc; t++) {
        double seconds = strtod(argv[t], NULL);
        struct session s = {0};
        double opening = now();
        open_session(&s, argv[1]);
        double opened = now();

        AVRational tb = s.stream->time_base;
        int64_t target = s.start_pts + llround(seconds * tb.den / tb.num);
        AVFrame *shown = av_frame_alloc(), *next = av_frame_alloc();
        if (!shown || !next) fail("av_frame_alloc", AVERROR(ENOMEM));
        int have_shown = 0, have_next = 0;
        /* Skipping first; again without if a packet left out may be the answer. */
        for (int pass = 0; pass < 2; pass++) {
            s.skip_before = pass == 0 ? target - 2 * s.frame_duration : INT64_MIN;
            have_shown = have_next = 0;
            av_frame_unref(shown);
            av_frame_unref(next);
            /* Seek so that decoding forward reaches the target from a frame at or before it. */
            int64_t seek_to = target > s.start_pts ? target : s.start_pts, step = s.one_second;
            for (int attempt = 0; attempt < 4; attempt++) {
                seek(&s, seek_to);
                have_next = decode_next_showable(&s, next);
                if (have_next && next->pts <= target) break;
                if (seek_to < s.start_pts) break;
                int64_t landed = have_next && next->pts < seek_to ? next->pts : seek_to;
                seek_to = landed - step;
                step *= 4;
                if (have_next) av_frame_unref(next);
            }
            /* Decode until the next frame would be later than the target, or one is at it. */
            for (;;) {
                if (!have_next) have_next = decode_next_showable(&s, next);
                if (!have_next) break;  /* the end: the last frame shown is the answer */
                if (next->pts > target) {
                    if (!have_shown) {  /* the time is before the first frame: the first frame */
                        AVFrame *swap = shown; shown = next; next = swap;
                        have_shown = 1;
                    }
                    break;
                }
                av_frame_unref(shown);
                AVFrame *swap = shown; shown = next; next = swap;
                have_shown = 1;
                have_next = 0;
                if (shown->pts == target) break;
            }
            int64_t found = have_shown && shown->pts <= target ? shown->pts : INT64_MIN;
            if (s.latest_skippable <= found) break;
        }
        double decoded = now();
        if (!have_shown) fail("no frame to show at this time", 0);

        printf("%s\t%.6f\t%.6f\t%d\t%.6f\n", argv[t], decoded - opened, opened - opening, s.frames_decoded,
               (double)(shown->pts - s.start_pts) * av_q2d(tb));
        fflush(stdout);
        av_frame_free(&shown);
        av_frame_free(&next);
        close_session(&s);
    }
    return 0;
}
