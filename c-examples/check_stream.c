/*
 * check_stream: a file checked against the games' loading rules as it is read, in 4 KiB
 * pieces, with the streaming checker (gts_checker_init / gts_checker_feed / gts_checker_finish).
 *
 *   check_stream FILE    FILE (any format the decoder reads, or a VER2 archive) checked for
 *                        the games it is for, read from the file itself (games 0)
 *
 * Prints one line per finding as the checker finds it ("LEVEL RULE (GAMES) at OFFSET:
 * MESSAGE", the entry first for an archive's), then the games checked (gts_checker_games) and
 * the count of findings and errors. Exit code 0, 1 if a finding is an error, 2 for a usage or
 * system error. The checker's storage is static: no allocation anywhere.
 */
#include <stdio.h>
#include <string.h>

#include "gtastream.h"

#define PIECE 4096

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

/* "iii, sa" for the game bits; "none" for 0. */
static void print_games(uint8_t games)
{
    static const char *const names[] = {"iii", "vc", "sa", "mta"};
    int printed = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (games & (1u << i)) {
            printf("%s%s", printed ? ", " : "", names[i]);
            printed = 1;
        }
    }
    if (!printed) {
        printf("none");
    }
}

static void GTS_CALL on_finding(void *user, const gts_finding *finding)
{
    gts_rule rule;
    (void)user;
    if (gts_rule_info(finding->rule, &rule) != GTS_OK) {
        return;
    }
    if (finding->entry) {
        printf("%s: ", finding->entry);
    }
    printf("%s %s (", level_name(finding->level), rule.id);
    print_games(finding->games);
    printf(") at %llu: %s\n", (unsigned long long)finding->offset, finding->message);
}

/* The file's last path component: its stem is the block name the game expects. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *backslash = strrchr(path, '\\');
    if (backslash && (!slash || backslash > slash)) {
        slash = backslash;
    }
    return slash ? slash + 1 : path;
}

static gts_checker checker;

int main(int argc, char **argv)
{
    static unsigned char piece[PIECE];
    FILE *file;
    long length;
    gts_status status;
    uint32_t errors = 0;
    uint32_t findings;
    int reading = 1;

    if (argc != 2) {
        fprintf(stderr, "usage: check_stream FILE\n");
        return 2;
    }
    file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 2;
    }
    /* An archive needs its length (and seeks to its entries); a file only its bytes. */
    if (fread(piece, 1, 4, file) == 4 && memcmp(piece, "VER2", 4) == 0 &&
        fseek(file, 0, SEEK_END) == 0 && (length = ftell(file)) >= 0) {
        status = gts_checker_init_archive(&checker, sizeof checker, (uint64_t)length,
                                          base_name(argv[1]), 0, on_finding, NULL);
    } else {
        status = gts_checker_init(&checker, sizeof checker, base_name(argv[1]), 0, on_finding,
                                  NULL);
    }
    if (status != GTS_OK || fseek(file, 0, SEEK_SET) != 0) {
        fprintf(stderr, "check_stream: %s: cannot start: %s\n", argv[1], gts_status_name(status));
        fclose(file);
        return 2;
    }

    while (reading) {
        size_t got = fread(piece, 1, PIECE, file);
        size_t used = 0;
        if (got == 0) {
            break;
        }
        status = gts_checker_feed(&checker, piece, got, &used);
        switch (status) {
        case GTS_OK:
            break;
        case GTS_SEEK:
            /* The next bytes lie elsewhere (an archive's entry): read from there. */
            if (fseek(file, (long)gts_checker_position(&checker), SEEK_SET) != 0) {
                perror(argv[1]);
                fclose(file);
                return 2;
            }
            break;
        case GTS_DONE:
            reading = 0;
            break;
        default:
            fprintf(stderr, "check_stream: %s: %s\n", argv[1], gts_status_name(status));
            fclose(file);
            return 2;
        }
    }
    if (ferror(file)) {
        perror(argv[1]);
        fclose(file);
        return 2;
    }
    fclose(file);

    status = gts_checker_finish(&checker, &errors);
    if (status != GTS_OK) {
        fprintf(stderr, "check_stream: %s: %s\n", argv[1], gts_status_name(status));
        return 2;
    }
    findings = gts_checker_findings(&checker);
    printf("checked for ");
    print_games(gts_checker_games(&checker));
    printf(": %u finding%s, %u error%s\n", (unsigned)findings, findings == 1 ? "" : "s",
           (unsigned)errors, errors == 1 ? "" : "s");
    return errors ? 1 : 0;
}
