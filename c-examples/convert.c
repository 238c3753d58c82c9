/*
 * Example 5: convert an animation file to ANP3 (San Andreas), e.g. a GTA III / Vice City ANPK.
 *
 *     convert IN OUT
 *
 * The decoder's callbacks forward each event to an encoder as it comes: nothing is collected,
 * so memory stays the two fixed structs and a 4 KiB chunk, whatever the file's size. The
 * encoder writes through a sink of two callbacks: one appends, one patches a count or size
 * written earlier (an fseek back). Float keyframes stay floats and packed ones packed; a name
 * too long for ANP3's 24-byte fields is an error, not cut. An ANP3 comes back byte for byte:
 * the infos carry each header as stored, and the bytes after the content are forwarded too. Exits 1 with a message on failure
 * (and removes OUT).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gtastream.h"

typedef struct job {
    gts_encoder encoder;
    gts_status failed; /* the encoder's error that stopped decoding, or GTS_OK */
} job;

/* The sink: append to the FILE, or overwrite earlier bytes and return to the end. */
static int32_t GTS_CALL sink_write(void *user, const uint8_t *bytes, size_t len)
{
    return fwrite(bytes, 1, len, (FILE *)user) == len ? 0 : 1;
}

static int32_t GTS_CALL sink_patch(void *user, uint64_t offset, const uint8_t *bytes, size_t len)
{
    FILE *out = (FILE *)user;
    if (offset > LONG_MAX || fseek(out, (long)offset, SEEK_SET) != 0) {
        return 1;
    }
    if (fwrite(bytes, 1, len, out) != len) {
        return 1;
    }
    return fseek(out, 0, SEEK_END) == 0 ? 0 : 1;
}

/* Each callback forwards its event; an encoder error aborts the decoder. */
static int32_t forward(job *j, gts_status st)
{
    if (st != GTS_OK) {
        j->failed = st;
        return GTS_ABORT;
    }
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_file(void *user, const gts_file_info *info)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_file(&j->encoder, info));
}

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_animation(&j->encoder, info));
}

static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_bone(&j->encoder, info));
}

static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_keyframes(&j->encoder, frames, count));
}

static int32_t GTS_CALL on_bone_end(void *user)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_bone_end(&j->encoder));
}

static int32_t GTS_CALL on_animation_end(void *user)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_animation_end(&j->encoder));
}

static int32_t GTS_CALL on_trailing(void *user, const uint8_t *bytes, size_t len)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_trailing(&j->encoder, bytes, len));
}

static int32_t GTS_CALL on_end(void *user)
{
    job *j = (job *)user;
    return forward(j, gts_encoder_end(&j->encoder));
}

/* Feeds the whole input, 4 KiB at a time (seeking where the decoder asks), and finishes. */
static gts_status decode(gts_decoder *d, FILE *in)
{
    uint8_t chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        size_t off = 0;
        for (;;) {
            size_t used = 0;
            gts_status st = gts_decoder_feed(d, chunk + off, n - off, &used);
            off += used;
            if (st == GTS_PAUSED) {
                continue;
            }
            if (st == GTS_SEEK) {
                uint64_t at = gts_decoder_position(d);
                if (at > LONG_MAX || fseek(in, (long)at, SEEK_SET) != 0) {
                    return GTS_ERR_SEEK_REQUIRED;
                }
                break;
            }
            if (st == GTS_OK || st == GTS_DONE) {
                break;
            }
            return st;
        }
    }
    return gts_decoder_finish(d);
}

int main(int argc, char **argv)
{
    gts_decoder decoder;
    gts_callbacks callbacks;
    gts_sink sink;
    gts_warning warning;
    job j;
    FILE *in, *out;
    gts_status st;

    if (argc != 3) {
        fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
        return 2;
    }
    in = fopen(argv[1], "rb");
    if (in == NULL) {
        perror(argv[1]);
        return 1;
    }
    out = fopen(argv[2], "w+b");
    if (out == NULL) {
        perror(argv[2]);
        fclose(in);
        return 1;
    }

    sink.write = sink_write;
    sink.patch = sink_patch;
    sink.user = out;
    j.failed = GTS_OK;
    st = gts_encoder_init(&j.encoder, sizeof j.encoder, GTS_FORMAT_ANP3, &sink, 0);
    if (st == GTS_OK) {
        gts_callbacks_init(&callbacks);
        callbacks.on_file = on_file;
        callbacks.on_animation = on_animation;
        callbacks.on_bone = on_bone;
        callbacks.on_keyframes = on_keyframes;
        callbacks.on_bone_end = on_bone_end;
        callbacks.on_animation_end = on_animation_end;
        callbacks.on_trailing = on_trailing;
        callbacks.on_end = on_end;
        st = gts_decoder_init(&decoder, sizeof decoder, &callbacks, &j);
    }
    if (st == GTS_OK) {
        st = decode(&decoder, in);
        if (st == GTS_ERR_ABORTED && j.failed != GTS_OK) {
            st = j.failed; /* the encoder's reason, not the abort it caused */
        }
    }
    fclose(in);
    if (fclose(out) != 0 && st == GTS_OK) {
        st = GTS_ERR_WRITE;
    }
    if (st != GTS_OK) {
        fprintf(stderr, "convert: %s: %s: %s\n", argv[1], gts_status_name(st),
                gts_status_reason(st));
        remove(argv[2]);
        return 1;
    }
    if (gts_encoder_warnings(&j.encoder, &warning) > 0) {
        fprintf(stderr, "convert: %s: warning: %s\n", argv[1], warning.reason);
    }
    printf("%s: %llu bytes of ANP3\n", argv[2], (unsigned long long)gts_encoder_written(&j.encoder));
    return 0;
}
