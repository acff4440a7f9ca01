#ifndef MEDIAFS_CAV_SHIM_H
#define MEDIAFS_CAV_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/mastering_display_metadata.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

/* Macros Swift cannot import, as prefixed inline functions and constants. */
static inline int cav_averror(int e) { return AVERROR(e); }
static inline int cav_error_eof(void) { return AVERROR_EOF; }
static inline int cav_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int cav_error_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t cav_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational cav_time_base_q(void) { return AV_TIME_BASE_Q; }
/* What av_read_frame and friends return when the interrupt callback stopped them. */
static inline int cav_error_exit(void) { return AVERROR_EXIT; }

/* AVIndexEntry's flags are a bit field. */
static inline int cav_index_entry_is_keyframe(const AVIndexEntry *entry) {
    return (entry->flags & AVINDEX_KEYFRAME) != 0;
}

#endif
