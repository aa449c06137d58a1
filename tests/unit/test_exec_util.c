// The IR builder behind the executor tests (see test_exec_util.h).
#include "test_exec_util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void kb_init(kb_t *b, const char *name)
{
    memset(b, 0, sizeof *b);
    tl_arena_init(&b->arena);
    tl_buf_t text;
    tl_buf_init(&text);
    for (int i = 1; i <= 99; i++) tl_buf_printf(&text, "    stmt %d\n", i);
    b->src = tl_source_from_string("k.py", tl_buf_cstr(&text));
    tl_buf_free(&text);
    tl_diag_init(&b->d);
    b->k = tl_ir_kernel_new(&b->arena, name, kb_loc(b, 1));
    b->k->params = tl_arena_alloc(&b->arena, sizeof(tl_param_t) * KB_MAX_PARAMS);
    b->k->grid = kb_i(b, 1);
    b->k->cid = tl_ir_var(b->k, "cid", TL_I32, TL_VAR_BLOCK, kb_loc(b, 1));
    b->k->vid = tl_ir_var(b->k, "vid", TL_I32, TL_VAR_SUBBLOCK, kb_loc(b, 1));
    b->k->body = tl_ir_seq(b->k, kb_loc(b, 1));
    b->stack[0] = b->k->body;
}

void kb_free(kb_t *b)
{
    tl_exec_destroy(b->x);
    for (int i = 0; i < b->ntensors; i++) tl_tensor_destroy(b->tensors[i]);
    tl_diag_free(&b->d);
    tl_source_free(b->src);
    tl_arena_free(&b->arena);
}

static tl_loc_t noloc(kb_t *b)
{
    tl_loc_t l = {b->src, 0, 0};
    return l;
}

tl_loc_t kb_loc(kb_t *b, int line)
{
    tl_loc_t l = {b->src, line, 5};
    return l;
}

void kb_grid(kb_t *b, tl_expr_t *n)
{
    b->k->grid = n;
}

tl_expr_t *kb_i(kb_t *b, int64_t v)
{
    return tl_ir_int(b->k, v, TL_I32, noloc(b));
}

tl_expr_t *kb_it(kb_t *b, int64_t v, tl_dtype_t t)
{
    return tl_ir_int(b->k, v, t, noloc(b));
}

tl_expr_t *kb_f(kb_t *b, double v, tl_dtype_t t)
{
    return tl_ir_float(b->k, v, t, noloc(b));
}

tl_expr_t *kb_v(kb_t *b, tl_var_t *v)
{
    return tl_ir_varref(b->k, v, noloc(b));
}

tl_expr_t *kb_bin(kb_t *b, tl_binop_t op, tl_expr_t *x, tl_expr_t *y)
{
    return tl_ir_bin(b->k, op, x, y, noloc(b));
}

tl_expr_t *kb_un(kb_t *b, tl_unop_t op, tl_expr_t *x)
{
    return tl_ir_un(b->k, op, x, noloc(b));
}

tl_expr_t *kb_cast(kb_t *b, tl_dtype_t t, tl_expr_t *x)
{
    return tl_ir_cast(b->k, t, x, noloc(b));
}

tl_expr_t *kb_bin_at(kb_t *b, int line, tl_binop_t op, tl_expr_t *x, tl_expr_t *y)
{
    return tl_ir_bin(b->k, op, x, y, kb_loc(b, line));
}

tl_expr_t *kb_cid(kb_t *b)
{
    return kb_v(b, b->k->cid);
}

tl_expr_t *kb_vid(kb_t *b)
{
    return kb_v(b, b->k->vid);
}

tl_expr_t *kb_load1(kb_t *b, tl_buffer_t *buf, tl_expr_t *i0)
{
    return tl_ir_load(b->k, buf, 1, &i0, noloc(b));
}

tl_expr_t *kb_load2(kb_t *b, tl_buffer_t *buf, tl_expr_t *i0, tl_expr_t *i1)
{
    tl_expr_t *idx[2] = {i0, i1};
    return tl_ir_load(b->k, buf, 2, idx, noloc(b));
}

tl_var_t *kb_dim(kb_t *b, const char *name)
{
    return tl_ir_var(b->k, name, TL_I32, TL_VAR_DIM, kb_loc(b, 1));
}

