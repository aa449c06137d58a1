// The compile driver: the one place where a kernel file goes through the
// front end (front/front.h) and then the pass pipeline of a target
// (pass/pass.h). The command-line tool, the C API, the check runner and the
// benchmarks compile through it.
//
//   tl_compile_opts_t o = {.path = "kernels/examples/gemm.py", .pipeline = TL_PIPELINE_CPU};
//   tl_kernel_t *k;
//   if (tl_compile(&arena, &o, &diag, &k) != TL_OK) fputs(tl_diag_text(&diag), stderr);
//
// The kernel lives in the arena; every message (with file:line:col, the source
// line and a caret) is in the diag.
#ifndef TL_DRIVER_COMPILE_H
#define TL_DRIVER_COMPILE_H

#include "base/arena.h"
#include "front/front.h"
#include "pass/pass.h"

typedef struct {
    const char *path;       // the kernel file (also names it in messages and resolves imports)
    const char *source;     // its text; NULL: read from path
    tl_front_opts_t front;  // kernel selection, factory arguments, out_idx, pass configs
    bool front_only;        // stop after the front end (no passes)
    tl_pipeline_t pipeline; // the passes for the target (tl_backend_t.pipeline)
    const char *dump_after; // dump the IR after this pass (or "all") into *dump; a pass
    tl_buf_t *dump;         // name stops the pipeline there
    bool no_verify;         // skip the IR verifier between passes
    tl_step_fn on_step;     // when set: called with the time of the front end ("front end"),
    void *step_arg;         // each pass and each verifier run ("verify")
    tl_step_start_fn on_step_start; // when set: called as each of those steps starts
} tl_compile_opts_t;

tl_status_t tl_compile(tl_arena_t *arena, const tl_compile_opts_t *o, tl_diag_t *d,
                       tl_kernel_t **out);

// Splits "NAME=VALUE" into *out: the name copied into name[0 .. cap), the
// value pointing into s. False when s has no '=' or an empty or too long name.
bool tl_compile_arg(const char *s, char *name, size_t cap, tl_front_arg_t *out);

#endif
