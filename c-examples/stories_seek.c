/*
 * Example 5: the seek protocol, with fseek, for Liberty City / Vice City Stories .anim files.
 *
 *     stories_seek FILE
 *
 * A Stories file is a memory image whose records point anywhere, backwards too. The file is
 * read in 4 KiB chunks; when the next record lies behind what was fed, gts_decoder_feed returns
 * GTS_SEEK: the rest of the chunk is dropped, and reading goes on from
 * gts_decoder_position(). Prints each animation and bone, and each seek.
 */
#include <limits.h>
#include <stdio.h>

#include "gtastream.h"

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    (void)user;
    printf("animation %u %.*s: %u bones", info->index, (int)info->name_len, info->name,
           info->bone_count);
    if (info->has_duration) {
        printf(", %.4f s", (double)info->duration);
    }
    printf("\n");
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info)
{
    (void)user;
    printf("  bone %u", info->index);
    if (info->has_bone_key) {
        printf(" key %08lx", (unsigned long)info->bone_key);
    }
    if (info->has_bone_id) {
        printf(" id %ld", (long)info->bone_id);
    }
    printf(": %lu keyframes%s\n", (unsigned long)info->frame_count,
           info->has_translation ? ", translation" : "");
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_end(void *user)
{
    (void)user;
    printf("end\n");
    return GTS_CONTINUE;
}

int main(int argc, char **argv)
{
    gts_decoder decoder;
    gts_callbacks callbacks;
    uint8_t chunk[4096];
    unsigned long seeks = 0;
    gts_status st;
    FILE *in;
    size_t n;

    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    in = fopen(argv[1], "rb");
    if (in == NULL) {
        perror(argv[1]);
        return 1;
    }
    gts_callbacks_init(&callbacks);
    callbacks.on_animation = on_animation;
    callbacks.on_bone = on_bone;
    callbacks.on_end = on_end;
    st = gts_decoder_init(&decoder, sizeof decoder, &callbacks, NULL);

    while (st == GTS_OK && (n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        size_t off = 0;
        do {
            size_t used = 0;
            st = gts_decoder_feed(&decoder, chunk + off, n - off, &used);
            off += used;
        } while (st == GTS_PAUSED); /* (no callback here pauses) */
        if (st == GTS_SEEK) {
            uint64_t at = gts_decoder_position(&decoder);
            printf("seek to %llu\n", (unsigned long long)at);
            seeks++;
            if (at > LONG_MAX || fseek(in, (long)at, SEEK_SET) != 0) {
                perror("fseek");
                fclose(in);
                return 1;
            }
            st = GTS_OK;
        } else if (st == GTS_DONE) {
            st = GTS_OK; /* the rest is trailing data: read on, it is skipped */
        }
    }
    fclose(in);
    if (st == GTS_OK) {
        st = gts_decoder_finish(&decoder);
    }
    if (st != GTS_OK) {
        fprintf(stderr, "%s: %s: %s at offset %llu\n", argv[1], gts_status_name(st),
                gts_decoder_error_reason(&decoder),
                (unsigned long long)gts_decoder_error_offset(&decoder));
        return 1;
    }
    printf("seeks: %lu\n", seeks);
    return 0;
}