tl_buffer_t *kb_tensor(kb_t *b, const char *name, tl_param_role_t role, tl_dtype_t t, int ndim,
                       tl_expr_t *s0, tl_expr_t *s1)
{
    tl_kernel_t *k = b->k;
    tl_buffer_t *buf = tl_ir_buffer(k, name, TL_SCOPE_GM, t, ndim, NULL, kb_loc(b, 1));
    buf->gm_shape[0] = s0;
    if (ndim > 1) buf->gm_shape[1] = s1;
    for (int i = 0; i < ndim; i++) tl_ir_is_const_int(buf->gm_shape[i], &buf->shape[i]);
    buf->param = k->nparams;
    k->params[k->nparams++] = (tl_param_t){buf->name, role, buf, NULL};
    return buf;
}

tl_var_t *kb_param(kb_t *b, const char *name, tl_dtype_t t)
{
    tl_kernel_t *k = b->k;
    tl_var_t *v = tl_ir_var(k, name, t, TL_VAR_PARAM, kb_loc(b, 1));
    k->params[k->nparams++] = (tl_param_t){v->name, TL_ROLE_INPUT, NULL, v};
    return v;
}

tl_buffer_t *kb_buf(kb_t *b, const char *name, tl_scope_t scope, tl_dtype_t t, int64_t n0,
                    int64_t n1)
{
    int64_t shape[2] = {n0, n1};
    return tl_ir_buffer(b->k, name, scope, t, n1 ? 2 : 1, shape, kb_loc(b, 1));
}

tl_buffer_t *kb_var(kb_t *b, const char *name, tl_dtype_t t, tl_expr_t *init)
{
    int64_t one = 1;
    tl_buffer_t *buf = tl_ir_buffer(b->k, name, TL_SCOPE_VAR, t, 1, &one, kb_loc(b, 1));
    buf->init = init;
    return buf;
}

static void add(kb_t *b, tl_stmt_t *s)
{
    tl_ir_seq_push(b->k, b->stack[b->depth], s);
}

// Opens the body list of compound statement s.
static tl_stmt_t *open_body(kb_t *b, tl_stmt_t *s, int line)
{
    tl_stmt_t *body = tl_ir_seq(b->k, kb_loc(b, line));
    b->depth++;
    b->stack[b->depth] = body;
    b->owner[b->depth] = s;
    return body;
}

static void store(kb_t *b, int line, tl_buffer_t *buf, int n, tl_expr_t **idx, tl_expr_t *value)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_STORE, kb_loc(b, line));
    s->store.buf = buf;
    s->store.n = n;
    s->store.idx = tl_arena_dup(&b->arena, idx, sizeof *idx * (size_t)(n ? n : 1));
    s->store.value = value;
    add(b, s);
}

void kb_store1(kb_t *b, int line, tl_buffer_t *buf, tl_expr_t *i0, tl_expr_t *value)
{
    store(b, line, buf, 1, &i0, value);
}

void kb_store2(kb_t *b, int line, tl_buffer_t *buf, tl_expr_t *i0, tl_expr_t *i1, tl_expr_t *value)
{
    tl_expr_t *idx[2] = {i0, i1};
    store(b, line, buf, 2, idx, value);
}

void kb_setvar(kb_t *b, int line, tl_buffer_t *var, tl_expr_t *value)
{
    kb_store1(b, line, var, kb_i(b, 0), value);
}

tl_var_t *kb_let(kb_t *b, int line, const char *name, tl_expr_t *value)
{
    tl_var_t *v = tl_ir_var(b->k, name, value->dtype, TL_VAR_LET, kb_loc(b, line));
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_LET, kb_loc(b, line));
    s->let.var = v;
    s->let.value = value;
    add(b, s);
    return v;
}

tl_var_t *kb_for(kb_t *b, int line, const char *name, tl_expr_t *start, tl_expr_t *end)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_FOR, kb_loc(b, line));
    s->for_.var = tl_ir_var(b->k, name, TL_I32, TL_VAR_LOOP, kb_loc(b, line));
    s->for_.start = start;
    s->for_.end = end;
    add(b, s);
    s->for_.body = open_body(b, s, line);
    return s->for_.var;
}

void kb_while(kb_t *b, int line, tl_expr_t *cond)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_WHILE, kb_loc(b, line));
    s->while_.cond = cond;
    add(b, s);
    s->while_.body = open_body(b, s, line);
}

void kb_if(kb_t *b, int line, tl_expr_t *cond)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_IF, kb_loc(b, line));
    s->if_.cond = cond;
    add(b, s);
    s->if_.then_ = open_body(b, s, line);
}

void kb_else(kb_t *b)
{
    tl_stmt_t *s = b->owner[b->depth];
    b->depth--;
    s->if_.else_ = open_body(b, s, s->loc.line);
}

