/*
 * The C benchmark of issue 7: gtastream through its C API against a hand-written C loop.
 *
 *     bench FILE [REPEATS [PIECE]]
 *
 * FILE is an ANP3 package whose keyframes are of types 3 and 4 (the large input comes from
 * `cargo run --release --features alloc --example bench_file`; see PERFORMANCE.md). The file is
 * read into memory once, then decoded in several ways, REPEATS times each (default 7), the
 * ways interleaved so that drift of the machine affects them alike:
 *
 *   (a) a hand-written loop over the whole buffer that converts every keyframe as FORMATS.md
 *       says (quaternion / 4096, time / 60, translation / 1024) and sums every component;
 *   (b) gtastream through the C API, fed 4 KiB pieces of the buffer, with an on_keyframes
 *       callback doing the same sum;
 *   (c) the same with 1-byte, 64-byte and 64 KiB pieces, and the whole buffer in one call.
 *
 * It prints, per way, the median of the REPEATS times as nanoseconds per keyframe and MB/s
 * (10^6 bytes per second of file), and the ratio to (a); then the sums. Every run's sums must
 * equal those of (a) bit for bit (both add the same float values in the same order): if any
 * differs, or the library reports an error, it says so and exits with 1.
 *
 * Last, the stack depth of decoding: each way of feeding runs again on a thread whose stack is
 * memory this program painted; the deepest byte written, less that of the same thread calling
 * an empty function instead, is what gts_decoder_feed and gts_decoder_finish (with this
 * callback) use below their caller. (Not measured under AddressSanitizer.)
 *
 * PIECE (for profiling) runs only (a) and the way with pieces of PIECE bytes (0: whole buffer),
 * and measures no stack.
 */
#define _POSIX_C_SOURCE 200112L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtastream.h"

/* Stack depths are not measured under AddressSanitizer (it moves and pads stack frames). */
#if defined(__SANITIZE_ADDRESS__)
#define MEASURE_STACK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEASURE_STACK 0
#endif
#endif
#ifndef MEASURE_STACK
#define MEASURE_STACK 1
#endif

/* The components summed: time, rotation x y z w, translation x y z. */
#define LANES 8

typedef struct sums {
    float lane[LANES];
    uint64_t frames;
} sums;

/* ---------------------------------------------------------------------------------------- */
/* (a) The hand-written loop. */

