// The CPU target keeps the reference's flag bookkeeping (cpurt.c's event()
// and its leftover-flag warning): on every kernel of tests/data/racy and
// tests/data/hang, `tilec run --target cpu` exits as `tilec run` does and
// reports its errors and warnings at the same places with the same severity
// (file:line:col: error|warning). An event id past 7 is its low 3 bits and a
// second set before the wait is a warning on both, not an error on one.
#include "../test.h"

#include <stdlib.h>

// The "FILE:L:C: error" / "FILE:L:C: warning" heads of out's diagnostics, one per line.
static char *diag_heads(const char *out)
{
    size_t n = strlen(out);
    char *heads = calloc(n + 1, 1), *h = heads;
    if (!heads) return NULL;
    for (const char *p = out; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *e = NULL;
        for (const char *q = p; q < p + len && !e; q++)
            if (!strncmp(q, ": error: ", 9) || !strncmp(q, ": warning: ", 11)) e = q;
        if (e) {
            size_t k = (size_t)(e - p) + (e[2] == 'e' ? 7 : 9);
            memcpy(h, p, k);
            h += k;
            *h++ = '\n';
        }
        p = eol ? eol + 1 : p + len;
    }
    return heads;
}

static void same_as_reference(tl_test_t *t, void *arg)
{
    const char *path = arg;
    setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 0);
    char ref_dir[1024], cpu_dir[1024]; // this test's own: other files' tests run beside it
    snprintf(ref_dir, sizeof ref_dir, "%s", tl_test_tmp_own("sync-ref"));
    snprintf(cpu_dir, sizeof cpu_dir, "%s", tl_test_tmp_own("sync-cpu"));
    char *ref_argv[] = {(char *)tl_test_tilec(), "run", (char *)path, "-o", ref_dir, NULL};
    char *cpu_argv[] = {(char *)tl_test_tilec(), "run", (char *)path, "-o", cpu_dir,
                        "--target", "cpu", NULL};
    char *ref = NULL, *cpu = NULL;
    int rc_ref = tl_test_run(ref_argv, &ref), rc_cpu = tl_test_run(cpu_argv, &cpu);
    char *h_ref = diag_heads(ref ? ref : ""), *h_cpu = diag_heads(cpu ? cpu : "");
    REQUIRE(h_ref && h_cpu);
    if (rc_ref != rc_cpu || strcmp(h_ref, h_cpu))
        tl_test_fail(t, __FILE__, __LINE__,
                     "%s: tilec run exit %d, --target cpu exit %d\n-- run:\n%s-- cpu:\n%s", path,
                     rc_ref, rc_cpu, ref ? ref : "", cpu ? cpu : "");
    free(h_ref);
    free(h_cpu);
    free(ref);
    free(cpu);
}

TEST_GENERATOR(cpu_sync_files)
{
    tl_test_add_dir("tests/data/racy", ".py", "cpu_sync", same_as_reference);
    tl_test_add_dir("tests/data/hang", ".py", "cpu_sync", same_as_reference);
}