void kb_scope(kb_t *b, int line, tl_side_t side)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_SCOPE, kb_loc(b, line));
    s->scope.side = side;
    add(b, s);
    s->scope.body = open_body(b, s, line);
}

void kb_end(kb_t *b)
{
    b->depth--;
}

void kb_stmt(kb_t *b, int line, tl_stmt_kind_t kind)
{
    add(b, tl_ir_stmt(b->k, kind, kb_loc(b, line)));
}

void kb_sync(kb_t *b, int line, tl_sync_kind_t kind, tl_pipe_t src, tl_pipe_t dst, int64_t id,
             int mode)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_SYNC, kb_loc(b, line));
    s->sync.kind = kind;
    s->sync.src = src;
    s->sync.dst = dst;
    s->sync.id = id >= 0 ? kb_i(b, id) : NULL;
    s->sync.mode = mode;
    add(b, s);
}

void kb_cross_set(kb_t *b, int line, tl_pipe_t pipe, int64_t id, int mode)
{
    kb_sync(b, line, TL_SYNC_SET_CROSS, pipe, TL_PIPE_NONE, id, mode);
}

void kb_cross_wait(kb_t *b, int line, int64_t id)
{
    kb_sync(b, line, TL_SYNC_WAIT_CROSS, TL_PIPE_NONE, TL_PIPE_NONE, id, 0);
}

void kb_printf(kb_t *b, int line, const char *fmt, tl_expr_t *arg)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_PRINT, kb_loc(b, line));
    s->print.fmt = tl_arena_strdup(&b->arena, fmt);
    s->print.n = arg ? 1 : 0;
    s->print.args = tl_arena_alloc(&b->arena, sizeof(tl_expr_t *));
    s->print.args[0] = arg;
    add(b, s);
}

// The region of a whole-buffer or start-point argument.
static void region_of(kb_t *b, int line, const kb_arg_t *arg, tl_region_t *r)
{
    tl_buffer_t *buf = arg->buf;
    bool point = arg->at[0] != NULL;
    r->buf = buf;
    r->form = point ? TL_REGION_POINT : TL_REGION_WHOLE;
    r->ndim = buf->ndim;
    r->loc = kb_loc(b, line);
    for (int d = 0; d < buf->ndim; d++) {
        r->start[d] = point ? arg->at[d] : kb_i(b, 0);
        r->extent[d] = point              ? kb_i(b, 1)
                       : buf->gm_shape[d] ? buf->gm_shape[d]
                                          : kb_i(b, buf->shape[d]);
    }
}

void kb_dump(kb_t *b, int line, const char *desc, tl_buffer_t *buf)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_PRINT, kb_loc(b, line));
    s->print.fmt = tl_arena_strdup(&b->arena, desc);
    s->print.region = tl_arena_alloc(&b->arena, sizeof(tl_region_t));
    kb_arg_t arg = KB_BUF(buf);
    region_of(b, line, &arg, s->print.region);
    add(b, s);
}

tl_stmt_t *kb_op(kb_t *b, int line, tl_opcode_t code, int nargs, const kb_arg_t *args)
{
    tl_stmt_t *s = tl_ir_stmt(b->k, TL_ST_OP, kb_loc(b, line));
    s->op.code = code;
    s->op.nargs = nargs;
    s->op.args = tl_arena_alloc(&b->arena, sizeof(tl_arg_t) * (size_t)nargs);
    for (int i = 0; i < nargs; i++) {
        tl_arg_t *a = &s->op.args[i];
        if (args[i].buf) {
            a->kind = TL_ARG_REGION;
            region_of(b, line, &args[i], &a->region);
        } else {
            a->kind = TL_ARG_SCALAR;
            a->scalar = args[i].expr;
        }
    }
    add(b, s);
    return s;
}

tl_status_t kb_exec(kb_t *b, const tl_exec_opts_t *opts)
{
    return tl_exec_create(&b->x, b->k, opts, &b->d);
}

tl_status_t kb_run(kb_t *b)
{
    if (!b->x) {
        tl_status_t st = kb_exec(b, NULL);
        if (st) return st;
    }
    return tl_exec_run(b->x);
}

tl_tensor_t *kb_new_tensor(kb_t *b, tl_dtype_t t, int ndim, int64_t s0, int64_t s1)
{
    int64_t shape[2] = {s0, s1};
    tl_tensor_t *x = NULL;
    if (tl_tensor_create(&x, t, ndim, shape, &b->d) != TL_OK) return NULL;
    if (b->ntensors < KB_MAX_TENSORS) b->tensors[b->ntensors++] = x;
    return x;
}

const char *kb_text(kb_t *b)
{
    return tl_diag_text(&b->d);
}
