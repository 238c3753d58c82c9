/*
 * The C benchmark of issues 7 and 14: gtastream through its C API against a hand-written C loop.
 *
 *     bench FILE [REPEATS [PIECE [CONSUMER]]]
 *
 * FILE is either an ANP3 package whose keyframes are of types 3 and 4, or a San Andreas binary
 * IPL (`bnry`, docs/FORMATS.md section 4, its two sections one after the other). The large
 * inputs come from `cargo run --release --features alloc --example bench_file -- OUT MIB
 * [anp3|bnry]`; see PERFORMANCE.md. The file is read into memory once, then decoded in several
 * ways, REPEATS times each (default 7), the ways interleaved so that drift of the machine
 * affects them alike:
 *
 *   (a) a hand-written loop over the whole buffer. ANP3: it converts every keyframe as
 *       docs/FORMATS.md says (quaternion / 4096, time / 60, translation / 1024) and sums every
 *       component. Binary IPL: it reads every field of every instance and car generator and
 *       sums them;
 *   (b) gtastream through the C API, fed 4 KiB pieces of the buffer, with callbacks
 *       (on_keyframes; on_instance and on_car) doing the same sum;
 *   (c) the same with 1, 16, 64 and 256-byte and 64 KiB pieces, and the whole buffer in one
 *       call.
 *
 * Each way runs with two consumers, each a table of its own:
 *
 *   eight sums       ANP3: one float sum per component (time, rotation x y z w, translation
 *                    x y z). IPL: one float sum per float field (position x y z, rotation
 *                    x y z w, car angle) and one exact integer sum of the integer fields;
 *   one running sum  every value (IPL integers converted to float) added into one float, in
 *                    file order: a chain of dependent additions that the decoder's work can
 *                    hide behind. The ANP3 callback learns from on_bone whether the keyframes
 *                    have a translation, as the loop knows from the frame type.
 *
 * It prints, per consumer and way, the median of the REPEATS times as nanoseconds per keyframe
 * (IPL: per record, instances and cars) and MB/s (10^6 bytes per second of file), and the ratio
 * to (a) of the same consumer; then the sums. Every run's sums must equal those of (a) of the
 * same consumer bit for bit (both add the same float values in the same order): if any
 * differs, or the library reports an error, it says so and exits with 1.
 *
 * Last, the stack depth of decoding: each way of feeding runs again (eight sums) on a thread
 * whose stack is memory this program painted; the deepest byte written, less that of the same
 * thread calling an empty function instead, is what gts_decoder_feed and gts_decoder_finish
 * (with these callbacks) use below their caller. (Not measured under AddressSanitizer.)
 *
 * PIECE (for profiling) runs only (a) and the way with pieces of PIECE bytes (0: whole buffer;
 * `all`: every way), and measures no stack. CONSUMER is `eight`, `one` or `both` (default).
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

/* The float sums of the eight-sums consumer. ANP3: time, rotation x y z w, translation x y z.
 * IPL: position x y z, rotation x y z w, angle. The one-sum consumer uses lane[0] only. */
#define LANES 8

typedef struct sums {
    float lane[LANES];
    uint64_t ints;    /* IPL, eight sums: the integer fields, added modulo 2^64 */
    uint64_t frames;  /* keyframes; IPL: instances */
    uint64_t cars;    /* IPL: car generators */
    int translation;  /* one sum, ANP3: whether the current bone's keyframes have one */
} sums;

/* Whether two runs agree: every sum bit for bit, and the counts. */
static int same_sums(const sums *x, const sums *y)
{
    return memcmp(x->lane, y->lane, sizeof x->lane) == 0 && x->ints == y->ints &&
           x->frames == y->frames && x->cars == y->cars;
}

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
 * ANP3, eight sums (docs/FORMATS.md section 2): a 36-byte file header (magic, size, name[24], animation count),
 * per animation a 36-byte header (name[24], bone count, frameDataSize, flags), per bone a
 * 36-byte header (name[24], frame type, frame count, bone id) and its keyframes. Types 3 and 4
 * only. Returns 0, or -1 for a file it cannot read.
 */
static int anp3_eight(const uint8_t *data, size_t len, sums *out)
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

/* ANP3, one running sum: the same walk; every value is added to one float, in the order of
 * the eight-sums loop (time, rotation x y z w, translation x y z). */
