// The pass pipelines, written out in order (the whole compiler in one place),
// with IR dumps by pass name and the verifier between passes.
#include "pass/pass.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static const tl_pass_t ref_pipeline[] = {
    {"scope_infer", "traced IR", tl_pass_scope_infer},
    {"views", "physical scopes", tl_pass_views},
    {"dev_order", "physical scopes", tl_pass_dev_order},
    {"tail_mask", "physical scopes, upstream's program order, T.Parallel not lowered",
     tl_pass_tail_mask},
    {"memplan", "physical scopes", tl_pass_memplan_ref},
};

// Both developer-mode pipelines first put loop bodies in upstream's order
// (dev_order), so that `tilec run` and `tilec sim` run the same program.
// The NPU order: T.Parallel lowering and workspace insertion first (both are
// rewrites of the one developer-mode program); T.Pipelined before the CV split,
// because multi-buffering is a sequential transformation of that program and
// the split and both sync passes must see the final loop structure (the
// versions of the cube/vector hand-offs, whose flags cross_sync places); memory
// planning after every pass that adds, copies or moves statements; the
// schedule after it (it reorders the final per-core programs, keeping every
// dependence on planned address ranges, so that chains of dependent ops
// interleave) and before intra_sync, which syncs the order it finds.
static const tl_pass_t npu_pipeline[] = {
    {"scope_infer", "traced IR", tl_pass_scope_infer},
    {"views", "physical scopes", tl_pass_views},
    {"dev_order", "physical scopes", tl_pass_dev_order},
    {"tail_mask", "physical scopes, upstream's program order, T.Parallel not lowered",
     tl_pass_tail_mask},
    {"parallel", "physical scopes", tl_pass_parallel},
    {"workspace", "physical scopes", tl_pass_workspace},
    {"upstream_alloc", "T.Pipelined loops not yet rewritten", tl_pass_upstream_alloc},
    {"pipelined", "single developer program (before cv_split)", tl_pass_pipelined},
    {"cv_split", "physical scopes; no copy between cube and vector memory", tl_pass_cv_split},
    {"cross_sync", "cv_split's per-core programs", tl_pass_cross_sync},
    {"memplan", "physical scopes, final statement order", tl_pass_memplan},
    {"schedule", "per-core programs, planned addresses, no intra-core syncs", tl_pass_schedule},
    {"intra_sync", "per-core programs, planned addresses", tl_pass_intra_sync},
};

// tail_mask (only with TL_ASCEND_TAIL_MASK) runs at the same point of every
// pipeline, so that each target computes the same valid rectangles.
// The CPU target runs the reference's program order too (dev_order): without it a cube read
// of a workspace the vector cores fill later in the same iteration ran first.
// A kernel whose vector op runs past a buffer is placed as the reference places it (memplan).
static const tl_pass_t cpu_pipeline[] = {
    {"scope_infer", "traced IR", tl_pass_scope_infer},
    {"views", "physical scopes", tl_pass_views},
    {"dev_order", "physical scopes", tl_pass_dev_order},
    {"tail_mask", "physical scopes, upstream's program order, T.Parallel not lowered",
     tl_pass_tail_mask},
    {"memplan", "physical scopes", tl_pass_memplan_cpu},
    {"parallel", "physical scopes", tl_pass_parallel},
    {"unroll", "physical scopes, T.Parallel lowered", tl_pass_unroll},
};

static const struct {
    const tl_pass_t *passes;
    size_t n;
} pipelines[] = {
    {ref_pipeline, TL_ARRAY_LEN(ref_pipeline)},
    {npu_pipeline, TL_ARRAY_LEN(npu_pipeline)},
    {cpu_pipeline, TL_ARRAY_LEN(cpu_pipeline)},
    // the pto target: the NPU passes; memplan sees ctx->pipeline and places cube
    // matrices in whole 16-row fractals (tl_buffer_planned_rows)
    {npu_pipeline, TL_ARRAY_LEN(npu_pipeline)},
};

bool tl_pass_exists(const char *name)
{
    if (!strcmp(name, "all") || !strcmp(name, "trace")) return true;
    for (size_t p = 0; p < TL_ARRAY_LEN(pipelines); p++)
        for (size_t i = 0; i < pipelines[p].n; i++)
            if (!strcmp(pipelines[p].passes[i].name, name)) return true;
    return false;
}

const char *tl_pass_names(void)
{
    static char names[512];
    if (names[0]) return names;
    strcat(names, "trace");
    for (size_t p = 0; p < TL_ARRAY_LEN(pipelines); p++)
        for (size_t i = 0; i < pipelines[p].n; i++) {
            const char *n = pipelines[p].passes[i].name;
            char pat[64];
            snprintf(pat, sizeof pat, ", %s", n);
            if (!strstr(names, pat) && strlen(names) + strlen(pat) + 1 < sizeof names)
                strcat(names, pat);
        }
    return names;
}

static void dump(const tl_kernel_t *k, tl_pass_ctx_t *ctx, const char *name)
{
    if (!ctx->dump) return;
    tl_buf_printf(ctx->dump, "// --- IR after %s ---\n", name);
    tl_ir_print_kernel(ctx->dump, k);
}

double tl_pass_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

tl_status_t tl_pass_run_pipeline(tl_kernel_t *k, tl_pipeline_t which, tl_pass_ctx_t *ctx)
{
    const char *want = ctx->dump_after;
    ctx->pipeline = which;
    bool all = want && !strcmp(want, "all");
    if (want && (all || !strcmp(want, "trace"))) {
        dump(k, ctx, "trace");
        if (!all && ctx->stop_after_dump) {
            ctx->stopped = true;
            return TL_OK;
        }
    }
    for (size_t i = 0; i < pipelines[which].n; i++) {
        const tl_pass_t *p = &pipelines[which].passes[i];
        if (ctx->on_step_start) ctx->on_step_start(ctx->step_arg, p->name);
        double t0 = tl_pass_clock();
        tl_status_t st = p->run(k, ctx);
        double t1 = tl_pass_clock();
        if (ctx->on_step) ctx->on_step(ctx->step_arg, p->name, t1 - t0);
        if (st != TL_OK) return st;
        if (!ctx->verify && (st = tl_ir_check_nesting(k, ctx->diag)) != TL_OK) return st;
        if (ctx->verify) {
            if (ctx->on_step_start) ctx->on_step_start(ctx->step_arg, "verify");
            st = tl_ir_verify(k, ctx->diag);
            if (ctx->on_step) ctx->on_step(ctx->step_arg, "verify", tl_pass_clock() - t1);
            if (st != TL_OK) {
                tl_diag_note(ctx->diag, (tl_loc_t){0}, "the IR verifier failed after pass '%s'",
                             p->name);
                return TL_ERR_INTERNAL;
            }
        }
        if (want && (all || !strcmp(want, p->name))) {
            dump(k, ctx, p->name);
            if (!all && ctx->stop_after_dump) {
                ctx->stopped = true;
                return TL_OK;
            }
        }
    }
    return TL_OK;
}
