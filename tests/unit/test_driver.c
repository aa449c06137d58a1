// The compile driver (src/driver/compile.h): the time of every compile step
// reaches the caller (the CLI prints the steps over a second).
#include "../test.h"

#include "driver/compile.h"

typedef struct {
    char names[64][32];
    int n;
    bool negative;
} seen_t;

static void on_step(void *arg, const char *step, double seconds)
{
    seen_t *s = arg;
    if (seconds < 0) s->negative = true;
    if (s->n < 64) snprintf(s->names[s->n++], sizeof s->names[0], "%s", step);
}

TEST(compile_reports_every_step)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    seen_t seen = {0};
    tl_compile_opts_t o = {.path = "kernels/examples/layer_norm.py",
                           .pipeline = TL_PIPELINE_NPU,
                           .on_step = on_step,
                           .step_arg = &seen};
    tl_kernel_t *k = NULL;
    CHECK_EQ(tl_compile(&arena, &o, &d, &k), TL_OK);
    static const char *want[] = {
        "front end", "scope_infer", "verify",     "views",     "verify",   "dev_order",
        "verify",    "tail_mask",   "verify",     "parallel",  "verify",   "workspace",
        "verify",    "upstream_alloc", "verify",  "pipelined", "verify",   "cv_split",
        "verify",    "cross_sync",  "verify",     "memplan",   "verify",   "schedule",
        "verify",    "intra_sync",  "verify"};
    CHECK_EQ(seen.n, (int)TL_ARRAY_LEN(want));
    for (int i = 0; i < seen.n && i < (int)TL_ARRAY_LEN(want); i++)
        CHECK_STREQ(seen.names[i], want[i]);
    CHECK(!seen.negative);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}
