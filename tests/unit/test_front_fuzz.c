// Robustness of the front end on broken input: truncated prefixes of the real
// kernel files under kernels/ and random byte mutations of them (a fixed seed
// and a bounded number of cases). Every case must compile or fail cleanly: no
// crash, hang or sanitizer report (the runner forks each test; the sanitizer
// build runs these too), a failure is TL_ERR_COMPILE with at least one error,
// and that error has a source location unless it says no kernel was found.
#include "../test.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/common.h"
#include "front/front.h"
#include "../../fuzz/nest.h"

enum { MAX_FILES = 64, MUTATION_CASES = 2000, PREFIX_CUTS = 60 };

typedef struct {
    char *path[MAX_FILES];
    char *text[MAX_FILES];
    int n;
} corpus_t;

static void load_dir(corpus_t *c, const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    while ((e = readdir(dp)) && c->n < MAX_FILES) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".py") != 0) continue;
        char *path = malloc(strlen(dir) + n + 2);
        sprintf(path, "%s/%s", dir, e->d_name);
        char *text = tl_test_read_file(path, NULL);
        if (!text) {
            free(path);
            continue;
        }
        c->path[c->n] = path;
        c->text[c->n++] = text;
    }
    closedir(dp);
}

static void load(corpus_t *c)
{
    memset(c, 0, sizeof *c);
    load_dir(c, "kernels/ds_v4");
    load_dir(c, "kernels/examples");
}

static void unload(corpus_t *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->path[i]);
        free(c->text[i]);
    }
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

// Compiles `text` as if it were `path`; returns false (after reporting) when
// the outcome is not a clean success or a clean, located failure.
static bool compile_ok(tl_test_t *t, const char *path, const char *text, const char *what)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    tl_status_t st = tl_front_compile_source(&arena, path, text, NULL, &d, &k);
    const char *diag = tl_diag_text(&d);
    bool ok = true;
    if (st != TL_OK) {
        // "path:LINE:COL: error:" somewhere, or the file-level "no kernel" message.
        bool located = false;
        for (const char *p = strstr(diag, ": error: "); p && !located;
             p = strstr(p + 1, ": error: ")) {
            const char *b = p;
            while (b > diag && b[-1] != '\n') b--;
            located = strncmp(b, path, strlen(path)) == 0 && b[strlen(path)] == ':';
        }
        bool no_kernel = strstr(diag, "defines no ") || strstr(diag, "defines several kernels") ||
                         strstr(diag, "several functions that build");
        ok = st == TL_ERR_COMPILE && d.nerrors > 0 && (located || no_kernel);
    } else {
        ok = k != NULL && d.nerrors == 0;
    }
    if (!ok)
        tl_test_fail(t, __FILE__, __LINE__, "%s of %s: status %d, diagnostics:\n%s", what, path, st,
                     diag);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return ok;
}

TEST(front_fuzz_truncated_prefixes)
{
    corpus_t c;
    load(&c);
    REQUIRE(c.n > 0);
    int failures = 0;
    for (int f = 0; f < c.n && failures < 5; f++) {
        size_t len = strlen(c.text[f]);
        char *buf = malloc(len + 1);
        for (int i = 0; i <= PREFIX_CUTS && failures < 5; i++) {
            size_t cut = len * (size_t)i / PREFIX_CUTS;
            memcpy(buf, c.text[f], cut);
            buf[cut] = 0;
            failures += !compile_ok(t, c.path[f], buf, "a prefix");
        }
        free(buf);
    }
    unload(&c);
}

