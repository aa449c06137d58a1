// A small test framework: TEST(name) { CHECK(...); } registers a test;
// TEST_GENERATOR(name) { tl_test_add(...); } adds tests discovered at run time
// (one per data file). The runner forks each test, so a crash fails only that
// test, and ends with the line "N passed, N failed".
#ifndef TL_TESTS_TEST_H
#define TL_TESTS_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct tl_test tl_test_t;
typedef void (*tl_test_fn)(tl_test_t *t, void *arg);

void tl_test_register(const char *name, const char *file, tl_test_fn fn);
void tl_test_register_generator(const char *name, void (*gen)(void));
// Adds a test from a generator; `name` is copied, `arg` is kept (caller allocates).
void tl_test_add(const char *name, tl_test_fn fn, void *arg);
// One test "<prefix>:<stem>" per file of `dir` whose name ends in `suffix`, in
// name order; the test's arg is the file's path ("<dir>/<file>"). Returns the count.
int tl_test_add_dir(const char *dir, const char *suffix, const char *prefix, tl_test_fn fn);

void tl_test_fail(tl_test_t *t, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void tl_test_skip(tl_test_t *t, const char *reason);
bool tl_test_failed(tl_test_t *t);

const char *tl_test_root(void);   // repository root (the runner's working directory)
const char *tl_test_tmpdir(void); // a fresh directory for this test run
// "<tmpdir>/<name>": a path for a scratch file (static buffer, copy it).
const char *tl_test_tmp(const char *name);
// "<tmpdir>/<name>-<pid>": the same, but no other test of the run has it (tests
// run two at a time: generated tests that write a scratch path need this one).
const char *tl_test_tmp_own(const char *name);
const char *tl_test_tilec(void);  // path of the tilec binary ($TILEC or build/tilec)
bool tl_test_sanitized(void);     // running under ASan/UBSan (slower)
// Runs argv (no shell); captures stdout+stderr into *out (malloc'd). Returns the
// exit status, or -1 if the program could not run or was killed by a signal.
int tl_test_run(char *const argv[], char **out);
// Reads a whole file (malloc'd, NUL-terminated) or NULL.
char *tl_test_read_file(const char *path, size_t *len);
bool tl_test_write_file(const char *path, const void *data, size_t len);

#define TEST(name)                                                                                 \
    static void test_##name(tl_test_t *t, void *arg);                                              \
    __attribute__((constructor)) static void register_##name(void)                                 \
    {                                                                                              \
        tl_test_register(#name, __FILE__, test_##name);                                            \
    }                                                                                              \
    static void test_##name(tl_test_t *t, void *arg __attribute__((unused)))

#define TEST_GENERATOR(name)                                                                       \
    static void gen_##name(void);                                                                  \
    __attribute__((constructor)) static void register_gen_##name(void)                             \
    {                                                                                              \
        tl_test_register_generator(#name, gen_##name);                                             \
    }                                                                                              \
    static void gen_##name(void)

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) tl_test_fail(t, __FILE__, __LINE__, "CHECK(%s)", #c);                            \
    } while (0)

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            tl_test_fail(t, __FILE__, __LINE__, "REQUIRE(%s)", #c);                                \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            tl_test_fail(t, __FILE__, __LINE__, "CHECK_EQ(%s, %s): %lld != %lld", #a, #b, a_, b_); \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double a_ = (double)(a), b_ = (double)(b), tol_ = (double)(tol);                           \
        if (!(a_ - b_ <= tol_ && b_ - a_ <= tol_))                                                 \
            tl_test_fail(t, __FILE__, __LINE__, "CHECK_NEAR(%s, %s, %s): %.9g vs %.9g", #a, #b,    \
                         #tol, a_, b_);                                                            \
    } while (0)

#define CHECK_STREQ(a, b)                                                                          \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                     \
            tl_test_fail(t, __FILE__, __LINE__, "CHECK_STREQ(%s, %s):\n  \"%s\"\n  \"%s\"", #a,    \
                         #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");                              \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                                \
    do {                                                                                           \
        const char *h_ = (hay), *n_ = (needle);                                                    \
        if (!h_ || !strstr(h_, n_))                                                                \
            tl_test_fail(t, __FILE__, __LINE__, "CHECK_CONTAINS(%s, \"%s\") in:\n%s", #hay, n_,    \
                         h_ ? h_ : "(null)");                                                      \
    } while (0)

#endif
