// The executor's API: creation, arguments (through its binding, bind.h),
// running, results.
#include "exec/exec_int.h"

#include "ir/walk.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

tl_side_t tl_exec_agent_side(const tl_exec_agent_t *ag)
{
    return ag->id == TL_AGENT_AIC ? TL_SIDE_CUBE : TL_SIDE_VEC;
}

tl_status_t tl_exec_fail(const tl_exec_ctx_t *c, tl_loc_t loc, const char *fmt, ...)
{
    if (loc.line <= 0 && c->st) loc = c->st->loc;
    tl_buf_t msg;
    tl_buf_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    if (c->ag)
        tl_buf_printf(&msg, " [block %" PRId64 " %s]", c->ag->blk->index,
                      tl_side_agent_name(c->ag->id));
    tl_status_t st =
        tl_diag_report(c->x->d, TL_SEV_ERROR, loc, TL_ERR_RUNTIME, "%s", tl_buf_cstr(&msg));
    tl_buf_free(&msg);
    return st;
}

tl_status_t tl_exec_hook(const tl_exec_ctx_t *c, tl_exec_event_t *ev)
{
    if (!c->x->opts.hook) return TL_OK;
    ev->block = c->ag ? c->ag->blk->index : -1;
    ev->agent = c->ag ? c->ag->id : TL_AGENT_AIC;
    ev->stmt = c->st;
    return c->x->opts.hook(c->x->opts.hook_arg, ev);
}

void tl_exec_opts_unbounded(tl_exec_opts_t *o)
{
    tl_layout_unbounded(o->capacity);
}

tl_status_t tl_exec_create(tl_exec_t **out, const tl_kernel_t *k, const tl_exec_opts_t *opts,
                           tl_diag_t *d)
{
    *out = NULL;
    tl_status_t st = tl_ir_verify(k, d);
    if (st) return st;
    tl_exec_t *x = calloc(1, sizeof *x);
    if (!x) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    x->k = k;
    x->d = d;
    if (opts) x->opts = *opts;
    x->dev = k->config.auto_cv_combine;
    x->lanes = tl_side_block_lanes(k);
    tl_buf_init(&x->out);
    if ((st = tl_bind_create(&x->own_args, k, d)) ||
        (st = tl_side_map_build(k, tl_side_run_mode(k), d, &x->sides)) ||
        (st = tl_layout_build(&x->layout, k, x->opts.capacity, d))) {
        tl_exec_destroy(x);
        return st;
    }
    x->all_resident = tl_side_all_resident(x->sides);
    x->args = x->own_args;
    *out = x;
    return TL_OK;
}

void tl_exec_destroy(tl_exec_t *x)
{
    if (!x) return;
    tl_bind_destroy(x->own_args);
    tl_side_map_free(x->sides);
    tl_layout_free(&x->layout);
    free(x->warned);
    tl_buf_free(&x->out);
    free(x);
}

int64_t tl_exec_buffer_addr(const tl_exec_t *x, const tl_buffer_t *b)
{
    return b->scope == TL_SCOPE_GM ? -1 : x->layout.addr[b->id];
}

bool tl_exec_all_resident(const tl_exec_t *x)
{
    return x->all_resident;
}

const char *tl_exec_output(tl_exec_t *x)
{
    return tl_buf_cstr(&x->out);
}

// --- arguments: the executor's own binding (bind.h), or the one given to tl_exec_use_args

tl_bind_t *tl_exec_args(tl_exec_t *x)
{
    return x->args;
}

void tl_exec_use_args(tl_exec_t *x, tl_bind_t *args)
{
    x->args = args ? args : x->own_args;
}

tl_status_t tl_exec_set_tensor(tl_exec_t *x, const char *name, tl_tensor_t *t)
{
    return tl_bind_set_tensor(x->args, name, t);
}

tl_status_t tl_exec_set_int(tl_exec_t *x, const char *name, int64_t v)
{
    return tl_bind_set_int(x->args, name, v);
}

tl_status_t tl_exec_set_float(tl_exec_t *x, const char *name, double v)
{
    return tl_bind_set_float(x->args, name, v);
}

tl_status_t tl_exec_set_dim(tl_exec_t *x, const char *name, int64_t v)
{
    return tl_bind_set_dim(x->args, name, v);
}

tl_status_t tl_exec_bind(tl_exec_t *x)
{
    return tl_bind_check(x->args);
}

bool tl_exec_dim(const tl_exec_t *x, const char *name, int64_t *out)
{
    return tl_bind_dim(x->args, name, out);
}

int64_t tl_exec_num_blocks(const tl_exec_t *x)
{
    return tl_bind_num_blocks(x->args);
}

tl_tensor_t *tl_exec_tensor(tl_exec_t *x, const char *name)
{
    return tl_bind_tensor(x->args, name);
}

tl_tensor_t *tl_exec_take_tensor(tl_exec_t *x, const char *name)
{
    return tl_bind_take_tensor(x->args, name);
}

tl_status_t tl_exec_run(tl_exec_t *x)
{
    tl_status_t st = tl_exec_bind(x);
    if (st) return st;
    tl_buf_clear(&x->out);
    x->steps = 0;
    x->nwarned = 0;
    x->warned_residual = false;
    x->barrier_gen = 0;
    st = tl_exec_run_blocks(x);
    tl_bind_copy_back(x->args);
    return st;
}
