/*
 * check_folder: a game or mod folder checked as the game loads it (gtastream check DIR), with
 * gts_mod_check over the host's own file functions: fopen/fseek/fread on a real directory,
 * each path component matched in any case (opendir/readdir), as the games on Windows find
 * `DATA\MAPS\LA\LAE.IDE` in `data/maps/la/LAe.ide`.
 *
 *   check_folder DIR    DIR checked for the game whose level file it has (GTS_GAME_AUTO)
 *
 * Prints one line per finding, "PATH[:ENTRY][:LINE]: LEVEL RULE: MESSAGE" (PATH as the level
 * file writes it, "; other file: PATH" when a second file is involved) as the walk finds it,
 * then one per file that could not be read ("PATH: not read: REASON"), and the summary ("GAME: N files, M archive
 * entries, E errors: loads" or "fails"). Exit code 0 if the game loads the folder, 1 if a
 * finding is an error, 2 for a usage or system error. The library allocates nothing: the
 * tables are this program's (malloc), and so are the paths it keeps.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gtastream.h"

#define MAX_PATH_BYTES 4096

/* The folder, and the path of every file the walk numbered (findings name files by number). */
typedef struct {
    uint32_t file;
    char *reason;
} unreadable_file;

/* The folder, the path of every file the walk numbered (findings name files by number), and
 * the files not read (listed after the findings, as `gtastream check DIR` lists them). */
typedef struct {
    const char *root;
    char **paths;
    size_t count;
    size_t capacity;
    unreadable_file *unreadable;
    size_t unreadable_count;
    size_t unreadable_capacity;
    int failed; /* out of memory */
} walk_state;

/* Makes room for one more item in `*items` (`count` of `capacity`, `size` bytes each). */
static int grow(void **items, size_t count, size_t *capacity, size_t size)
{
    void *more;
    size_t wanted;
    if (count < *capacity) {
        return 1;
    }
    wanted = *capacity ? *capacity * 2 : 16;
    more = realloc(*items, wanted * size);
    if (!more) {
        return 0;
    }
    *items = more;
    *capacity = wanted;
    return 1;
}

static char *copy_of(const char *text, size_t len)
{
    char *copy = (char *)malloc(len + 1);
    if (copy) {
        memcpy(copy, text, len);
        copy[len] = '\0';
    }
    return copy;
}

static int same_ignoring_case(const char *a, const char *b, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') {
            x = (unsigned char)(x - 'A' + 'a');
        }
        if (y >= 'A' && y <= 'Z') {
            y = (unsigned char)(y - 'A' + 'a');
        }
        if (x != y) {
            return 0;
        }
    }
    return 1;
}

/*
 * Appends to `at` (a directory path of `*used` bytes) the entry of that directory named
 * `part` (`len` bytes) in any case, the exact spelling first. 0 if there is none.
 */
static int find_entry(char *at, size_t *used, const char *part, size_t len)
{
    DIR *dir = opendir(at);
    struct dirent *entry;
    char found[MAX_PATH_BYTES];
    int have = 0;
    size_t name_len;
    if (!dir) {
        return 0;
    }
    while ((entry = readdir(dir)) != NULL) {
        name_len = strlen(entry->d_name);
        if (name_len != len || name_len >= sizeof found) {
            continue;
        }
        if (memcmp(entry->d_name, part, len) == 0) {
            memcpy(found, entry->d_name, len + 1);
            have = 1;
            break;
        }
        if (!have && same_ignoring_case(entry->d_name, part, len)) {
            memcpy(found, entry->d_name, len + 1);
            have = 1;
        }
    }
    closedir(dir);
    if (!have || *used + 1 + len >= MAX_PATH_BYTES) {
        return 0;
    }
    at[(*used)++] = '/';
    memcpy(at + *used, found, len + 1);
    *used += len;
    return 1;
}

/* gts_mod_files.open: `path` (either slash, any case) under the folder; NULL if absent. */
static void *GTS_CALL open_file(void *user, const char *path, size_t len)
{
    const walk_state *state = (const walk_state *)user;
    char at[MAX_PATH_BYTES];
    size_t used = strlen(state->root);
    size_t start = 0;
    struct stat info;
    if (used >= sizeof at) {
        return NULL;
    }
    memcpy(at, state->root, used + 1);
    while (start < len) {
        size_t end = start;
        while (end < len && path[end] != '/' && path[end] != '\\') {
            end++;
        }
        /* Empty components and "." stay where they are. */
        if (end > start && !(end - start == 1 && path[start] == '.') &&
            !find_entry(at, &used, path + start, end - start)) {
            return NULL;
        }
        start = end + 1;
    }
    if (stat(at, &info) != 0 || !S_ISREG(info.st_mode)) {
        return NULL;
    }
    return fopen(at, "rb");
}

static int GTS_CALL file_length(void *user, void *file, uint64_t *length)
{
    long end;
    (void)user;
    if (fseek((FILE *)file, 0, SEEK_END) != 0 || (end = ftell((FILE *)file)) < 0) {
        return 1;
    }
    *length = (uint64_t)end;
    return 0;
}

static int GTS_CALL read_at(void *user, void *file, uint64_t offset, uint8_t *buffer, size_t len,
                            size_t *bytes_read)
{
    (void)user;
    /* fseek takes a long: past it, a read error (the test folders are small). */
    if (offset > 0x7fffffffu || fseek((FILE *)file, (long)offset, SEEK_SET) != 0) {
        return 1;
    }
    *bytes_read = fread(buffer, 1, len, (FILE *)file);
    return ferror((FILE *)file) ? 2 : 0;
}

