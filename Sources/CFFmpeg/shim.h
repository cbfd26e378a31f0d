// The few FFmpeg macros that Swift cannot import, as prefixed inline functions and constants.
// Nothing else lives in C: every value here is computed by FFmpeg's own headers, never hard-coded.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <stdio.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/// AVERROR(e) is a function-like macro (it negates errno values on POSIX).
static inline int cffmpeg_averror(int e) { return AVERROR(e); }

/// AVERROR_EOF is built with FFERRTAG, a macro Swift cannot evaluate.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }

/// AVERROR_EAGAIN spelled through the same macro, so that "try again" is recognised portably.
static inline int cffmpeg_averror_eagain(void) { return AVERROR(EAGAIN); }

/// AV_NOPTS_VALUE is a cast expression Swift imports as nothing.
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

/// AV_TIME_BASE_Q is a compound literal.
static inline AVRational cffmpeg_time_base_q(void) { return AV_TIME_BASE_Q; }

/// av_err2str uses a compound-literal buffer; this writes the message into the caller's buffer instead.
static inline const char *cffmpeg_err2str(int errnum, char *buffer, size_t size) {
    if (av_strerror(errnum, buffer, size) < 0) {
        snprintf(buffer, size, "unknown error %d", errnum);
    }
    return buffer;
}

#endif
