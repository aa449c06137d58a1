// Every kernel under kernels/ against its golden reference, on every backend
// that exists: one test per (case, backend). Cases are listed in
// src/check/cases.c; the slow ones are skipped under sanitizers. The coverage
// tests fail when a kernel file (or a factory of a multi-factory file) has no
// case.
#include "../test.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "check/check.h"
#include "pass/pass.h"

typedef struct {
    const tl_check_case_t *c;
    const char *backend;
} kcase_t;

static void run_case(tl_test_t *t, void *arg)
{
    const kcase_t *kc = arg;
    if (kc->c->slow && tl_test_sanitized()) {
        tl_test_skip(t, "model-sized case skipped under sanitizers");
        return;
    }
    if (kc->c->cpu_only) {
        tl_test_skip(t, "a case for the CPU target only (too large for the reference executor)");
        return;
    }
    tl_diag_t d;
    tl_diag_init(&d);
    tl_check_result_t r;
    tl_check_target_t ref = tl_check_target("ref");
    tl_status_t st = tl_check_run(kc->c, tl_test_root(), &ref, &r, &d);
    if (st != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "%s did not run:\n%s", kc->c->name, tl_diag_text(&d));
    else if (!r.passed)
        tl_test_fail(t, __FILE__, __LINE__, "%s differs from its golden: %s", kc->c->name,
                     r.summary);
    tl_diag_free(&d);
}

TEST_GENERATOR(kernel_cases)
{
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++) {
        kcase_t *kc = malloc(sizeof *kc);
        kc->c = *c;
        kc->backend = "ref";
        char name[256];
        snprintf(name, sizeof name, "kernels:%s@ref", (*c)->name);
        tl_test_add(name, run_case, kc);
    }
}

// --- coverage ------------------------------------------------------------------------------

enum { MAX_FILES = 256 };

typedef struct {
    char *path[MAX_FILES]; // relative to the repository root: "kernels/examples/gemm.py"
    int n;
} files_t;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

// Collects the .py files under root/rel, recursively.
static void walk(const char *root, const char *rel, files_t *fs)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.') continue;
        char sub[4096], full[8192];
        snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        if (stat(full, &st) != 0) continue;
        if (S_ISDIR(st.st_mode))
            walk(root, sub, fs);
        else if (ends_with(e->d_name, ".py") && fs->n < MAX_FILES)
            fs->path[fs->n++] = strdup(sub);
    }
    closedir(dp);
}

static void files_free(files_t *fs)
{
    for (int i = 0; i < fs->n; i++) free(fs->path[i]);
}

static bool file_has_case(const char *path, const char *kernel)
{
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++)
        if (!strcmp((*c)->file, path) &&
            (!kernel || ((*c)->kernel && !strcmp((*c)->kernel, kernel))))
            return true;
    return false;
}

// The names of the @tilelang.jit factories of a kernel file: the first `def`
// after each decorator line. Returns the count (names are malloc'd).
static int factories(const char *text, char **names, int cap)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "@tilelang.jit")) && n < cap;) {
        if (p != text && p[-1] != '\n') {
            p++;
            continue;
        }
        const char *def = strstr(p, "\ndef ");
        if (!def) break;
        def += 5;
        size_t len = strcspn(def, "( \t\n");
        names[n++] = strndup(def, len);
        p = def;
    }
    return n;
}

static void every_file_has_a_case(tl_test_t *t, void *arg)
{
    (void)arg;
    files_t fs = {0};
    walk(tl_test_root(), "kernels", &fs);
    // Both kernel folders exist: an empty walk would let the test pass vacuously.
    REQUIRE(fs.n >= 2);
    for (int i = 0; i < fs.n; i++) {
        if (!file_has_case(fs.path[i], NULL)) {
            tl_test_fail(t, __FILE__, __LINE__, "%s has no check case in src/check/cases.c",
                         fs.path[i]);
            continue;
        }
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", tl_test_root(), fs.path[i]);
        char *text = tl_test_read_file(full, NULL);
        REQUIRE(text);
        char *names[32];
        int n = factories(text, names, 32);
        CHECK(n >= 1);
        // A file with several factories needs a case per factory (cases name it with -k).
        for (int j = 0; j < n; j++) {
            if (n > 1 && !file_has_case(fs.path[i], names[j]))
                tl_test_fail(t, __FILE__, __LINE__, "%s: factory %s has no check case", fs.path[i],
                             names[j]);
            free(names[j]);
        }
        free(text);
    }
    files_free(&fs);
}

static void table_is_consistent(tl_test_t *t, void *arg)
{
    (void)arg;
    int n = 0;
    for (const tl_check_case_t *const *c = tl_check_cases(); *c; c++, n++) {
        const tl_check_case_t *k = *c;
        CHECK(k->name && k->op && k->file && k->golden && k->outputs[0]);
        // Names are unique: tl_check_find returns this very case.
        CHECK(tl_check_find(k->name) == k);
        // The name starts with the operator label.
        CHECK(!strncmp(k->name, k->op, strlen(k->op)) && k->name[strlen(k->op)] == '/');
        CHECK(k->rtol >= 0 && k->atol >= 0 && k->int_atol >= 0);
        char full[8192];
        snprintf(full, sizeof full, "%s/%s", tl_test_root(), k->file);
        struct stat st;
        if (stat(full, &st) != 0)
            tl_test_fail(t, __FILE__, __LINE__, "case %s: no file %s", k->name, k->file);
    }
    CHECK(n > 0);
    CHECK(tl_check_find("no-such-case") == NULL);
}

// Named under kernels: so that `run_tests kernels:` runs them with the cases.
TEST_GENERATOR(kernel_coverage)
{
    tl_test_add("kernels:coverage", every_file_has_a_case, NULL);
    tl_test_add("kernels:table", table_is_consistent, NULL);
}
