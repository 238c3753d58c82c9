/*
 * Example 1: decode a file read in 4 KiB chunks and print a summary.
 *
 *     summary FILE     decode FILE (seeking where the format needs it)
 *     summary -        decode standard input (which cannot seek)
 *
 * Works for every format the library reads. The decoder lives on the stack; the only buffer is
 * the 4 KiB chunk. Prints counts on stdout; exits 1 with a message on stderr if the file does
 * not decode.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gtastream.h"

typedef struct summary {
    char format[8];
    char name[64];
    int has_name;
    unsigned long animations, bones, keyframes, instances, cars, lines, warnings;
} summary;

/* Names arrive as pointer + length, valid during the call only: copy what is kept. */
static void copy_name(char *to, size_t size, const char *from, size_t len)
{
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(to, from, n);
    to[n] = '\0';
}

static int32_t GTS_CALL on_file(void *user, const gts_file_info *info)
{
    summary *s = (summary *)user;
    copy_name(s->format, sizeof s->format, info->format_name, strlen(info->format_name));
    s->has_name = info->has_name;
    if (info->has_name) {
        copy_name(s->name, sizeof s->name, info->name, info->name_len);
    }
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    (void)info;
    ((summary *)user)->animations++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info)
{
    (void)info;
    ((summary *)user)->bones++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    (void)frames;
    ((summary *)user)->keyframes += count;
    return GTS_CONTINUE;
}

/* Every record kind comes through this one callback: `record` points to the struct of `kind`
 * (gts_record_instance, gts_record_car, ...). */
static int32_t GTS_CALL on_record(void *user, gts_record_kind kind, const void *record)
{
    summary *s = (summary *)user;
    switch (kind) {
    case GTS_RECORD_INSTANCE:
        /* The fields are the struct's: ((const gts_record_instance *)record)->model_id, ... */
        (void)((const gts_record_instance *)record)->model_id;
        s->instances++;
        break;
    case GTS_RECORD_CAR:
        s->cars++;
        break;
    case GTS_RECORD_SECTION_LINE:
        s->lines++;
        break;
    default: /* the DFF kinds, and kinds a later library adds */
        break;
    }
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_warning(void *user, const gts_warning *warning)
{
    ((summary *)user)->warnings++;
    printf("warning: %s at offset %llu\n", warning->reason, (unsigned long long)warning->offset);
    return GTS_CONTINUE;
}

/* Feeds the whole input, 4 KiB at a time, and finishes. Returns GTS_OK or the error. */
static gts_status decode(gts_decoder *d, FILE *in, int can_seek)
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
                continue; /* (no callback here pauses) resume with the rest, even if empty */
            }
            if (st == GTS_SEEK) {
                /* The next record lies behind: read on from the offset the decoder names. */
                uint64_t at = gts_decoder_position(d);
                if (!can_seek || at > LONG_MAX || fseek(in, (long)at, SEEK_SET) != 0) {
                    return GTS_ERR_SEEK_REQUIRED;
                }
                break;
            }
            if (st == GTS_OK || st == GTS_DONE) {
                /* After GTS_DONE the rest is trailing data; feeding it on reports stale bytes. */
                break;
            }
            return st; /* an error */
        }
    }
    if (ferror(in)) {
        perror("read");
        return GTS_ERR_TRUNCATED;
    }
    return gts_decoder_finish(d);
}

int main(int argc, char **argv)
{
    gts_decoder decoder; /* on the stack: no allocation anywhere */
    gts_callbacks callbacks;
    summary s;
    FILE *in;
    int from_stdin;
    gts_status st;

    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE|-\n", argv[0]);
        return 2;
    }
    from_stdin = strcmp(argv[1], "-") == 0;
    in = from_stdin ? stdin : fopen(argv[1], "rb");
    if (in == NULL) {
        perror(argv[1]);
        return 1;
    }

    memset(&s, 0, sizeof s);
    gts_callbacks_init(&callbacks);
    callbacks.on_file = on_file;
    callbacks.on_animation = on_animation;
    callbacks.on_bone = on_bone;
    callbacks.on_keyframes = on_keyframes;
    callbacks.on_record = on_record;
    callbacks.on_warning = on_warning;

    st = gts_decoder_init(&decoder, sizeof decoder, &callbacks, &s);
    if (st == GTS_OK && from_stdin) {
        /* A pipe cannot seek: a record behind becomes an error naming its offset. */
        st = gts_decoder_set_seekable(&decoder, false);
    }
    if (st == GTS_OK) {
        st = decode(&decoder, in, !from_stdin);
    }
    if (!from_stdin) {
        fclose(in);
    }
    if (st != GTS_OK) {
        uint64_t at = gts_decoder_error_offset(&decoder);
        fprintf(stderr, "summary: %s: %s: %s", argv[1], gts_status_name(st),
                gts_status_reason(st));
        if (at != GTS_NO_OFFSET) {
            fprintf(stderr, " at offset %llu", (unsigned long long)at);
        }
        if (gts_decoder_line(&decoder) > 0) {
            fprintf(stderr, " (line %lu)", (unsigned long)gts_decoder_line(&decoder));
        }
        fprintf(stderr, "\n");
        return 1;
    }

    printf("format: %s\n", s.format);
    printf("name: %s\n", s.has_name ? s.name : "-");
    printf("animations: %lu\n", s.animations);
    printf("bones: %lu\n", s.bones);
    printf("keyframes: %lu\n", s.keyframes);
    printf("instances: %lu\n", s.instances);
    printf("cars: %lu\n", s.cars);
    printf("section lines: %lu\n", s.lines);
    printf("warnings: %lu\n", s.warnings);
    return 0;
}
