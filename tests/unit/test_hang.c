// Kernels whose wait can never be satisfied (tests/data/hang/*.py): a
// wait_flag or wait_cross_flag that no set releases would hang a device, so
// every target must stop with an error at the wait: `tilec run` (the
// reference), `tilec sim` and `tilec run --target cpu`. Each file says what
// is expected in `# expect:` lines:
//   # expect: @wait would wait forever          every target: exit 1, an error
//                                               at the line marked `# @wait`
//                                               whose text contains the phrase
//   # expect sim: exit 2 @wait the cube set it   one target's own expectation
// (targets: run, sim, cpu).
#include "../test.h"

#include <stdlib.h>

enum { NTARGETS = 3 };
static const char *const target_names[NTARGETS] = {"run", "sim", "cpu"};

typedef struct {
    int exit;
    int line;
    char phrase[128];
} expect_t;

// The line of the `# @TAG` marker, or -1.
static int tag_line(const char *text, const char *tag)
{
    int line = 1;
    size_t n = strlen(tag);
    for (const char *p = text; *p; p++) {
        if (*p == '\n') line++;
        if (!strncmp(p, "# @", 3) && !strncmp(p + 3, tag, n) &&
            (p[3 + n] == '\n' || p[3 + n] == ' ' || !p[3 + n]))
            return line;
    }
    return -1;
}

// Parses "[exit N] @TAG PHRASE" into *e; false when malformed.
static bool parse_expect(const char *text, const char *s, expect_t *e)
{
    e->exit = 1;
    if (!strncmp(s, "exit ", 5)) {
        e->exit = atoi(s + 5);
        s = strchr(s + 5, ' ');
        if (!s) return false;
        s++;
    }
    if (*s != '@') return false;
    char tag[32];
    int k = 0;
    for (s++; *s && *s != ' ' && *s != '\n' && k < 31;) tag[k++] = *s++;
    tag[k] = 0;
    e->line = tag_line(text, tag);
    while (*s == ' ') s++;
    const char *end = strchr(s, '\n');
    snprintf(e->phrase, sizeof e->phrase, "%.*s", (int)(end ? end - s : (long)strlen(s)), s);
    return e->line > 0 && e->phrase[0];
}

// Fills want[t] for every target from the file's expect lines.
static bool expectations(const char *text, expect_t want[NTARGETS])
{
    bool any = false;
    for (const char *p = strstr(text, "# expect"); p; p = strstr(p + 1, "# expect")) {
        const char *q = p + 8;
        int only = -1;
        if (*q == ' ') {
            for (int t = 0; t < NTARGETS; t++) {
                size_t n = strlen(target_names[t]);
                if (!strncmp(q + 1, target_names[t], n) && q[1 + n] == ':') only = t, q += 1 + n;
            }
        }
        if (*q != ':' || q[1] != ' ') continue;
        expect_t e;
        if (!parse_expect(text, q + 2, &e)) return false;
        for (int t = 0; t < NTARGETS; t++)
            if (only < 0 ? !any : only == t) want[t] = e;
        if (only < 0) any = true;
    }
    return any;
}

static void hang_file(tl_test_t *t, void *arg)
{
    const char *path = arg;
    char *text = tl_test_read_file(path, NULL);
    REQUIRE(text);
    expect_t want[NTARGETS];
    bool parsed = expectations(text, want);
    free(text);
    REQUIRE(parsed);
    setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 0);
    for (int i = 0; i < NTARGETS; i++) {
        char *argv[] = {
            (char *)tl_test_tilec(),         i == 1 ? "sim" : "run",     (char *)path, "-o",
            (char *)tl_test_tmp_own("hang-out"), i == 2 ? "--target" : NULL, "cpu",        NULL};
        char *out = NULL;
        int rc = tl_test_run(argv, &out);
        char where[600];
        snprintf(where, sizeof where, "%s:%d:", path, want[i].line);
        // the error line: "FILE:LINE:COL: error: ... PHRASE ..."
        bool found = false;
        for (const char *p = out ? strstr(out, where) : NULL; p && !found;
             p = strstr(p + 1, where)) {
            const char *eol = strchr(p, '\n');
            size_t n = eol ? (size_t)(eol - p) : strlen(p);
            char line[2048];
            snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
            found = strstr(line, ": error: ") && strstr(line, want[i].phrase);
        }
        if (rc != want[i].exit || !found)
            tl_test_fail(t, __FILE__, __LINE__,
                         "%s on %s: exit %d (want %d), want an error at line %d with '%s':\n%s",
                         path, target_names[i], rc, want[i].exit, want[i].line, want[i].phrase,
                         out ? out : "");
        free(out);
    }
}

TEST_GENERATOR(hang_files)
{
    tl_test_add_dir("tests/data/hang", ".py", "hang", hang_file);
}

// The corpus covers what it promises: intra-core and cross-core waits, in
// expert and developer mode.
TEST(hang_corpus_size)
{
    char *list = NULL;
    char *argv[] = {"/bin/sh", "-c", "ls tests/data/hang/*.py", NULL};
    REQUIRE(tl_test_run(argv, &list) == 0);
    CHECK(strstr(list, "hang/intra_") != NULL);
    CHECK(strstr(list, "hang/cross_") != NULL);
    CHECK(strstr(list, "hang/dev_intra_") != NULL);
    CHECK(strstr(list, "hang/dev_cross_") != NULL);
    free(list);
}