static void GTS_CALL close_file(void *user, void *file)
{
    (void)user;
    fclose((FILE *)file);
}

static void GTS_CALL on_file(void *user, uint32_t file, const char *path, size_t len)
{
    walk_state *state = (walk_state *)user;
    void *paths = state->paths;
    char *copy;
    if (state->failed || file != state->count) {
        return;
    }
    if (!grow(&paths, state->count, &state->capacity, sizeof *state->paths)) {
        state->failed = 1;
        return;
    }
    state->paths = (char **)paths;
    copy = copy_of(path, len);
    if (!copy) {
        state->failed = 1;
        return;
    }
    state->paths[state->count++] = copy;
}

static const char *path_of(const walk_state *state, uint32_t file)
{
    return file < state->count ? state->paths[file] : "?";
}

static const char *level_name(int level)
{
    switch (level) {
    case GTS_LEVEL_ERROR:
        return "error";
    case GTS_LEVEL_WARNING:
        return "warning";
    default:
        return "note";
    }
}

static void GTS_CALL on_finding(void *user, const gts_mod_finding *found)
{
    const walk_state *state = (const walk_state *)user;
    const gts_finding *finding = &found->finding;
    gts_rule rule;
    if (gts_rule_info(finding->rule, &rule) != GTS_OK) {
        return;
    }
    printf("%s", path_of(state, found->file));
    if (finding->entry) {
        printf(":%s", finding->entry);
    }
    if (finding->line > 0) {
        printf(":%lu", (unsigned long)finding->line);
    }
    printf(": %s %s: %s", level_name(finding->level), rule.id, finding->message);
    if (found->has_other) {
        printf("; other file: %s", path_of(state, found->other));
    }
    printf("\n");
}

static void GTS_CALL on_unreadable(void *user, uint32_t file, const char *reason, size_t len)
{
    walk_state *state = (walk_state *)user;
    void *unreadable = state->unreadable;
    char *copy;
    if (state->failed) {
        return;
    }
    if (!grow(&unreadable, state->unreadable_count, &state->unreadable_capacity,
              sizeof *state->unreadable)) {
        state->failed = 1;
        return;
    }
    state->unreadable = (unreadable_file *)unreadable;
    copy = copy_of(reason, len);
    if (!copy) {
        state->failed = 1;
        return;
    }
    state->unreadable[state->unreadable_count].file = file;
    state->unreadable[state->unreadable_count].reason = copy;
    state->unreadable_count++;
}

static const char *game_name(gts_game game)
{
    switch (game) {
    case GTS_GAME_III:
        return "iii";
    case GTS_GAME_VC:
        return "vc";
    default:
        return "sa";
    }
}

int main(int argc, char **argv)
{
    walk_state state = {NULL, NULL, 0, 0, NULL, 0, 0, 0};
    gts_mod_files files;
    gts_mod_callbacks callbacks;
    gts_mod_summary summary;
    gts_game game;
    gts_status status;
    size_t tables_len;
    void *tables;
    size_t i;
    int code;

    if (argc != 2) {
        fprintf(stderr, "usage: check_folder DIR\n");
        return 2;
    }
    state.root = argv[1];
    files.open = open_file;
    files.length = file_length;
    files.read_at = read_at;
    files.close = close_file;
    files.user = &state;

    /* The tables for the folder's game: about 2 MiB for San Andreas, less for the others. */
    status = gts_mod_find_game(&files, &game);
    if (status != GTS_OK) {
        fprintf(stderr, "check_folder: %s: %s\n", argv[1], gts_status_reason(status));
        return 2;
    }
    tables_len = gts_mod_tables_size(game);
    tables = malloc(tables_len); /* malloc's alignment covers GTS_MOD_TABLES_ALIGN */
    if (!tables) {
        fprintf(stderr, "check_folder: out of memory\n");
        return 2;
    }

    callbacks.on_file = on_file;
    callbacks.on_reading = NULL; /* progress: not shown */
    callbacks.on_finding = on_finding;
    callbacks.on_unreadable = on_unreadable;
    callbacks.user = &state;
    status = gts_mod_check(&files, game, tables, tables_len, &callbacks, &summary);
    free(tables);
    if (status != GTS_OK || state.failed) {
        fprintf(stderr, "check_folder: %s: %s\n", argv[1],
                state.failed ? "out of memory" : gts_status_reason(status));
        code = 2;
    } else {
        for (i = 0; i < state.unreadable_count; i++) {
            printf("%s: not read: %s\n", path_of(&state, state.unreadable[i].file),
                   state.unreadable[i].reason);
        }
        printf("%s: %lu files, %llu archive entries, %lu errors: %s\n", game_name(summary.game),
               (unsigned long)summary.files, (unsigned long long)summary.entries,
               (unsigned long)summary.errors, summary.errors ? "fails" : "loads");
        code = summary.errors ? 1 : 0;
    }
    for (i = 0; i < state.count; i++) {
        free(state.paths[i]);
    }
    free(state.paths);
    for (i = 0; i < state.unreadable_count; i++) {
        free(state.unreadable[i].reason);
    }
    free(state.unreadable);
    return code;
}