static int anp3_one(const uint8_t *data, size_t len, sums *out)
{
    float sum = 0;
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
            if (type == 4) {
                for (i = 0; i < count; i++, f += 16) {
                    float t = (float)i16_at(f + 8) / 60.0f;
                    float x = (float)i16_at(f) / 4096.0f, y = (float)i16_at(f + 2) / 4096.0f;
                    float z = (float)i16_at(f + 4) / 4096.0f, w = (float)i16_at(f + 6) / 4096.0f;
                    float u = (float)i16_at(f + 10) / 1024.0f;
                    float v = (float)i16_at(f + 12) / 1024.0f;
                    float s = (float)i16_at(f + 14) / 1024.0f;
                    sum += t;
                    sum += x;
                    sum += y;
                    sum += z;
                    sum += w;
                    sum += u;
                    sum += v;
                    sum += s;
                }
            } else {
                for (i = 0; i < count; i++, f += 10) {
                    float t = (float)i16_at(f + 8) / 60.0f;
                    float x = (float)i16_at(f) / 4096.0f, y = (float)i16_at(f + 2) / 4096.0f;
                    float z = (float)i16_at(f + 4) / 4096.0f, w = (float)i16_at(f + 6) / 4096.0f;
                    sum += t;
                    sum += x;
                    sum += y;
                    sum += z;
                    sum += w;
                }
            }
            frames += count;
            at += (size_t)count * size;
        }
    }
    out->lane[0] = sum;
    out->frames = frames;
    return 0;
}

