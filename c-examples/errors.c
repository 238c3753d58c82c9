/*
 * Example 3: error and warning reporting, for damaged or sloppy files.
 *
 *     errors FILE...
 *
 * Each file is read whole into memory and fed in one call (following seeks inside the buffer);
 * one decoder serves all files, reset between them. Warnings (files the games accept but that
 * break their format) are printed as they come; an error stops the file and names its status,
 * reason, byte offset and, for text files, line. Exits 1 if any file failed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gtastream.h"

static int32_t GTS_CALL on_warning(void *user, const gts_warning *warning)
{
    (void)user;
    printf("warning: %s: %s at offset %llu\n", warning->name, warning->reason,
           (unsigned long long)warning->offset);
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    (void)info;
    ++*(unsigned long *)user;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_instance(void *user, const gts_ipl_instance *instance)
{
    (void)instance;
    ++*(unsigned long *)user;
    return GTS_CONTINUE;
}

/* Reads a whole file into a buffer the caller frees. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t cap = 0;
    *len = 0;
    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t n;
        if (*len == cap) {
            uint8_t *grown = (uint8_t *)realloc(data, cap ? 2 * cap : 65536);
            if (grown == NULL) {
                break;
            }
            data = grown;
            cap = cap ? 2 * cap : 65536;
        }
        n = fread(data + *len, 1, cap - *len, f);
        if (n == 0) {
            break;
        }
        *len += n;
    }
    fclose(f);
    return data;
}

/* Feeds a whole buffer, following seeks within it, then finishes. */
static gts_status decode_buffer(gts_decoder *d, const uint8_t *data, size_t len)
{
    size_t at = 0;
    for (;;) {
        size_t used = 0;
        gts_status st = gts_decoder_feed(d, data + at, len - at, &used);
        at += used;
        if (st == GTS_SEEK) {
            uint64_t to = gts_decoder_position(d);
            if (to > len) {
                return gts_decoder_finish(d); /* points past the end: the file is cut */
            }
            at = (size_t)to;
        } else if (st == GTS_OK || st == GTS_DONE) {
            return gts_decoder_finish(d);
        } else if (st != GTS_PAUSED) {
            return st;
        }
    }
}

int main(int argc, char **argv)
{
    gts_decoder decoder;
    gts_callbacks callbacks;
    unsigned long records = 0;
    int failed = 0;
    int i;

    gts_callbacks_init(&callbacks);
    callbacks.on_warning = on_warning;
    callbacks.on_animation = on_animation;
    callbacks.on_instance = on_instance;
    if (gts_decoder_init(&decoder, sizeof decoder, &callbacks, &records) != GTS_OK) {
        return 1;
    }

    for (i = 1; i < argc; i++) {
        size_t len;
        uint8_t *data = read_file(argv[i], &len);
        gts_status st;
        printf("== %s\n", argv[i]);
        if (data == NULL && len == 0) {
            printf("error: cannot read the file\n");
            failed = 1;
            continue;
        }
        records = 0;
        gts_decoder_reset(&decoder); /* the same decoder, ready for a new file */
        st = decode_buffer(&decoder, data, len);
        free(data);
        if (st == GTS_OK) {
            printf("ok: %lu records\n", records);
            continue;
        }
        failed = 1;
        printf("error: %s: %s", gts_status_name(st), gts_decoder_error_reason(&decoder));
        if (gts_decoder_error_offset(&decoder) != GTS_NO_OFFSET) {
            printf(" at offset %llu", (unsigned long long)gts_decoder_error_offset(&decoder));
        }
        if (gts_decoder_line(&decoder) > 0) {
            printf(" (line %lu)", (unsigned long)gts_decoder_line(&decoder));
        }
        /* Where in the file: the animation and bone the error is in, if any. */
        if (gts_decoder_animation(&decoder) != GTS_NO_INDEX) {
            printf(" (animation %lu", (unsigned long)gts_decoder_animation(&decoder));
            if (gts_decoder_bone(&decoder) != GTS_NO_INDEX) {
                printf(", bone %lu", (unsigned long)gts_decoder_bone(&decoder));
            }
            printf(")");
        }
        printf("\n");
        /* Errors are sticky: the decoder answers the same until it is reset. */
        if (gts_decoder_feed(&decoder, NULL, 0, NULL) != st) {
            printf("the error did not stick\n");
        }
    }
    return failed;
}
