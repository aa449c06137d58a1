// The compile driver (compile.h): front end, then the target's pipeline.
#include "driver/compile.h"

#include <string.h>

tl_status_t tl_compile(tl_arena_t *arena, const tl_compile_opts_t *o, tl_diag_t *d,
                       tl_kernel_t **out)
{
    *out = NULL;
    tl_kernel_t *k = NULL;
    if (o->on_step_start) o->on_step_start(o->step_arg, "front end");
    double t0 = tl_pass_clock();
    tl_status_t st = o->source
                         ? tl_front_compile_source(arena, o->path, o->source, &o->front, d, &k)
                         : tl_front_compile(arena, o->path, &o->front, d, &k);
    if (o->on_step) o->on_step(o->step_arg, "front end", tl_pass_clock() - t0);
    if (st != TL_OK) return st;
    if (!o->front_only) {
        tl_pass_ctx_t ctx = {.diag = d,
                             .dump_after = o->dump_after,
                             .dump = o->dump,
                             .verify = !o->no_verify,
                             .stop_after_dump = o->dump_after != NULL,
                             .on_step = o->on_step,
                             .on_step_start = o->on_step_start,
                             .step_arg = o->step_arg};
        if ((st = tl_pass_run_pipeline(k, o->pipeline, &ctx)) != TL_OK) return st;
    }
    *out = k;
    return TL_OK;
}

bool tl_compile_arg(const char *s, char *name, size_t cap, tl_front_arg_t *out)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= cap) return false;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    *out = (tl_front_arg_t){name, eq + 1};
    return true;
}
