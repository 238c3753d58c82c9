/*
 * one_call: a whole file decoded in one call, twice.
 *
 *   one_call FILE    FILE read into memory and decoded with gts_decode_buffer, then read again
 *                    through stdio callbacks with gts_decode_io (a 256-byte buffer, pausing after
 *                    every animation and resuming)
 *   one_call -       standard input through gts_decode_io without a seek function (a stream)
 *
 * Prints the library's version (checked against the header's macros) and what each way saw.
 * Exit code 0, or 1 if a way failed (the error is printed), 2 for a usage or system error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtastream.h"

typedef struct counts {
    const char *format;
    unsigned long animations, bones, keyframes, instances, cars, warnings, pauses;
    int pause_after_animation;
} counts;

static int32_t GTS_CALL on_file(void *user, const gts_file_info *info)
{
    ((counts *)user)->format = info->format_name;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    (void)info;
    ((counts *)user)->animations++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info)
{
    (void)info;
    ((counts *)user)->bones++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    (void)frames;
    ((counts *)user)->keyframes += count;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_animation_end(void *user)
{
    return ((counts *)user)->pause_after_animation ? GTS_PAUSE : GTS_CONTINUE;
}

static int32_t GTS_CALL on_instance(void *user, const gts_ipl_instance *instance)
{
    (void)instance;
    ((counts *)user)->instances++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_car(void *user, const gts_ipl_car *car)
{
    (void)car;
    ((counts *)user)->cars++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_warning(void *user, const gts_warning *warning)
{
    (void)warning;
    ((counts *)user)->warnings++;
    return GTS_CONTINUE;
}

static ptrdiff_t GTS_CALL read_stdio(void *io, uint8_t *buffer, size_t capacity)
{
    FILE *f = (FILE *)io;
    size_t n = fread(buffer, 1, capacity, f);
    return n == 0 && ferror(f) ? -1 : (ptrdiff_t)n;
}

static int32_t GTS_CALL seek_stdio(void *io, uint64_t offset)
{
    /* fseek takes a long: larger offsets cannot be reached this way. */
    if (offset > (uint64_t)0x7fffffff) {
        return -1;
    }
    return fseek((FILE *)io, (long)offset, SEEK_SET) == 0 ? 0 : -1;
}

static void init(gts_decoder *d, counts *c)
{
    gts_callbacks cb;
    gts_callbacks_init(&cb);
    cb.on_file = on_file;
    cb.on_animation = on_animation;
    cb.on_bone = on_bone;
    cb.on_keyframes = on_keyframes;
    cb.on_animation_end = on_animation_end;
    cb.on_instance = on_instance;
    cb.on_car = on_car;
    cb.on_warning = on_warning;
    memset(c, 0, sizeof *c);
    c->format = "-";
    if (gts_decoder_init(d, sizeof *d, &cb, c) != GTS_OK) {
        fprintf(stderr, "one_call: gts_decoder_init failed\n");
        exit(2);
    }
}

/* Prints what a way saw; returns 0, or 1 after an error. */
static int report(const char *way, const gts_decoder *d, gts_status st, const counts *c)
{
    if (st != GTS_OK) {
        printf("%s: error %s: %s at offset %llu\n", way, gts_status_name(st),
               gts_decoder_error_reason(d), (unsigned long long)gts_decoder_error_offset(d));
        return 1;
    }
    printf("%s: format %s, %lu animations, %lu bones, %lu keyframes, %lu instances, %lu cars, "
           "%lu warnings, %lu pauses\n",
           way, c->format, c->animations, c->bones, c->keyframes, c->instances, c->cars,
           c->warnings, c->pauses);
    return 0;
}

/* gts_decode_io until it stops pausing. */
static gts_status decode_io(gts_decoder *d, FILE *f, int seekable, counts *c)
{
    uint8_t buffer[256];
    gts_status st;
    c->pause_after_animation = 1;
    while ((st = gts_decode_io(d, read_stdio, seekable ? seek_stdio : NULL, f, buffer,
                               sizeof buffer)) == GTS_PAUSED) {
        c->pauses++;
    }
    return st;
}

int main(int argc, char **argv)
{
    gts_decoder d;
    counts c;
    char header_version[32];
    int failed = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: one_call FILE|-\n");
        return 2;
    }
    sprintf(header_version, "%d.%d.%d", GTS_VERSION_MAJOR, GTS_VERSION_MINOR, GTS_VERSION_PATCH);
    if (strcmp(header_version, gts_version()) != 0 || gts_abi_version() != GTS_ABI_VERSION) {
        fprintf(stderr, "one_call: library %s does not match the header %s\n", gts_version(),
                header_version);
        return 2;
    }
    printf("version: %s\n", gts_version());

    if (strcmp(argv[1], "-") == 0) {
        init(&d, &c);
        return report("stream", &d, decode_io(&d, stdin, 0, &c), &c);
    }

    {
        FILE *f = fopen(argv[1], "rb");
        uint8_t *data = NULL;
        long size;
        if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
            fseek(f, 0, SEEK_SET) != 0 || (data = malloc((size_t)size + 1)) == NULL ||
            fread(data, 1, (size_t)size, f) != (size_t)size) {
            fprintf(stderr, "one_call: cannot read %s\n", argv[1]);
            return 2;
        }
        init(&d, &c);
        failed |= report("buffer", &d, gts_decode_buffer(&d, data, (size_t)size), &c);
        free(data);

        rewind(f);
        init(&d, &c);
        failed |= report("io", &d, decode_io(&d, f, 1, &c), &c);
        fclose(f);
    }
    return failed;
}