static uint32_t u32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t i16_at(const uint8_t *p)
{
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

/*
 * ANP3 (FORMATS.md section 2): a 36-byte file header (magic, size, name[24], animation count),
 * per animation a 36-byte header (name[24], bone count, frameDataSize, flags), per bone a
 * 36-byte header (name[24], frame type, frame count, bone id) and its keyframes. Types 3 and 4
 * only. Returns 0, or -1 for a file it cannot read.
 */
static int reference(const uint8_t *data, size_t len, sums *out)
{
    float time = 0, qx = 0, qy = 0, qz = 0, qw = 0, tx = 0, ty = 0, tz = 0;
    uint64_t frames = 0;
    uint32_t animations, a, bones, b, type, count, i;
    size_t at = 36, size;

    if (len < 36 || memcmp(data, "ANP3", 4) != 0) {
        return -1;
    }
    animations = u32_at(data + 32);
    for (a = 0; a < animations; a++) {
        if (len - at < 36) {
            return -1;
        }
        bones = u32_at(data + at + 24);
        at += 36;
        for (b = 0; b < bones; b++) {
            const uint8_t *f;
            if (len - at < 36) {
                return -1;
            }
            type = u32_at(data + at + 24);
            count = u32_at(data + at + 28);
            at += 36;
            size = type == 3 ? 10 : type == 4 ? 16 : 0;
            if (size == 0 || (len - at) / size < count) {
                return -1;
            }
            f = data + at;
            /* Each value is rounded to float before it is added (the temporaries), as the
             * library does; this matters only where float arithmetic is wider (x87). */
            if (type == 4) {
                for (i = 0; i < count; i++, f += 16) {
                    float t = (float)i16_at(f + 8) / 60.0f;
                    float x = (float)i16_at(f) / 4096.0f, y = (float)i16_at(f + 2) / 4096.0f;
                    float z = (float)i16_at(f + 4) / 4096.0f, w = (float)i16_at(f + 6) / 4096.0f;
                    float u = (float)i16_at(f + 10) / 1024.0f;
                    float v = (float)i16_at(f + 12) / 1024.0f;
                    float s = (float)i16_at(f + 14) / 1024.0f;
                    time += t;
                    qx += x;
                    qy += y;
                    qz += z;
                    qw += w;
                    tx += u;
                    ty += v;
                    tz += s;
                }
            } else {
                for (i = 0; i < count; i++, f += 10) {
                    float t = (float)i16_at(f + 8) / 60.0f;
                    float x = (float)i16_at(f) / 4096.0f, y = (float)i16_at(f + 2) / 4096.0f;
                    float z = (float)i16_at(f + 4) / 4096.0f, w = (float)i16_at(f + 6) / 4096.0f;
                    time += t;
                    qx += x;
                    qy += y;
                    qz += z;
                    qw += w;
                }
            }
            frames += count;
            at += (size_t)count * size;
        }
    }
    out->lane[0] = time;
    out->lane[1] = qx;
    out->lane[2] = qy;
    out->lane[3] = qz;
    out->lane[4] = qw;
    out->lane[5] = tx;
    out->lane[6] = ty;
    out->lane[7] = tz;
    out->frames = frames;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* (b), (c) The library. */

/* The same sum over the decoded keyframes (translation is 0 for type 3: adding it changes no
 * sum, as a sum that starts at +0 is never -0). */
static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    sums *s = (sums *)user;
    float time = s->lane[0], qx = s->lane[1], qy = s->lane[2], qz = s->lane[3];
    float qw = s->lane[4], tx = s->lane[5], ty = s->lane[6], tz = s->lane[7];
    size_t i;
    for (i = 0; i < count; i++) {
        const gts_keyframe *k = &frames[i];
        time += k->time;
        qx += k->rotation[0];
        qy += k->rotation[1];
        qz += k->rotation[2];
        qw += k->rotation[3];
        tx += k->translation[0];
        ty += k->translation[1];
        tz += k->translation[2];
    }
    s->lane[0] = time;
    s->lane[1] = qx;
    s->lane[2] = qy;
    s->lane[3] = qz;
    s->lane[4] = qw;
    s->lane[5] = tx;
    s->lane[6] = ty;
    s->lane[7] = tz;
    s->frames += count;
    return GTS_CONTINUE;
}

/* Feeds the buffer in pieces of `piece` bytes, then finishes. Returns 0 or -1 (message
 * printed). */
static int library(const uint8_t *data, size_t len, size_t piece, sums *out)
{
    gts_decoder decoder;
    gts_callbacks callbacks;
    gts_status status;
    size_t at = 0;

    gts_callbacks_init(&callbacks);
    callbacks.on_keyframes = on_keyframes;
    memset(out, 0, sizeof *out);
    status = gts_decoder_init(&decoder, sizeof decoder, &callbacks, out);
    while (status == GTS_OK && at < len) {
        size_t n = len - at < piece ? len - at : piece;
        size_t consumed = 0;
        status = gts_decoder_feed(&decoder, data + at, n, &consumed);
        at += consumed;
    }
    /* GTS_DONE: the content is complete; what follows (if anything) is trailing data. */
    if (status == GTS_OK || status == GTS_DONE) {
        status = gts_decoder_finish(&decoder);
    }
    if (status != GTS_OK) {
        fprintf(stderr, "bench: gtastream: %s: %s at offset %llu\n", gts_status_name(status),
                gts_status_reason(status),
                (unsigned long long)gts_decoder_error_offset(&decoder));
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The stack depth of the library. */
#if MEASURE_STACK

typedef gts_status (*feed_fn)(gts_decoder *, const uint8_t *, size_t, size_t *);
typedef gts_status (*finish_fn)(gts_decoder *);

/* Stand-ins with the library's signatures, for the baseline. */
static gts_status no_feed(gts_decoder *d, const uint8_t *data, size_t len, size_t *consumed)
{
    (void)d;
    (void)data;
    *consumed = len;
    return GTS_OK;
}

static gts_status no_finish(gts_decoder *d)
{
    (void)d;
    return GTS_OK;
}

typedef struct job {
    const uint8_t *data;
    size_t len, piece;
    gts_decoder *decoder; /* set up by the caller, outside the measured stack */
    feed_fn feed;
    finish_fn finish;
    int failed;
} job;

/* The thread: feeds and finishes through the (volatile, so never inlined) function pointers. */
static void *run_job(void *arg)
{
    job *j = (job *)arg;
    feed_fn volatile feed = j->feed;
    finish_fn volatile finish = j->finish;
    size_t at = 0;
    gts_status status = GTS_OK;
    while (status == GTS_OK && at < j->len) {
        size_t n = j->len - at < j->piece ? j->len - at : j->piece;
        size_t consumed = 0;
        status = feed(j->decoder, j->data + at, n, &consumed);
        at += consumed;
    }
    if (status == GTS_OK || status == GTS_DONE) {
        status = finish(j->decoder);
    }
    j->failed = status != GTS_OK;
    return NULL;
}

#define STACK_SIZE (256 * 1024)
#define PAINT 0xA5

/* Bytes of the thread's painted stack written by `j`, or 0 if it cannot be measured. */
static size_t stack_used(job *j)
{
    unsigned char *stack = (unsigned char *)malloc(STACK_SIZE);
    pthread_attr_t attr;
    pthread_t thread;
    size_t untouched = 0;
    int ok;
    if (stack == NULL) {
        return 0;
    }
    memset(stack, PAINT, STACK_SIZE);
    ok = pthread_attr_init(&attr) == 0 && pthread_attr_setstack(&attr, stack, STACK_SIZE) == 0 &&
         pthread_create(&thread, &attr, run_job, j) == 0;
    if (ok) {
        pthread_join(thread, NULL);
        /* The stack grows down: the lowest byte written marks the depth. */
        while (untouched < STACK_SIZE && stack[untouched] == PAINT) {
            untouched++;
        }
    }
    free(stack);
    return ok ? STACK_SIZE - untouched : 0;
}

/* Stack used by the library, with the callback, below its caller, for pieces of `piece`. */
static size_t library_stack(const uint8_t *data, size_t len, size_t piece, int *failed)
{
    static gts_decoder decoder;
    gts_callbacks callbacks;
    sums s;
    job j;
    size_t with, without;

    gts_callbacks_init(&callbacks);
    callbacks.on_keyframes = on_keyframes;
    memset(&s, 0, sizeof s);
    j.data = data;
    j.len = len;
    j.piece = piece;
    j.decoder = &decoder;
    j.feed = gts_decoder_feed;
    j.finish = gts_decoder_finish;
    j.failed = 1;
    if (gts_decoder_init(&decoder, sizeof decoder, &callbacks, &s) != GTS_OK) {
        *failed = 1;
        return 0;
    }
    with = stack_used(&j);
    *failed |= j.failed;
    j.feed = no_feed;
    j.finish = no_finish;
    without = stack_used(&j);
    return with > without ? with - without : 0;
}
#endif

/* ---------------------------------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The ways measured; piece 0 is the hand-written loop (a), SIZE_MAX the whole buffer. */
static const struct way {
    const char *label;
    size_t piece;
} ways[] = {
    {"(a) hand-written loop, whole buffer", 0},
    {"(b) C API, 4 KiB pieces", 4096},
    {"(c) C API, 1 B pieces", 1},
    {"(c) C API, 64 B pieces", 64},
    {"(c) C API, 64 KiB pieces", 65536},
    {"    C API, whole buffer in one call", (size_t)-1},
};
#define WAYS (sizeof ways / sizeof ways[0])

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t size = 0, capacity = 0, n;
    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        if (size == capacity) {
            uint8_t *bigger;
            capacity = capacity ? capacity * 2 : 1 << 20;
            bigger = (uint8_t *)realloc(data, capacity);
            if (bigger == NULL) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = bigger;
        }
        n = fread(data + size, 1, capacity - size, f);
        if (n == 0) {
            break;
        }
        size += n;
    }
    fclose(f);
    *len = size;
    return data;
}

int main(int argc, char **argv)
{
    static double times[WAYS][101];
    sums expected, got;
    size_t len = 0, w;
    long repeats = 7, r;
    size_t only = 0;
    int failed = 0;
    uint8_t *data;

    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: bench FILE [REPEATS [PIECE]]\n");
        return 2;
    }
    if (argc == 4) {
        only = (size_t)strtoul(argv[3], NULL, 10);
        only = only == 0 ? (size_t)-1 : only;
    }
    if (argc >= 3) {
        repeats = strtol(argv[2], NULL, 10);
        if (repeats < 1 || repeats > 101) {
            fprintf(stderr, "bench: REPEATS must be 1 to 101\n");
            return 2;
        }
    }
    data = read_file(argv[1], &len);
    if (data == NULL) {
        fprintf(stderr, "bench: cannot read %s\n", argv[1]);
        return 1;
    }
    if (reference(data, len, &expected) != 0) {
        fprintf(stderr, "bench: %s: not an ANP3 file of keyframe types 3 and 4\n", argv[1]);
        free(data);
        return 1;
    }

    for (r = 0; r < repeats; r++) {
        for (w = 0; w < WAYS; w++) {
            double start;
            int rc;
            if (only != 0 && w != 0 && ways[w].piece != only) {
                times[w][r] = 0;
                continue;
            }
            start = now_ns();
            rc = ways[w].piece == 0 ? reference(data, len, &got)
                                    : library(data, len, ways[w].piece, &got);
            times[w][r] = now_ns() - start;
            if (rc != 0 || got.frames != expected.frames ||
                memcmp(got.lane, expected.lane, sizeof got.lane) != 0) {
                if (!failed) {
                    fprintf(stderr, "bench: %s: the sums differ from (a)\n", ways[w].label);
                }
                failed = 1;
            }
        }
    }

    printf("input: %s, %lu bytes (%.1f MiB), %llu keyframes\n", argv[1], (unsigned long)len,
           (double)len / (1 << 20), (unsigned long long)expected.frames);
    printf("median of %ld runs each, runs interleaved\n", repeats);
    printf("%-38s %12s %10s %10s\n", "", "ns/keyframe", "MB/s", "vs (a)");
    {
        double base = 0;
        for (w = 0; w < WAYS; w++) {
            double median;
            if (only != 0 && w != 0 && ways[w].piece != only) {
                continue;
            }
            qsort(times[w], (size_t)repeats, sizeof times[w][0], by_value);
            median = repeats % 2 ? times[w][repeats / 2]
                                 : (times[w][repeats / 2 - 1] + times[w][repeats / 2]) / 2;
            if (w == 0) {
                base = median;
            }
            printf("%-38s %12.3f %10.1f %10.3f\n", ways[w].label,
                   median / (double)(expected.frames ? expected.frames : 1),
                   (double)len / median * 1e3, median / base);
        }
    }
    printf("sums: time %.9g, rotation %.9g %.9g %.9g %.9g, translation %.9g %.9g %.9g\n",
           expected.lane[0], expected.lane[1], expected.lane[2], expected.lane[3],
           expected.lane[4], expected.lane[5], expected.lane[6], expected.lane[7]);
    printf("sum bits:");
    for (w = 0; w < LANES; w++) {
        printf(" %08lx", (unsigned long)bits(expected.lane[w]));
    }
    printf("\nsums of every run equal (a): %s\n", failed ? "NO" : "yes");

#if !MEASURE_STACK
    printf("stack: not measured under AddressSanitizer\n");
#else
    if (only == 0) {
        size_t deepest = 0;
        printf("stack below the caller of gts_decoder_feed/finish (library and callback):");
        for (w = 1; w < WAYS; w++) {
            int stack_failed = 0;
            size_t used;
            used = library_stack(data, len, ways[w].piece, &stack_failed);
            failed |= stack_failed;
            deepest = used > deepest ? used : deepest;
            printf(" %lu", (unsigned long)used);
        }
        printf(" bytes (pieces of 4 KiB, 1 B, 64 B, 64 KiB, whole); at most %lu\n",
               (unsigned long)deepest);
    }
#endif
    free(data);
    return failed;
}
