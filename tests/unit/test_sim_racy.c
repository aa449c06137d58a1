// The broken-kernel corpus tests/data/racy/*.py: each file says in
// `# expect:` lines what the simulator must report, with `PIPE@TAG` / `@TAG`
// naming the line marked `# @TAG`:
//   # expect: race RAW UB mte2@load v@use     (first access, second access)
//   # expect: benign WAW GM mte3@store mte3@store
//   # expect: error double_set @second
//   # expect: nothing                          (a correct kernel: no finding)
//   # expect: warning @set                     (a warning at that line; others allowed)
//   # expect: finding cross_flag_unmatched @set (a misuse the chip runs through: a
//                                               warning in the report, the run passes)
// The reported findings must be exactly the expected ones, and the run's
// status must say so (TL_ERR_RACE, or TL_OK with nothing or benign races only).
#include "../test.h"

#include <ctype.h>
#include <stdlib.h>

#include "test_sim_util.h"

enum { MAX_ITEMS = 32, MAX_TAGS = 32 };

typedef struct {
    char tag[32];
    int line;
} tag_t;

// Lines of "# @TAG" markers.
static int find_tags(const char *text, tag_t *tags)
{
    int n = 0, line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') line++;
        if (p[0] != '#' || p[1] != ' ' || p[2] != '@' || n == MAX_TAGS) continue;
        int k = 0;
        for (const char *q = p + 3; (isalnum((unsigned char)*q) || *q == '_') && k < 31; q++)
            tags[n].tag[k++] = *q;
        tags[n].tag[k] = 0;
        tags[n++].line = line;
    }
    return n;
}

// "mte2@load" -> "mte2:19", "@second" -> "21"; other words unchanged.
static void resolve(char *out, size_t size, const char *word, const tag_t *tags, int ntags)
{
    const char *at = strchr(word, '@');
    if (!at) {
        snprintf(out, size, "%s", word);
        return;
    }
    int line = -1;
    for (int i = 0; i < ntags; i++)
        if (!strcmp(tags[i].tag, at + 1)) line = tags[i].line;
    if (at == word)
        snprintf(out, size, "%d", line);
    else
        snprintf(out, size, "%.*s:%d", (int)(at - word), word, line);
}

static int expectations(const char *text, char items[][128])
{
    tag_t tags[MAX_TAGS];
    int ntags = find_tags(text, tags), n = 0;
    for (const char *p = strstr(text, "# expect: "); p && n < MAX_ITEMS;
         p = strstr(p + 1, "# expect: ")) {
        const char *q = p + 10, *end = strchr(q, '\n');
        if (!end) end = q + strlen(q);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(end - q), q);
        if (!strcmp(line, "nothing")) continue;
        items[n][0] = 0;
        for (char *w = strtok(line, " "); w; w = strtok(NULL, " ")) {
            char r[64];
            resolve(r, sizeof r, w, tags, ntags);
            if (items[n][0]) strcat(items[n], " ");
            strncat(items[n], r, 127 - strlen(items[n]));
        }
        n++;
    }
    return n;
}

static void upper(char *s)
{
    for (; *s; s++) *s = (char)toupper((unsigned char)*s);
}

static int reported(const tl_sim_report_t *r, char items[][128])
{
    int n = 0;
    for (int i = 0; i < r->nraces + r->nbenign && n < MAX_ITEMS; i++) {
        const tl_sim_race_t *rc = &r->races[i];
        char space[16];
        snprintf(space, sizeof space, "%s", tl_scope_name(rc->space));
        upper(space);
        snprintf(items[n++], 128, "%s %s %s %s:%d %s:%d", rc->benign ? "benign" : "race", rc->kind,
                 space, tl_pipe_name(rc->first.pipe), rc->first.loc.line,
                 tl_pipe_name(rc->second.pipe), rc->second.loc.line);
    }
    for (int i = 0; i < r->nerrors && n < MAX_ITEMS; i++)
        snprintf(items[n++], 128, "error %s %d", tl_sim_error_name(r->errors[i].kind),
                 r->errors[i].loc.line);
    for (int i = 0; i < r->nwarnings && n < MAX_ITEMS; i++)
        snprintf(items[n++], 128, "finding %s %d", tl_sim_error_name(r->warnings[i].kind),
                 r->warnings[i].loc.line);
    return n;
}

static bool contains(char items[][128], int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(items[i], s)) return true;
    return false;
}

// Is there a warning at `line` in the diagnostics ("FILE:LINE:COL: warning:")?
static bool warned_at(const char *text, const char *line)
{
    char key[32];
    snprintf(key, sizeof key, ":%s:", line);
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        const char *eol = strchr(p, '\n'), *w = strstr(p, ": warning:");
        if (w && (!eol || w < eol)) return true;
    }
    return false;
}

static void racy_file(tl_test_t *t, void *arg)
{
    const char *path = arg;
    char *text = tl_test_read_file(path, NULL);
    REQUIRE(text);
    char want[MAX_ITEMS][128], got[MAX_ITEMS][128];
    int nwant = expectations(text, want);
    CHECK(strstr(text, "# expect: ") != NULL);
    simk_t e;
    tl_status_t st = simk_run(&e, path, NULL, NULL, NULL);
    if (e.compile_st != TL_OK) {
        tl_test_fail(t, __FILE__, __LINE__, "%s did not compile:\n%s", path, tl_diag_text(&e.d));
    } else {
        const tl_sim_report_t *r = tl_sim_report(e.s);
        int ngot = reported(r, got);
        for (int i = 0; i < nwant; i++)
            if (!strncmp(want[i], "warning ", 8)) {
                if (!warned_at(tl_diag_text(&e.d), want[i] + 8))
                    tl_test_fail(t, __FILE__, __LINE__, "expected a warning at line %s:\n%s",
                                 want[i] + 8, tl_diag_text(&e.d));
            } else if (!contains(got, ngot, want[i]))
                tl_test_fail(t, __FILE__, __LINE__, "expected '%s', not reported:\n%s", want[i],
                             tl_diag_text(&e.d));
        for (int i = 0; i < ngot; i++)
            if (!contains(want, nwant, got[i]))
                tl_test_fail(t, __FILE__, __LINE__, "unexpected '%s':\n%s", got[i],
                             tl_diag_text(&e.d));
        bool failing = r->nraces || r->nerrors;
        CHECK_EQ(st, failing ? TL_ERR_RACE : TL_OK);
    }
    simk_free(&e);
    free(text);
}

TEST_GENERATOR(sim_racy_files)
{
    tl_test_add_dir("tests/data/racy", ".py", "sim_racy", racy_file);
}

// The corpus has the breadth the simulator promises: at least 15 broken
// kernels, and correct counterparts that must stay clean.
TEST(sim_racy_corpus_size)
{
    char *list = NULL;
    char *argv[] = {"/bin/sh", "-c", "ls tests/data/racy/*.py", NULL};
    REQUIRE(tl_test_run(argv, &list) == 0);
    int broken = 0, ok = 0;
    for (char *p = strstr(list, "racy/"); p; p = strstr(p + 1, "racy/"))
        if (strncmp(p + 5, "ok_", 3))
            broken++;
        else
            ok++;
    CHECK(broken >= 15);
    CHECK(ok >= 3);
    free(list);
}
