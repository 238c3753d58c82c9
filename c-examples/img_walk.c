/*
 * Example 6: every entry of an IMG archive, read with fopen/fseek.
 *
 *     img_walk ARCHIVE.img              San Andreas (VER2)
 *     img_walk ARCHIVE.dir ARCHIVE.img  GTA III / Vice City (a .dir beside the .img)
 *
 * The archive decoder asks for the bytes it wants: gts_archive_input() names the file and
 * gts_archive_position() the offset; GTS_SEEK means "go there" (to an entry, back to the
 * directory, to the other file). Each entry is announced with its name, offset, size and the
 * format found in its first bytes; this program decodes the ones gtastream knows and prints
 * what each held, or why it failed. One broken entry never stops the others.
 */
#include <stdio.h>

#include "gtastream.h"

struct totals {
    unsigned long animations, keyframes, instances, cars, warnings;
    unsigned long decoded, failed;
};

static int32_t GTS_CALL on_archive(void *user, uint32_t version, uint32_t entry_count)
{
    (void)user;
    printf("archive VER%u, %lu entries\n", version, (unsigned long)entry_count);
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_entry(void *user, const gts_archive_entry *entry)
{
    struct totals *t = (struct totals *)user;
    printf("entry %lu %.*s: offset %llu, %llu bytes, %s\n", (unsigned long)entry->index,
           (int)entry->name_len, entry->name, (unsigned long long)entry->offset,
           (unsigned long long)entry->size, entry->has_format ? entry->format_name : "-");
    t->animations = t->keyframes = t->instances = t->cars = t->warnings = 0;
    return entry->has_format ? GTS_ENTRY_DECODE : GTS_ENTRY_SKIP;
}

static int32_t GTS_CALL on_entry_end(void *user, gts_status result, uint64_t error_offset)
{
    struct totals *t = (struct totals *)user;
    if (result == GTS_OK) {
        t->decoded++;
        printf("  %lu animations, %lu keyframes, %lu instances, %lu cars, %lu warnings\n",
               t->animations, t->keyframes, t->instances, t->cars, t->warnings);
    } else {
        t->failed++;
        printf("  failed: %s at offset %llu\n", gts_status_name(result),
               (unsigned long long)error_offset);
    }
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_archive_warning(void *user, const gts_archive_warning *warning)
{
    (void)user;
    printf("warning %s: record at offset %llu (entry %lu)\n", warning->name,
           (unsigned long long)warning->offset, (unsigned long)warning->index);
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info)
{
    (void)info;
    ((struct totals *)user)->animations++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    (void)frames;
    ((struct totals *)user)->keyframes += (unsigned long)count;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_instance(void *user, const gts_ipl_instance *instance)
{
    (void)instance;
    ((struct totals *)user)->instances++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_car(void *user, const gts_ipl_car *car)
{
    (void)car;
    ((struct totals *)user)->cars++;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_warning(void *user, const gts_warning *warning)
{
    (void)warning;
    ((struct totals *)user)->warnings++;
    return GTS_CONTINUE;
}

/* The length of a file, which the archive decoder needs up front. */
static long length_of(FILE *f)
{
    long len;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        return -1;
    }
    return len;
}

int main(int argc, char **argv)
{
    static gts_archive archive; /* static storage: no stack needed for it */
    gts_archive_callbacks archive_callbacks;
    gts_callbacks callbacks;
    static struct totals totals; /* zeroed */
    FILE *files[2] = {NULL, NULL}; /* indexed by GTS_INPUT_DIR, GTS_INPUT_IMG */
    uint8_t chunk[16384];
    gts_status st;
    long img_len, dir_len = 0;

    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s ARCHIVE.img | ARCHIVE.dir ARCHIVE.img\n", argv[0]);
        return 2;
    }
    files[GTS_INPUT_IMG] = fopen(argv[argc - 1], "rb");
    if (files[GTS_INPUT_IMG] == NULL) {
        perror(argv[argc - 1]);
        return 1;
    }
    if (argc == 3 && (files[GTS_INPUT_DIR] = fopen(argv[1], "rb")) == NULL) {
        perror(argv[1]);
        return 1;
    }
    img_len = length_of(files[GTS_INPUT_IMG]);
    if (files[GTS_INPUT_DIR] != NULL) {
        dir_len = length_of(files[GTS_INPUT_DIR]);
    }
    if (img_len < 0 || dir_len < 0) {
        fprintf(stderr, "%s: cannot find the file's length\n", argv[0]);
        return 1;
    }

    gts_archive_callbacks_init(&archive_callbacks);
    archive_callbacks.on_archive = on_archive;
    archive_callbacks.on_entry = on_entry;
    archive_callbacks.on_entry_end = on_entry_end;
    archive_callbacks.on_archive_warning = on_archive_warning;
    gts_callbacks_init(&callbacks);
    callbacks.on_animation = on_animation;
    callbacks.on_keyframes = on_keyframes;
    callbacks.on_instance = on_instance;
    callbacks.on_car = on_car;
    callbacks.on_warning = on_warning;
    if (argc == 3) {
        st = gts_archive_init_v1(&archive, sizeof archive, (uint64_t)dir_len, (uint64_t)img_len,
                                 &archive_callbacks, &callbacks, &totals);
    } else {
        st = gts_archive_init(&archive, sizeof archive, (uint64_t)img_len, &archive_callbacks,
                              &callbacks, &totals);
    }

    while (st == GTS_OK || st == GTS_SEEK || st == GTS_PAUSED) {
        int input = gts_archive_input(&archive);
        FILE *f = input == GTS_INPUT_DIR ? files[GTS_INPUT_DIR] : files[GTS_INPUT_IMG];
        size_t n, off = 0;
        /* Every read starts where the decoder asks: after a seek, and after a chunk that
         * was not all used. (Offsets fit a long: this example reads files under 2 GiB.) */
        if (f == NULL || fseek(f, (long)gts_archive_position(&archive), SEEK_SET) != 0) {
            fprintf(stderr, "%s: cannot seek\n", argv[0]);
            return 1;
        }
        n = fread(chunk, 1, sizeof chunk, f);
        if (n == 0) {
            break; /* end of the file: finish below */
        }
        do {
            size_t used = 0;
            st = gts_archive_feed(&archive, chunk + off, n - off, &used);
            off += used;
        } while (st == GTS_PAUSED);
    }
    if (st == GTS_OK || st == GTS_DONE) {
        st = gts_archive_finish(&archive);
    }
    if (st != GTS_OK) {
        fprintf(stderr, "%s: %s at offset %llu\n", argv[argc - 1], gts_status_name(st),
                (unsigned long long)gts_archive_error_offset(&archive));
        return 1;
    }
    printf("done: %lu decoded, %lu failed\n", totals.decoded, totals.failed);
    fclose(files[GTS_INPUT_IMG]);
    if (files[GTS_INPUT_DIR] != NULL) {
        fclose(files[GTS_INPUT_DIR]);
    }
    return 0;
}
