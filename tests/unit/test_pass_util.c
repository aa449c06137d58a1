// Helpers for the pass tests (see test_pass_util.h).
#include "test_pass_util.h"

#include "check/check.h"

#include <string.h>

static int count(const char *const *items)
{
    int n = 0;
    while (n < PK_MAX && items[n]) n++;
    return n;
}

static void split(const char *const *items, int n, tl_front_arg_t *out, char (*names)[64])
{
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(items[i], '=');
        size_t len = eq ? (size_t)(eq - items[i]) : strlen(items[i]);
        if (len >= 64) len = 63;
        memcpy(names[i], items[i], len);
        names[i][len] = 0;
        out[i] = (tl_front_arg_t){names[i], eq ? eq + 1 : "True"};
    }
}

tl_status_t pk_compile(pk_t *p, const pk_spec_t *s, const pk_pass_fn *passes)
{
    tl_arena_init(&p->arena);
    tl_diag_init(&p->d);
    tl_buf_init(&p->dump);
    p->k = NULL;
    tl_front_arg_t args[PK_MAX], cfgs[PK_MAX];
    char an[PK_MAX][64], cn[PK_MAX][64];
    int na = count(s->args), nc = count(s->configs);
    split(s->args, na, args, an);
    split(s->configs, nc, cfgs, cn);
    tl_front_opts_t fo = {
        .kernel = s->kernel, .nargs = na, .args = args, .npass_configs = nc, .pass_configs = cfgs};
    tl_status_t st = s->path
                         ? tl_front_compile(&p->arena, s->path, &fo, &p->d, &p->k)
                         : tl_front_compile_source(&p->arena, "k.py", s->src, &fo, &p->d, &p->k);
    tl_pass_ctx_t ctx = {.diag = &p->d, .verify = true};
    if (st == TL_OK) st = tl_pass_scope_infer(p->k, &ctx);
    // upstream's tail-block scheme is part of what a kernel with TL_ASCEND_TAIL_MASK means
    if (st == TL_OK) st = tl_pass_tail_mask(p->k, &ctx);
    for (int i = 0; passes && passes[i] && st == TL_OK; i++) {
        st = passes[i](p->k, &ctx);
        if (st == TL_OK) st = tl_ir_verify(p->k, &p->d);
    }
    if (st == TL_OK) tl_ir_print_kernel(&p->dump, p->k);
    return st;
}

void pk_free(pk_t *p)
{
    tl_buf_free(&p->dump);
    tl_diag_free(&p->d);
    tl_arena_free(&p->arena);
}

tl_status_t pk_run(pk_t *p, const pk_spec_t *s, uint64_t seed, tl_buf_t *out)
{
    tl_check_io_t io = {0};
    tl_status_t st =
        tl_check_inputs(&io, p->k, count(s->dims), s->dims, count(s->fills), s->fills, seed, &p->d);
    tl_check_target_t ref = tl_check_target("ref");
    if (st == TL_OK) st = tl_check_backend(&ref, p->k, &io, &p->d);
    for (int i = 0; st == TL_OK && i < p->k->nparams; i++) {
        const tl_param_t *prm = &p->k->params[i];
        if (prm->role != TL_ROLE_OUTPUT || !io.tensors[i]) continue;
        const tl_tensor_t *t = io.tensors[i];
        tl_buf_printf(out, "%s[", prm->name);
        for (int d = 0; d < t->ndim; d++)
            tl_buf_printf(out, "%s%lld", d ? "," : "", (long long)t->shape[d]);
        tl_buf_puts(out, "]=");
        tl_buf_putn(out, (const char *)t->data, tl_tensor_nbytes(t));
    }
    tl_check_io_free(&io);
    return st;
}

bool pk_same_results(const pk_spec_t *s, const pk_pass_fn *passes, uint64_t seed, pk_t *got,
                     tl_buf_t *why)
{
    pk_t ref;
    tl_buf_t a, b;
    tl_buf_init(&a);
    tl_buf_init(&b);
    bool ok = false;
    tl_status_t st1 = pk_compile(&ref, s, NULL), st2 = pk_compile(got, s, passes);
    if (st1 != TL_OK || st2 != TL_OK)
        tl_buf_printf(why, "compile failed:\n%s%s", tl_diag_text(&ref.d), tl_diag_text(&got->d));
    else if (pk_run(&ref, s, seed, &a) != TL_OK || pk_run(got, s, seed, &b) != TL_OK)
        tl_buf_printf(why, "run failed:\n%s%s", tl_diag_text(&ref.d), tl_diag_text(&got->d));
    else if (!a.len)
        tl_buf_puts(why, "the kernel has no outputs");
    else if (a.len != b.len || memcmp(a.data, b.data, a.len))
        tl_buf_printf(why, "results differ from the unpassed kernel's; IR after the passes:\n%s",
                      tl_buf_cstr(&got->dump));
    else
        ok = true;
    tl_buf_free(&a);
    tl_buf_free(&b);
    pk_free(&ref);
    return ok;
}

static int count_stmts(const tl_stmt_t *s, bool (*pred)(const tl_stmt_t *s))
{
    if (!s) return 0;
    int n = pred(s) ? 1 : 0;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) n += count_stmts(s->seq.items[i], pred);
        break;
    case TL_ST_FOR: n += count_stmts(s->for_.body, pred); break;
    case TL_ST_WHILE: n += count_stmts(s->while_.body, pred); break;
    case TL_ST_IF: n += count_stmts(s->if_.then_, pred) + count_stmts(s->if_.else_, pred); break;
    case TL_ST_SCOPE: n += count_stmts(s->scope.body, pred); break;
    default: break;
    }
    return n;
}

int pk_count(const tl_kernel_t *k, bool (*pred)(const tl_stmt_t *s))
{
    return count_stmts(k->body, pred);
}

tl_buffer_t *pk_buffer(const tl_kernel_t *k, const char *name)
{
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (!strcmp(b->name, name)) return b;
    }
    return NULL;
}

const char *pk_dump(const pk_t *p)
{
    return tl_buf_cstr((tl_buf_t *)&p->dump);
}

int pk_occurrences(const pk_t *p, const char *what)
{
    int n = 0;
    for (const char *d = pk_dump(p); (d = strstr(d, what)); d++) n++;
    return n;
}
