// Helpers for the simulator tests (test_sim_util.h).
#include "test_sim_util.h"

#include <string.h>

#include "front/front.h"
#include "pass/pass.h"

tl_status_t simk_run(simk_t *e, const char *path, const char *src, const char *const *args,
                     const tl_sim_opts_t *opts)
{
    memset(e, 0, sizeof *e);
    tl_arena_init(&e->arena);
    tl_diag_init(&e->d);
    tl_front_arg_t fa[16];
    char names[16][64];
    int na = 0;
    for (; args && args[na] && na < 16; na++) {
        const char *eq = strchr(args[na], '=');
        size_t n = eq ? (size_t)(eq - args[na]) : 0;
        if (n >= sizeof names[na]) n = sizeof names[na] - 1;
        memcpy(names[na], args[na], n);
        names[na][n] = 0;
        fa[na] = (tl_front_arg_t){names[na], eq ? eq + 1 : ""};
    }
    tl_front_opts_t fo = {.nargs = na, .args = fa};
    tl_status_t st = src ? tl_front_compile_source(&e->arena, path, src, &fo, &e->d, &e->k)
                         : tl_front_compile(&e->arena, path, &fo, &e->d, &e->k);
    tl_pass_ctx_t pc = {.diag = &e->d, .verify = true};
    if (!st) st = tl_pass_scope_infer(e->k, &pc);
    if (!st) st = tl_pass_views(e->k, &pc); // T.reinterpretcast as upstream builds it
    if (!st) st = tl_check_inputs(&e->io, e->k, 0, NULL, 0, NULL, 1, &e->d);
    e->have_io = st == TL_OK;
    if (!st) st = tl_sim_create(&e->s, e->k, opts, &e->d);
    e->compile_st = st;
    if (st) return st;
    tl_exec_t *x = tl_sim_exec(e->s);
    for (int p = 0; p < e->k->nparams && !st; p++)
        if (e->io.tensors[p]) st = tl_exec_set_tensor(x, e->k->params[p].name, e->io.tensors[p]);
    if (!st) st = tl_sim_run(e->s);
    e->run_st = st;
    return st;
}

tl_tensor_t *simk_tensor(simk_t *e, const char *name)
{
    return e->s ? tl_exec_tensor(tl_sim_exec(e->s), name) : NULL;
}

void simk_free(simk_t *e)
{
    tl_sim_destroy(e->s);
    if (e->have_io) tl_check_io_free(&e->io);
    tl_diag_free(&e->d);
    tl_arena_free(&e->arena);
}
