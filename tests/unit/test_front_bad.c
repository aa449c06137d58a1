// Bad kernel files: one test per file in tests/data/bad/. Compiling it must fail
// with TL_ERR_COMPILE and its first error must have the expected location, the
// source line as an excerpt with the caret under that column, and the
// diagnostics from there on must contain every expected message fragment. <name>.expect holds, one
// per line: `LINE:COL` (or
// `<where>:LINE:COL` for an error in a -a value), then `-k NAME` / `-a NAME=VALUE`
// options for the compile, then the message fragments.
#include "../test.h"

#include <stdlib.h>

#include "front/front.h"

enum { MAX_LINES = 32 };

typedef struct {
    char *text; // the .expect file, split in place into lines
    const char *where;
    int line, col;
    const char *kernel;
    int nargs, nfrags;
    tl_front_arg_t args[MAX_LINES];
    const char *frags[MAX_LINES];
} expect_t;

static bool parse_expect(const char *path, expect_t *e)
{
    memset(e, 0, sizeof *e);
    e->text = tl_test_read_file(path, NULL);
    if (!e->text) return false;
    char *save = NULL;
    for (char *l = strtok_r(e->text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (!*l) continue;
        if (!e->line) {
            char *c2 = strrchr(l, ':');
            if (!c2) return false;
            *c2 = 0;
            char *c1 = strrchr(l, ':');
            e->col = atoi(c2 + 1);
            if (c1) {
                *c1 = 0;
                e->where = l;
                e->line = atoi(c1 + 1);
            } else {
                e->line = atoi(l);
            }
            if (e->line <= 0 || e->col <= 0) return false;
        } else if (!strncmp(l, "-k ", 3)) {
            e->kernel = l + 3;
        } else if (!strncmp(l, "-a ", 3) && e->nargs < MAX_LINES) {
            char *eq = strchr(l + 3, '=');
            if (!eq) return false;
            *eq = 0;
            e->args[e->nargs].name = l + 3;
            e->args[e->nargs++].value = eq + 1;
        } else if (e->nfrags < MAX_LINES) {
            e->frags[e->nfrags++] = l;
        }
    }
    return e->line > 0 && e->nfrags > 0;
}

// The text of line `line` of `src` (malloc'd).
static char *source_line(const char *src, int line)
{
    const char *p = src;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return NULL;
    size_t n = strcspn(p, "\r\n");
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

// Checks the two excerpt lines after the error line: "   17 | text" and the
// caret under column `col` (tabs kept, UTF-8 continuation bytes take no width).
static void check_excerpt(tl_test_t *t, const char *after, int line, int col, const char *text)
{
    char want[64];
    snprintf(want, sizeof want, "%5d | ", line);
    const char *nl = strchr(after, '\n');
    if (!nl || strncmp(nl + 1, want, strlen(want)) != 0) {
        tl_test_fail(t, __FILE__, __LINE__, "no excerpt of line %d after the error:\n%s", line,
                     after);
        return;
    }
    const char *excerpt = nl + 1 + strlen(want);
    size_t elen = strcspn(excerpt, "\n");
    if (text && (elen != strlen(text) || strncmp(excerpt, text, elen) != 0))
        tl_test_fail(t, __FILE__, __LINE__, "excerpt is not line %d of the file: '%.*s'", line,
                     (int)elen, excerpt);
    const char *caret = excerpt + elen;
    if (*caret != '\n' || strncmp(caret + 1, "      | ", 8) != 0) {
        tl_test_fail(t, __FILE__, __LINE__, "no caret line after the excerpt");
        return;
    }
    caret += 9;
    int width = 0;
    for (int i = 0; text && i + 1 < col && text[i]; i++)
        width += ((unsigned char)text[i] & 0xC0) != 0x80;
    if (!text) width = col - 1;
    int at = 0;
    while (caret[at] == ' ' || caret[at] == '\t') at++;
    if (caret[at] != '^' || at != width)
        tl_test_fail(t, __FILE__, __LINE__, "caret at %d, expected at %d (column %d)", at, width,
                     col);
}

static void bad_file(tl_test_t *t, void *arg)
{
    const char *path = arg;
    char expect_path[1024];
    snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strlen(path) - 3), path);
    expect_t e;
    if (!parse_expect(expect_path, &e)) {
        tl_test_fail(t, __FILE__, __LINE__, "%s is missing or malformed", expect_path);
        free(e.text);
        return;
    }
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_front_opts_t opts = {.kernel = e.kernel, .nargs = e.nargs, .args = e.args};
    tl_kernel_t *k = NULL;
    tl_status_t st = tl_front_compile(&arena, path, &opts, &d, &k);
    const char *diag = tl_diag_text(&d);
    CHECK_EQ(st, TL_ERR_COMPILE);
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s:%d:%d: error: ", e.where ? e.where : path, e.line, e.col);
    const char *first = strstr(diag, ": error: ");
    while (first && first > diag && first[-1] != '\n') first--; // start of that line
    if (!first || strncmp(first, prefix, strlen(prefix)) != 0) {
        tl_test_fail(t, __FILE__, __LINE__, "the first error does not start with '%s':\n%s", prefix,
                     diag);
    } else {
        char *src = e.where ? NULL : tl_test_read_file(path, NULL);
        char *line = src ? source_line(src, e.line) : NULL;
        check_excerpt(t, first, e.line, e.col, line);
        free(line);
        free(src);
        for (int i = 0; i < e.nfrags; i++)
            if (!strstr(first, e.frags[i])) // in the error or the notes after it
                tl_test_fail(t, __FILE__, __LINE__, "the diagnostics lack \"%s\":\n%s", e.frags[i],
                             diag);
    }
    tl_diag_free(&d);
    tl_arena_free(&arena);
    free(e.text);
}

TEST_GENERATOR(front_bad_files)
{
    tl_test_add_dir("tests/data/bad", ".py", "front_bad", bad_file);
}
