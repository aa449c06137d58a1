// Compiler passes over the Tile IR. Each pass lives in its own file, states in
// a comment what it requires and what it guarantees, and can dump the IR after
// it (`tilec ir --dump-after=NAME`). The pipelines are written out in pass.c.
#ifndef TL_PASS_PASS_H
#define TL_PASS_PASS_H

#include "base/buf.h"
#include "base/diag.h"
#include "ir/ir.h"

// Which backend a pipeline prepares the kernel for.
typedef enum {
    TL_PIPELINE_REF, // functional reference execution (tilec run)
    TL_PIPELINE_NPU, // the modeled Ascend core (tilec sim): the developer-mode passes
    TL_PIPELINE_CPU, // native CPU code generation
    TL_PIPELINE_PTO, // PTO-ISA C++ (src/pto): the NPU passes, cube matrices of whole fractals
} tl_pipeline_t;

// Called after each compile step with its name and how long it took (seconds).
typedef void (*tl_step_fn)(void *arg, const char *step, double seconds);
// Called when a compile step starts (a progress report can watch it run).
typedef void (*tl_step_start_fn)(void *arg, const char *step);

typedef struct {
    tl_diag_t *diag;
    const char *dump_after;         // pass name, "all", or NULL
    tl_buf_t *dump;                 // where dumps go (NULL: none)
    bool verify;                    // run the IR verifier after every pass
    bool stop_after_dump;           // stop the pipeline after the --dump-after pass
    bool stopped;                   // set when the pipeline stopped early
    tl_pipeline_t pipeline;         // the pipeline running (set by tl_pass_run_pipeline)
    tl_step_fn on_step;             // when set: each pass's time ("verify": the verifier after it)
    tl_step_start_fn on_step_start; // when set: before each pass and verifier run
    void *step_arg;
} tl_pass_ctx_t;

typedef struct {
    const char *name;
    const char *requires; // one line: what must hold before the pass runs
    tl_status_t (*run)(tl_kernel_t *k, tl_pass_ctx_t *ctx);
} tl_pass_t;

// Runs the pipeline for `which` on k (in place).
tl_status_t tl_pass_run_pipeline(tl_kernel_t *k, tl_pipeline_t which, tl_pass_ctx_t *ctx);
// Seconds since an arbitrary start (a monotonic clock), for step times.
double tl_pass_clock(void);
// Whether `name` names a pass of some pipeline (for --dump-after validation).
bool tl_pass_exists(const char *name);
// Comma-separated list of every pass name, for help texts.
const char *tl_pass_names(void);

// --- the passes -------------------------------------------------------------------------
tl_status_t tl_pass_scope_infer(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// cv_split.c: one program per core (TL_ASCEND_AUTO_CV_COMBINE); vid_split.c:
// the threads=2 vector program over both vector cores (called by cv_split).
tl_status_t tl_pass_cv_split(tl_kernel_t *k, tl_pass_ctx_t *ctx);
tl_status_t tl_vid_split_run(tl_kernel_t *k, tl_stmt_t *vscope, tl_pass_ctx_t *ctx);
// cross_sync.c: cross-core flags for GM hand-offs (TL_ASCEND_AUTO_CV_SYNC).
tl_status_t tl_pass_cross_sync(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// schedule.c: latency-aware reordering of each core's straight-line code
// (after memplan, before intra_sync; tl.tilec_schedule).
tl_status_t tl_pass_schedule(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// intra_sync.c: pipe flags and barriers on each core (TL_ASCEND_AUTO_SYNC);
// tl_intra_sync_count counts the syncs a pass inserted, by kind.
tl_status_t tl_pass_intra_sync(tl_kernel_t *k, tl_pass_ctx_t *ctx);
void tl_intra_sync_count(const tl_kernel_t *k, int *sets, int *waits, int *barriers, int *alls);
// parallel.c: T.Parallel nests to vector ops (NPU and CPU pipelines).
tl_status_t tl_pass_parallel(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// unroll.c: short constant loops of tile ops to their iterations (CPU).
tl_status_t tl_pass_unroll(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// tail_mask.c: upstream's TL_ASCEND_TAIL_MASK valid-rectangle rewrite (every pipeline).
tl_status_t tl_pass_tail_mask(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// views.c: T.reinterpretcast becomes a view of its source's memory (every pipeline).
tl_status_t tl_pass_views(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// dev_order.c: upstream's order of developer-mode loop bodies (reference and NPU).
tl_status_t tl_pass_dev_order(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// workspace.c: L0C -> UB and UB -> L1 hand-offs through GM workspaces (NPU).
tl_status_t tl_pass_workspace(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// Whether s is a hand-off copy between the cores (L0C -> UB or UB -> L1).
bool tl_workspace_is_handoff(const tl_stmt_t *s);
// upstream_alloc.c: a warning when upstream's versions of T.Pipelined buffers
// would not fit where tilec's plan does (changes nothing).
tl_status_t tl_pass_upstream_alloc(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// pipelined.c: T.Pipelined loops multi-buffered, any trip count (NPU).
tl_status_t tl_pass_pipelined(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// memplan.c: scratchpad addresses (NPU: always; the reference pipeline only
// when TL_ASCEND_MEMORY_PLANNING is on, so that `tilec run` uses the plan).
tl_status_t tl_pass_memplan(tl_kernel_t *k, tl_pass_ctx_t *ctx);
tl_status_t tl_pass_memplan_ref(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// The CPU target: a kernel with a vector op that may run past its buffer
// (ir/overrun.h) gets the reference's plan, since what the op touches there
// depends on the placement; the others keep the backend's own placement.
tl_status_t tl_pass_memplan_cpu(tl_kernel_t *k, tl_pass_ctx_t *ctx);
// Alignment (bytes) of buffer addresses and sizes in scope s, and the scope's
// capacity for kernel k.
int64_t tl_memplan_align(tl_scope_t s);
// What upstream's build claims of a scope (tilec's own choices stay within it)
// and the hardware's size (the planner's limit); UB times `threads` for a
// developer kernel before the vector split.
int64_t tl_memplan_capacity(const tl_kernel_t *k, tl_scope_t s);
int64_t tl_memplan_limit(const tl_kernel_t *k, tl_scope_t s);

#endif
