/*
 * Example 2: a decoder in static storage, paused after every animation and resumed.
 *
 *     static_pause FILE
 *
 * A host that works one animation at a time (say, one per frame of a game loop) returns
 * GTS_PAUSE from on_animation_end: gts_decoder_feed returns GTS_PAUSED with the bytes it used,
 * the host does its work, then feeds the rest of the same chunk to resume exactly there.
 * Nothing is allocated: the decoder, the chunk and the per-animation state are static.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gtastream.h"

/* Static storage starts zeroed: not an initialised decoder until gts_decoder_init. */
static gts_decoder decoder;
static uint8_t chunk[4096];

/* What the callbacks gather about the current animation. */
static struct {
    unsigned index;
    char name[64];
    unsigned long bones, keyframes;
    unsigned long done;
} current;

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    size_t n = info->name_len < sizeof current.name - 1 ? info->name_len : sizeof current.name - 1;
    (void)user;
    current.index = info->index;
    memcpy(current.name, info->name, n);
    current.name[n] = '\0';
    current.bones = 0;
    current.keyframes = 0;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info)
{
    (void)user;
    (void)info;
    current.bones++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    (void)user;
    (void)frames;
    current.keyframes += count;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_animation_end(void *user)
{
    (void)user;
    current.done++;
    return GTS_PAUSE; /* hand control back to the host loop */
}

/* The host's work between two animations; the decoder is not in use here, so asking it for
 * its position is allowed (inside a callback it would not be). */
static void animation_ready(void)
{
    printf("animation %u %s: %lu bones, %lu keyframes; paused at offset %llu\n", current.index,
           current.name, current.bones, current.keyframes,
           (unsigned long long)gts_decoder_position(&decoder));
}

int main(int argc, char **argv)
{
    gts_callbacks callbacks;
    gts_status st;
    FILE *in;
    size_t n;

    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }

    /* Use before init is an error, not a crash. */
    st = gts_decoder_feed(&decoder, chunk, sizeof chunk, NULL);
    printf("before init: %s\n", gts_status_name(st));

    gts_callbacks_init(&callbacks);
    callbacks.on_animation = on_animation;
    callbacks.on_bone = on_bone;
    callbacks.on_keyframes = on_keyframes;
    callbacks.on_animation_end = on_animation_end;
    st = gts_decoder_init(&decoder, sizeof decoder, &callbacks, NULL);
    if (st != GTS_OK) {
        fprintf(stderr, "init: %s\n", gts_status_name(st));
        return 1;
    }

    in = fopen(argv[1], "rb");
    if (in == NULL) {
        perror(argv[1]);
        return 1;
    }
    st = GTS_OK;
    while (st == GTS_OK && (n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        size_t off = 0;
        for (;;) {
            size_t used = 0;
            st = gts_decoder_feed(&decoder, chunk + off, n - off, &used);
            off += used;
            if (st == GTS_PAUSED) {
                animation_ready();
                /* Resume with the rest of this chunk, even when it is empty: the decoder may
                 * have work pending that needs no bytes (such as a seek). */
                continue;
            }
            if (st == GTS_SEEK) {
                uint64_t at = gts_decoder_position(&decoder);
                if (at > LONG_MAX || fseek(in, (long)at, SEEK_SET) != 0) {
                    fprintf(stderr, "cannot seek to %llu\n", (unsigned long long)at);
                    fclose(in);
                    return 1;
                }
                st = GTS_OK;
            } else if (st == GTS_DONE) {
                st = GTS_OK;
            }
            break;
        }
    }
    fclose(in);
    if (st == GTS_OK) {
        st = gts_decoder_finish(&decoder);
    }
    if (st != GTS_OK) {
        fprintf(stderr, "error: %s at offset %llu\n", gts_decoder_error_reason(&decoder),
                (unsigned long long)gts_decoder_error_offset(&decoder));
        return 1;
    }
    printf("done: %lu animations\n", current.done);
    return 0;
}
