/*
 * Test harness (not an example): proves from C that the library allocates nothing.
 *
 * Linked with the static library and -Wl,--wrap=malloc (and calloc, realloc, posix_memalign,
 * aligned_alloc, memalign), every call the library's code makes to the C allocator goes
 * through the counters below. Each file is decoded several ways (chunks of 1 byte, 7 bytes,
 * 4 KiB, whole; pausing after every event) with a decoder on the stack, following seeks.
 *
 *     no_malloc FILE...      prints "FILE: N allocations" per file; exits 1 if any N > 0
 */
#include <stddef.h>
#include <stdio.h>

#include "gtastream.h"

static unsigned long allocations;

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
int __real_posix_memalign(void **p, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void *__real_memalign(size_t align, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
int __wrap_posix_memalign(void **p, size_t align, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);
void *__wrap_memalign(size_t align, size_t size);

void *__wrap_malloc(size_t size)
{
    allocations++;
    return __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    allocations++;
    return __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    allocations++;
    return __real_realloc(p, size);
}

int __wrap_posix_memalign(void **p, size_t align, size_t size)
{
    allocations++;
    return __real_posix_memalign(p, align, size);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    allocations++;
    return __real_aligned_alloc(align, size);
}

void *__wrap_memalign(size_t align, size_t size)
{
    allocations++;
    return __real_memalign(align, size);
}

static uint8_t file[1 << 20];
static unsigned long events;

static int32_t pause_or_go(void)
{
    events++;
    return (events % 2) ? GTS_PAUSE : GTS_CONTINUE;
}

static int32_t GTS_CALL on_file(void *user, const gts_file_info *info)
{
    (void)user;
    (void)info;
    return pause_or_go();
}

static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info)
{
    (void)user;
    (void)info;
    return pause_or_go();
}

static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count)
{
    (void)user;
    (void)frames;
    (void)count;
    return pause_or_go();
}

static int32_t GTS_CALL on_keyframes_raw(void *user, const gts_raw_keyframes *raw)
{
    (void)user;
    (void)raw;
    return GTS_CONTINUE;
}

static int32_t GTS_CALL on_instance(void *user, const gts_ipl_instance *instance)
{
    (void)user;
    (void)instance;
    return pause_or_go();
}

static int32_t GTS_CALL on_warning(void *user, const gts_warning *warning)
{
    (void)user;
    (void)warning;
    return pause_or_go();
}

/* Decodes `len` bytes in chunks of `chunk`, with the seek protocol; returns the final status. */
static gts_status decode(gts_decoder *d, size_t len, size_t chunk)
{
    size_t at = 0;
    while (at < len) {
        size_t end = len - at < chunk ? len : at + chunk;
        gts_status st;
        do {
            size_t used = 0;
            st = gts_decoder_feed(d, file + at, end - at, &used);
            at += used;
        } while (st == GTS_PAUSED);
        if (st == GTS_SEEK) {
            at = (size_t)gts_decoder_position(d);
        } else if (st != GTS_OK && st != GTS_DONE) {
            return st;
        } else {
            at = end;
        }
    }
    return gts_decoder_finish(d);
}

int main(int argc, char **argv)
{
    static const size_t chunks[] = {1, 7, 4096, sizeof file};
    int failed = 0;
    int i;
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        size_t len, c;
        gts_decoder decoder;
        gts_callbacks callbacks;
        if (f == NULL) {
            perror(argv[i]);
            return 2;
        }
        len = fread(file, 1, sizeof file, f);
        fclose(f);

        allocations = 0; /* count from here: the library's calls only */
        gts_callbacks_init(&callbacks);
        callbacks.on_file = on_file;
        callbacks.on_bone = on_bone;
        callbacks.on_keyframes = on_keyframes;
        callbacks.on_keyframes_raw = on_keyframes_raw;
        callbacks.on_instance = on_instance;
        callbacks.on_warning = on_warning;
        gts_decoder_init(&decoder, sizeof decoder, &callbacks, NULL);
        for (c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            gts_decoder_reset(&decoder);
            (void)decode(&decoder, len, chunks[c]);
            (void)gts_decoder_error_reason(&decoder);
        }
        printf("%s: %lu allocations\n", argv[i], allocations);
        failed |= allocations != 0;
    }
    return failed;
}
