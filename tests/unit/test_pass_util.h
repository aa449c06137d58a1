// Helpers for the pass tests: compile kernel source text (or a kernel file),
// run chosen passes, run the result on the reference executor with seeded
// inputs, and compare the outputs of two compilations byte for byte.
#ifndef TL_TESTS_TEST_PASS_UTIL_H
#define TL_TESTS_TEST_PASS_UTIL_H

#include "front/front.h"
#include "pass/pass.h"

typedef tl_status_t (*pk_pass_fn)(tl_kernel_t *k, tl_pass_ctx_t *ctx);

enum { PK_MAX = 12 };

typedef struct {
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k;
    tl_buf_t dump; // IR after the passes
} pk_t;

// Factory arguments / dims / fills as "NAME=VALUE" strings, NULL-terminated.
typedef struct {
    const char *path;            // kernel file (NULL: `src` is the text)
    const char *src;             // kernel source text
    const char *kernel;          // -k NAME or NULL
    const char *args[PK_MAX];    // factory arguments
    const char *configs[PK_MAX]; // --pass-config KEY=VALUE
    const char *dims[PK_MAX];    // symbolic dims for runs
    const char *fills[PK_MAX];   // input fills for runs (check.h syntax)
} pk_spec_t;

// Compiles the spec and runs scope inference then `passes` (NULL-terminated;
// verifying the IR after each). Returns the first failure.
tl_status_t pk_compile(pk_t *p, const pk_spec_t *s, const pk_pass_fn *passes);
void pk_free(pk_t *p);
// Runs p->k on the executor with inputs from seed; appends every output
// tensor's name, shape and bytes to out.
tl_status_t pk_run(pk_t *p, const pk_spec_t *s, uint64_t seed, tl_buf_t *out);
// Compiles s twice, with scope inference only (the reference) and with
// `passes` into *got (the caller frees it), runs both with the same inputs and
// compares their outputs byte for byte. False with the reason in why when a
// step fails or the outputs differ.
bool pk_same_results(const pk_spec_t *s, const pk_pass_fn *passes, uint64_t seed, pk_t *got,
                     tl_buf_t *why);
// The IR printed after the passes, and how often `what` occurs in it.
const char *pk_dump(const pk_t *p);
int pk_occurrences(const pk_t *p, const char *what);
// Number of statements in k's body (recursively) for which pred is true.
int pk_count(const tl_kernel_t *k, bool (*pred)(const tl_stmt_t *s));
// The buffer named `name`, or NULL.
tl_buffer_t *pk_buffer(const tl_kernel_t *k, const char *name);

#endif