static bool is_word(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Replaces the word (name or number) around `at` by another word of the file
// or a value that stresses the evaluator: the result usually still parses, so
// these reach evaluation, tracing and verification.
static size_t replace_word(char *s, size_t len, size_t cap, size_t at, uint64_t *rng)
{
    static const char *values[] = {
        "0",        "-1",      "1",    "3",    "7",     "2 ** 62",  "1.5",
        "-0.0",     "1e308",   "None", "True", "\"x\"", "[]",       "(1, 2)",
        "T",        "T.tile",  "M",    "_",    "cid",   "(1 // 0)", "float(\"nan\")",
        "10 ** 12", "range(3)"};
    size_t a = at, b = at;
    while (a > 0 && is_word(s[a - 1])) a--;
    while (b < len && is_word(s[b])) b++;
    if (a == b) return len;
    const char *w;
    size_t wl;
    if (next(rng) % 2) {
        w = values[next(rng) % TL_ARRAY_LEN(values)];
        wl = strlen(w);
    } else { // another word of the file
        size_t p = next(rng) % len;
        while (p < len && !is_word(s[p])) p++;
        while (p > 0 && is_word(s[p - 1])) p--;
        size_t q = p;
        while (q < len && is_word(s[q])) q++;
        if (q == p || q - p > 64) return len;
        static char word[65];
        memcpy(word, s + p, q - p);
        word[q - p] = 0;
        w = word;
        wl = q - p;
    }
    if (len - (b - a) + wl + 1 >= cap) return len;
    memmove(s + a + wl, s + b, len - b + 1);
    memcpy(s + a, w, wl);
    return len - (b - a) + wl;
}

// One random edit: replace, insert or delete a byte (from characters that
// matter to the lexer and parser), duplicate or drop a line, replace a word.
static size_t mutate(char *s, size_t len, size_t cap, uint64_t *rng)
{
    static const char chars[] = "()[]{}:,.=+-*/%<>!\"'#\\\n\t 0123456789_aZT@\x80\xc3\xa9\xff";
    size_t at = len ? next(rng) % len : 0;
    char ch = chars[next(rng) % (sizeof chars - 1)];
    switch (next(rng) % 8) {
    case 5:
    case 6:
    case 7: return replace_word(s, len, cap, at, rng);
    case 0:
        if (len) s[at] = ch;
        return len;
    case 1:
        if (len + 1 >= cap) return len;
        memmove(s + at + 1, s + at, len - at + 1);
        s[at] = ch;
        return len + 1;
    case 2:
        if (!len) return len;
        memmove(s + at, s + at + 1, len - at);
        return len - 1;
    default: {
        size_t a = at; // the line around `at`
        while (a > 0 && s[a - 1] != '\n') a--;
        size_t b = at;
        while (b < len && s[b] != '\n') b++;
        if (b < len) b++;
        size_t n = b - a;
        if (next(rng) % 2 == 0) { // drop it
            memmove(s + a, s + b, len - b + 1);
            return len - n;
        }
        if (len + n >= cap) return len; // duplicate it
        memmove(s + b + n, s + b, len - b + 1);
        memcpy(s + b, s + a, n);
        return len + n;
    }
    }
}

TEST(front_fuzz_byte_mutations)
{
    corpus_t c;
    load(&c);
    REQUIRE(c.n > 0);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    int failures = 0;
    for (int i = 0; i < MUTATION_CASES && failures < 5; i++) {
        int f = i % c.n;
        size_t len = strlen(c.text[f]), cap = len * 2 + 64;
        char *buf = malloc(cap);
        memcpy(buf, c.text[f], len + 1);
        int edits = 1 + (int)(next(&rng) % 3);
        for (int e = 0; e < edits; e++) len = mutate(buf, len, cap, &rng);
        buf[len] = 0;
        failures += !compile_ok(t, c.path[f], buf, "a mutation");
        free(buf);
    }
    unload(&c);
}

// The fuzzer's nesting generators (fuzz/nest.h, seeds fuzz/seeds/front/):
// each seed at its own depth (past the limits) is a located nesting error, at depth 10 it compiles;
// mutations of the depth in between compile or fail cleanly. Without the generator the fuzzer's
// inputs (at most 64 KiB, mutated a byte at a time) do not reach these depths.
TEST(front_fuzz_nesting_generators)
{
    corpus_t c;
    memset(&c, 0, sizeof c);
    load_dir(&c, "fuzz/seeds/front");
    REQUIRE(c.n >= 5);
    for (int f = 0; f < c.n; f++) {
        char *deep = fuzz_nest_expand(c.text[f], -1), *shallow = fuzz_nest_expand(c.text[f], 10);
        REQUIRE(deep && shallow);
        CHECK(strlen(deep) > 4000);
        compile_ok(t, c.path[f], shallow, "depth 10");
        tl_arena_t arena;
        tl_arena_init(&arena);
        tl_diag_t d;
        tl_diag_init(&d);
        tl_kernel_t *k = NULL;
        CHECK_EQ(tl_front_compile_source(&arena, c.path[f], deep, NULL, &d, &k), TL_ERR_COMPILE);
        const char *why = tl_diag_text(&d); // the nesting limits' messages
        if (!strstr(why, "too deeply") && !strstr(why, "too many nested") &&
            !strstr(why, "more than 10000 branches"))
            tl_test_fail(t, __FILE__, __LINE__, "%s: not a nesting error:\n%.600s", c.path[f], why);
        tl_diag_free(&d);
        tl_arena_free(&arena);
        for (long n = 150; n <= 2400; n += 750) { // around the limits
            char *mid = fuzz_nest_expand(c.text[f], n);
            compile_ok(t, c.path[f], mid, "a depth between");
            free(mid);
        }
        free(deep);
        free(shallow);
    }
    unload(&c);
}