static float f32_at(const uint8_t *p)
{
    uint32_t u = u32_at(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int32_t i32_at(const uint8_t *p)
{
    return (int32_t)u32_at(p);
}

/* A section of a binary IPL: where its records start, how many, of which kind. */
typedef struct ipl_section {
    size_t at;
    uint32_t count;
    int cars;
} ipl_section;

/*
 * Binary IPL (docs/FORMATS.md section 4): the 76-byte header names the offset and count of the
 * instances (40-byte records) and of the car generators (48-byte records); the section at the
 * lower offset is read first. Fills `s` in file order; returns 0, or -1 for a file this loop
 * does not read (a section past the end, or one that starts inside the other: the library
 * would ask for a seek there).
 */
static int ipl_layout(const uint8_t *data, size_t len, ipl_section s[2])
{
    uint64_t end = 76;
    int i;
    if (len < 76 || memcmp(data, "bnry", 4) != 0) {
        return -1;
    }
    s[0].at = u32_at(data + 0x1C);
    s[0].count = u32_at(data + 0x04);
    s[0].cars = 0;
    s[1].at = u32_at(data + 0x3C);
    s[1].count = u32_at(data + 0x14);
    s[1].cars = 1;
    /* An offset means something only when its count is above zero. */
    if (s[0].count == 0 || (s[1].count != 0 && s[1].at < s[0].at)) {
        ipl_section t = s[0];
        s[0] = s[1];
        s[1] = t;
    }
    for (i = 0; i < 2; i++) {
        uint64_t size = (uint64_t)s[i].count * (s[i].cars ? 48 : 40);
        if (s[i].count == 0) {
            continue;
        }
        if (s[i].at < end || s[i].at > len || size > len - s[i].at) {
            return -1;
        }
        end = s[i].at + size;
    }
    return 0;
}

/* Binary IPL, eight sums: one float sum per float field, the integers summed exactly. */
static int ipl_eight(const uint8_t *data, size_t len, sums *out)
{
    float px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0, qw = 0, angle = 0;
    uint64_t ints = 0;
    ipl_section s[2];
    uint32_t i;
    int k;

    if (ipl_layout(data, len, s) != 0) {
        return -1;
    }
    for (k = 0; k < 2; k++) {
        const uint8_t *r = data + s[k].at;
        if (!s[k].cars) {
            for (i = 0; i < s[k].count; i++, r += 40) {
                px += f32_at(r);
                py += f32_at(r + 4);
                pz += f32_at(r + 8);
                qx += f32_at(r + 12);
                qy += f32_at(r + 16);
                qz += f32_at(r + 20);
                qw += f32_at(r + 24);
                ints += (uint64_t)(int64_t)i32_at(r + 28);
                ints += u32_at(r + 32);
                ints += (uint64_t)(int64_t)i32_at(r + 36);
            }
            out->frames = s[k].count;
        } else {
            for (i = 0; i < s[k].count; i++, r += 48) {
                int j;
                px += f32_at(r);
                py += f32_at(r + 4);
                pz += f32_at(r + 8);
                angle += f32_at(r + 12);
                for (j = 16; j < 48; j += 4) {
                    ints += (uint64_t)(int64_t)i32_at(r + j);
                }
            }
            out->cars = s[k].count;
        }
    }
    out->lane[0] = px;
    out->lane[1] = py;
    out->lane[2] = pz;
    out->lane[3] = qx;
    out->lane[4] = qy;
    out->lane[5] = qz;
    out->lane[6] = qw;
    out->lane[7] = angle;
    out->ints = ints;
    return 0;
}

/* Binary IPL, one running sum: every field, in record order, the integers as float. */
static int ipl_one(const uint8_t *data, size_t len, sums *out)
{
    float sum = 0;
    ipl_section s[2];
    uint32_t i;
    int k;

    if (ipl_layout(data, len, s) != 0) {
        return -1;
    }
    for (k = 0; k < 2; k++) {
        const uint8_t *r = data + s[k].at;
        if (!s[k].cars) {
            for (i = 0; i < s[k].count; i++, r += 40) {
                int j;
                for (j = 0; j < 28; j += 4) {
                    sum += f32_at(r + j);
                }
                sum += (float)i32_at(r + 28);
                sum += (float)u32_at(r + 32);
                sum += (float)i32_at(r + 36);
            }
            out->frames = s[k].count;
        } else {
            for (i = 0; i < s[k].count; i++, r += 48) {
                int j;
                for (j = 0; j < 16; j += 4) {
                    sum += f32_at(r + j);
                }
                for (j = 16; j < 48; j += 4) {
                    sum += (float)i32_at(r + j);
                }
            }
            out->cars = s[k].count;
        }
    }
    out->lane[0] = sum;
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

/* One running sum: whether the bone's keyframes carry a translation. Added zeros would not
 * change the sum either, but they would lengthen its chain of dependent additions. */
static int32_t on_bone_one(void *user, const gts_bone_info *info)
{
    ((sums *)user)->translation = info->has_translation;
    return GTS_CONTINUE;
}

static int32_t on_keyframes_one(void *user, const gts_keyframe *frames, size_t count)
{
    sums *s = (sums *)user;
    float sum = s->lane[0];
    size_t i;
    if (s->translation) {
        for (i = 0; i < count; i++) {
            const gts_keyframe *k = &frames[i];
            sum += k->time;
            sum += k->rotation[0];
            sum += k->rotation[1];
            sum += k->rotation[2];
            sum += k->rotation[3];
            sum += k->translation[0];
            sum += k->translation[1];
            sum += k->translation[2];
        }
    } else {
        for (i = 0; i < count; i++) {
            const gts_keyframe *k = &frames[i];
            sum += k->time;
            sum += k->rotation[0];
            sum += k->rotation[1];
            sum += k->rotation[2];
            sum += k->rotation[3];
        }
    }
    s->lane[0] = sum;
    s->frames += count;
    return GTS_CONTINUE;
}

static int32_t on_instance(void *user, const gts_ipl_instance *r)
{
    sums *s = (sums *)user;
    s->lane[0] += r->position[0];
    s->lane[1] += r->position[1];
    s->lane[2] += r->position[2];
    s->lane[3] += r->rotation[0];
    s->lane[4] += r->rotation[1];
    s->lane[5] += r->rotation[2];
    s->lane[6] += r->rotation[3];
    s->ints += (uint64_t)(int64_t)r->model_id;
    s->ints += r->interior;
    s->ints += (uint64_t)(int64_t)r->lod;
    s->frames++;
    return GTS_CONTINUE;
}

static int32_t on_car(void *user, const gts_ipl_car *r)
{
    sums *s = (sums *)user;
    s->lane[0] += r->position[0];
    s->lane[1] += r->position[1];
    s->lane[2] += r->position[2];
    s->lane[7] += r->angle;
    s->ints += (uint64_t)(int64_t)r->model_id;
    s->ints += (uint64_t)(int64_t)r->primary_color;
    s->ints += (uint64_t)(int64_t)r->secondary_color;
    s->ints += (uint64_t)(int64_t)r->flags;
    s->ints += (uint64_t)(int64_t)r->alarm_chance;
    s->ints += (uint64_t)(int64_t)r->door_lock_chance;
    s->ints += (uint64_t)(int64_t)r->min_delay;
    s->ints += (uint64_t)(int64_t)r->max_delay;
    s->cars++;
    return GTS_CONTINUE;
}

static int32_t on_instance_one(void *user, const gts_ipl_instance *r)
{
    sums *s = (sums *)user;
    float sum = s->lane[0];
    sum += r->position[0];
    sum += r->position[1];
    sum += r->position[2];
    sum += r->rotation[0];
    sum += r->rotation[1];
    sum += r->rotation[2];
    sum += r->rotation[3];
    sum += (float)r->model_id;
    sum += (float)r->interior;
    sum += (float)r->lod;
    s->lane[0] = sum;
    s->frames++;
    return GTS_CONTINUE;
}

static int32_t on_car_one(void *user, const gts_ipl_car *r)
{
    sums *s = (sums *)user;
    float sum = s->lane[0];
    sum += r->position[0];
    sum += r->position[1];
    sum += r->position[2];
    sum += r->angle;
    sum += (float)r->model_id;
    sum += (float)r->primary_color;
    sum += (float)r->secondary_color;
    sum += (float)r->flags;
    sum += (float)r->alarm_chance;
    sum += (float)r->door_lock_chance;
    sum += (float)r->min_delay;
    sum += (float)r->max_delay;
    s->lane[0] = sum;
    s->cars++;
    return GTS_CONTINUE;
}

/* A consumer: its hand-written loop and its callbacks, per format. */
typedef struct consumer {
    const char *name;
    int (*loop)(const uint8_t *data, size_t len, sums *out);
    void (*install)(gts_callbacks *callbacks);
} consumer;

static void anp3_eight_callbacks(gts_callbacks *c)
{
    c->on_keyframes = on_keyframes;
}

static void anp3_one_callbacks(gts_callbacks *c)
{
    c->on_bone = on_bone_one;
    c->on_keyframes = on_keyframes_one;
}

static void ipl_eight_callbacks(gts_callbacks *c)
{
    c->on_instance = on_instance;
    c->on_car = on_car;
}

static void ipl_one_callbacks(gts_callbacks *c)
{
    c->on_instance = on_instance_one;
    c->on_car = on_car_one;
}

#define CONSUMERS 2
static const consumer anp3_consumers[CONSUMERS] = {
    {"eight sums", anp3_eight, anp3_eight_callbacks},
    {"one running sum", anp3_one, anp3_one_callbacks},
};
static const consumer ipl_consumers[CONSUMERS] = {
    {"eight sums", ipl_eight, ipl_eight_callbacks},
    {"one running sum", ipl_one, ipl_one_callbacks},
};

/* Feeds the buffer in pieces of `piece` bytes, then finishes. Returns 0 or -1 (message
 * printed). */
static int library(const uint8_t *data, size_t len, size_t piece, const consumer *c, sums *out)
{
    gts_decoder decoder;
    gts_callbacks callbacks;
    gts_status status;
    size_t at = 0;

    gts_callbacks_init(&callbacks);
    c->install(&callbacks);
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

/* Stack used by the library, with the callbacks of `c`, below its caller, for pieces of
 * `piece`. */
static size_t library_stack(const uint8_t *data, size_t len, size_t piece, const consumer *c,
                            int *failed)
{
    static gts_decoder decoder;
    gts_callbacks callbacks;
    sums s;
    job j;
    size_t with, without;

    gts_callbacks_init(&callbacks);
    c->install(&callbacks);
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
    {"(c) C API, 16 B pieces", 16},
    {"(c) C API, 64 B pieces", 64},
    {"(c) C API, 256 B pieces", 256},
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

/* The sums of one consumer, as (a) found them. */
static void print_sums(int ipl, int consumer, const sums *s)
{
    size_t i;
    if (consumer == 1) {
        printf("one sum: %.9g, bits %08lx\n", s->lane[0], (unsigned long)bits(s->lane[0]));
        return;
    }
    if (ipl) {
        printf("sums: position %.9g %.9g %.9g, rotation %.9g %.9g %.9g %.9g, angle %.9g, "
               "integers %llu\n",
               s->lane[0], s->lane[1], s->lane[2], s->lane[3], s->lane[4], s->lane[5],
               s->lane[6], s->lane[7], (unsigned long long)s->ints);
    } else {
        printf("sums: time %.9g, rotation %.9g %.9g %.9g %.9g, translation %.9g %.9g %.9g\n",
               s->lane[0], s->lane[1], s->lane[2], s->lane[3], s->lane[4], s->lane[5],
               s->lane[6], s->lane[7]);
    }
    printf("sum bits:");
    for (i = 0; i < LANES; i++) {
        printf(" %08lx", (unsigned long)bits(s->lane[i]));
    }
    printf("\n");
}

static int usage(void)
{
    fprintf(stderr, "usage: bench FILE [REPEATS [PIECE [CONSUMER]]]\n"
                    "  PIECE: bytes, 0 (whole buffer) or all; CONSUMER: eight, one or both\n");
    return 2;
}

int main(int argc, char **argv)
{
    static double times[CONSUMERS][WAYS][101];
    sums expected[CONSUMERS], got;
    const consumer *consumers;
    uint64_t items;
    size_t len = 0, w;
    long repeats = 7, r;
    size_t only = 0;
    int first = 0, last = CONSUMERS - 1, c, ipl, failed = 0;
    uint8_t *data;

    if (argc < 2 || argc > 5) {
        return usage();
    }
    if (argc == 5) {
        if (strcmp(argv[4], "eight") == 0) {
            last = 0;
        } else if (strcmp(argv[4], "one") == 0) {
            first = 1;
        } else if (strcmp(argv[4], "both") != 0) {
            return usage();
        }
    }
    if (argc >= 4 && strcmp(argv[3], "all") != 0) {
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
    ipl = len >= 4 && memcmp(data, "bnry", 4) == 0;
    consumers = ipl ? ipl_consumers : anp3_consumers;
    for (c = 0; c < CONSUMERS; c++) {
        memset(&expected[c], 0, sizeof expected[c]);
        if (consumers[c].loop(data, len, &expected[c]) != 0) {
            if (ipl) {
                fprintf(stderr, "bench: %s: a binary IPL whose sections this benchmark cannot "
                                "read (past the end, or one inside the other)\n",
                        argv[1]);
            } else {
                fprintf(stderr,
                        "bench: %s: not an ANP3 file of keyframe types 3 and 4, nor a "
                        "binary IPL\n",
                        argv[1]);
            }
            free(data);
            return 1;
        }
    }

    for (r = 0; r < repeats; r++) {
        for (c = first; c <= last; c++) {
            for (w = 0; w < WAYS; w++) {
                double start;
                int rc;
                if (only != 0 && w != 0 && ways[w].piece != only) {
                    times[c][w][r] = 0;
                    continue;
                }
                memset(&got, 0, sizeof got);
                start = now_ns();
                rc = ways[w].piece == 0
                         ? consumers[c].loop(data, len, &got)
                         : library(data, len, ways[w].piece, &consumers[c], &got);
                times[c][w][r] = now_ns() - start;
                if (rc != 0 || !same_sums(&got, &expected[c])) {
                    if (!failed) {
                        fprintf(stderr, "bench: %s, %s: the sums differ from (a)\n",
                                consumers[c].name, ways[w].label);
                    }
                    failed = 1;
                }
            }
        }
    }

    items = expected[0].frames + expected[0].cars;
    if (ipl) {
        printf("input: %s, %lu bytes (%.1f MiB), binary IPL: %llu instances, %llu cars, "
               "%llu records\n",
               argv[1], (unsigned long)len, (double)len / (1 << 20),
               (unsigned long long)expected[0].frames, (unsigned long long)expected[0].cars,
               (unsigned long long)items);
    } else {
        printf("input: %s, %lu bytes (%.1f MiB), %llu keyframes\n", argv[1], (unsigned long)len,
               (double)len / (1 << 20), (unsigned long long)items);
    }
    printf("median of %ld runs each, runs interleaved\n", repeats);
    for (c = first; c <= last; c++) {
        double base = 0;
        printf("consumer: %s\n", consumers[c].name);
        printf("%-38s %12s %10s %10s\n", "", ipl ? "ns/record" : "ns/keyframe", "MB/s",
               "vs (a)");
        for (w = 0; w < WAYS; w++) {
            double median;
            if (only != 0 && w != 0 && ways[w].piece != only) {
                continue;
            }
            qsort(times[c][w], (size_t)repeats, sizeof times[c][w][0], by_value);
            median = repeats % 2 ? times[c][w][repeats / 2]
                                 : (times[c][w][repeats / 2 - 1] + times[c][w][repeats / 2]) / 2;
            if (w == 0) {
                base = median;
            }
            printf("%-38s %12.3f %10.1f %10.3f\n", ways[w].label,
                   median / (double)(items ? items : 1), (double)len / median * 1e3,
                   median / base);
        }
        print_sums(ipl, c, &expected[c]);
    }
    printf("sums of every run equal (a): %s\n", failed ? "NO" : "yes");

#if !MEASURE_STACK
    printf("stack: not measured under AddressSanitizer\n");
#else
    if (only == 0) {
        size_t deepest = 0;
        printf("stack below the caller of gts_decoder_feed/finish (library and callback):");
        for (w = 1; w < WAYS; w++) {
            int stack_failed = 0;
            size_t used;
            used = library_stack(data, len, ways[w].piece, &consumers[first], &stack_failed);
            failed |= stack_failed;
            deepest = used > deepest ? used : deepest;
            printf(" %lu", (unsigned long)used);
        }
        printf(" bytes (pieces of 4 KiB, 1 B, 16 B, 64 B, 256 B, 64 KiB, whole); at most %lu\n",
               (unsigned long)deepest);
    }
#endif
    free(data);
    return failed;
}
