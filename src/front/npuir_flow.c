// npuir's tensors between the cube and the vector cores.
//
// In upstream's npuir dialect (target="npuir", Developer mode) a T.alloc_shared /
// T.alloc_fragment buffer is a tensor value: bishengir decides where it lives and
// moves it between the cores itself (through a GM workspace). One buffer may be a
// GEMM's accumulator and a vector op's operand (flash attention's `scores`:
// T.gemm(..., scores, initC=True) then T.vmul(scores, ...)), a vector op's result
// and a GEMM operand (`T.vcast(scores, scores_cast)`, T.gemm(scores_cast, V, ...)),
// or an accumulator the vector cores rescale between GEMMs (`T.vmul(acc_o, c,
// acc_o)`, T.gemm(p, V, acc_o, initC=False): C += A x B on the rescaled value).
//
// tilec's IR gives every buffer one physical scope, so this pass (run on the
// traced npuir kernel, before verification) keeps such a buffer on the vector side
// (UB) and gives its cube uses twins, with the moves bishengir makes:
//   - A / B operand: a twin in L1, copied from the buffer before the GEMM;
//   - C (accumulator): the GEMM writes a twin in L0C with initC=True, which is then
//     copied into the buffer (initC) or into a UB temporary added into it (C += A x B),
//     both under `if initC` when initC is a run-time value.
// The workspace pass then routes UB -> L1 and L0C -> UB through GM, cv_split and the
// automatic sync passes place the cores' hand-offs. Also: a fragment the vector cores
// compute on lives in UB (npuir's fragments are not accumulators only), a shared
// buffer used only as an accumulator in L0C; a copy from UB into GM between element types
// casts the source first (as bishengir does).
#include "front/front.h"

#include <stdlib.h>
#include <string.h>

enum { U_AB = 1, U_C = 2, U_VEC = 4 };

typedef struct {
    tl_eval_t *ev;
    tl_kernel_t *k;
    int n;                             // buffers before the pass (twins come after)
    unsigned *use;                     // per buffer id
    tl_buffer_t **l1, **l0c, **tmp_ub; // twins per buffer id
} flow_t;

static void use_expr(flow_t *f, const tl_expr_t *e)
{
    if (!e) return;
    switch (e->kind) {
    case TL_EX_LOAD:
        f->use[e->load.buf->id] |= U_VEC;
        for (int i = 0; i < e->load.n; i++) use_expr(f, e->load.idx[i]);
        break;
    case TL_EX_BIN:
        use_expr(f, e->op.a);
        use_expr(f, e->op.b);
        break;
    case TL_EX_UN: use_expr(f, e->op.a); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: use_expr(f, e->arg); break;
    case TL_EX_SELECT:
        use_expr(f, e->sel.cond);
        use_expr(f, e->sel.a);
        use_expr(f, e->sel.b);
        break;
    default: break;
    }
}

static void use_op(flow_t *f, const tl_op_t *op)
{
    tl_opclass_t cls = tl_op_info(op->code)->cls;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_SCALAR) {
            use_expr(f, a->scalar);
            continue;
        }
        for (int d = 0; d < a->region.ndim; d++) {
            use_expr(f, a->region.start[d]);
            use_expr(f, a->region.extent[d]);
        }
        unsigned *u = &f->use[a->region.buf->id];
        if (cls == TL_OPC_GEMM) *u |= i == 2 ? U_C : U_AB;
        else if (cls == TL_OPC_VEC || cls == TL_OPC_REDUCE) *u |= U_VEC;
    }
    if (op->init) use_expr(f, op->init);
    // a copy between two vector-side tiles (UB or npuir tensors: T.reshape's, UB -> UB)
    // keeps both on the vector side
    if (cls == TL_OPC_COPY && op->nargs == 2 && op->args[0].kind == TL_ARG_REGION && op->args[1].kind == TL_ARG_REGION) {
        const tl_buffer_t *a = op->args[0].region.buf, *b = op->args[1].region.buf;
        bool va = a->scope == TL_SCOPE_UB || a->scope == TL_SCOPE_SHARED || a->scope == TL_SCOPE_FRAGMENT;
        bool vb = b->scope == TL_SCOPE_UB || b->scope == TL_SCOPE_SHARED || b->scope == TL_SCOPE_FRAGMENT;
        if (va && vb) f->use[a->id] |= U_VEC, f->use[b->id] |= U_VEC;
    }
}

static void scan(flow_t *f, const tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) scan(f, s->seq.items[i]);
        break;
    case TL_ST_FOR:
        use_expr(f, s->for_.start);
        use_expr(f, s->for_.end);
        scan(f, s->for_.body);
        break;
    case TL_ST_WHILE:
        use_expr(f, s->while_.cond);
        scan(f, s->while_.body);
        break;
    case TL_ST_IF:
        use_expr(f, s->if_.cond);
        scan(f, s->if_.then_);
        scan(f, s->if_.else_);
        break;
    case TL_ST_LET: use_expr(f, s->let.value); break;
    case TL_ST_STORE:
        if (s->store.buf->scope != TL_SCOPE_VAR) f->use[s->store.buf->id] |= U_VEC;
        for (int i = 0; i < s->store.n; i++) use_expr(f, s->store.idx[i]);
        use_expr(f, s->store.value);
        break;
    case TL_ST_OP: use_op(f, &s->op); break;
    case TL_ST_SCOPE: scan(f, s->scope.body); break;
    default: break;
    }
}

static bool is_dev(const tl_buffer_t *b)
{
    return b->scope == TL_SCOPE_SHARED || b->scope == TL_SCOPE_FRAGMENT;
}

// Whether buffer b keeps its value on the vector side with twins for its cube uses.
static bool twinned(const flow_t *f, const tl_buffer_t *b)
{
    if (b->id >= f->n) return false;
    unsigned u = f->use[b->id];
    return b->scope == TL_SCOPE_UB && (u & (U_AB | U_C));
}

static tl_buffer_t *twin(flow_t *f, tl_buffer_t **slot, const tl_buffer_t *b, tl_scope_t scope, const char *suffix)
{
    if (slot[b->id]) return slot[b->id];
    const char *name = tl_trace_unique_name(f->ev, tl_arena_printf(f->ev->arena, "%s_%s", b->name, suffix));
    tl_buffer_t *t = tl_ir_buffer(f->k, name, scope, b->dtype, b->ndim, b->shape, b->loc);
    slot[b->id] = t;
    return t;
}

static tl_stmt_t *op_stmt(flow_t *f, tl_opcode_t code, tl_loc_t loc, int nargs)
{
    tl_stmt_t *s = tl_ir_stmt(f->k, TL_ST_OP, loc);
    s->op.code = code;
    s->op.nargs = nargs;
    s->op.args = tl_arena_alloc(f->ev->arena, sizeof(tl_arg_t) * (size_t)nargs);
    s->op.dim = -1;
    s->op.clear = true;
    s->op.round = TL_CAST_RINT;
    s->inserted = true;
    return s;
}

static tl_arg_t region_arg(const tl_region_t *r, tl_buffer_t *buf)
{
    tl_arg_t a = {.kind = TL_ARG_REGION};
    a.region = *r;
    a.region.buf = buf;
    return a;
}

// copy(src region of `from` -> the same region of `to`), npuir's exact copy
static tl_stmt_t *copy_to(flow_t *f, const tl_region_t *r, tl_buffer_t *from, tl_buffer_t *to, tl_loc_t loc)
{
    tl_stmt_t *s = op_stmt(f, TL_OP_COPY, loc, 2);
    s->op.args[0] = region_arg(r, from);
    s->op.args[1] = region_arg(r, to);
    s->op.exact = true;
    return s;
}

// A GEMM with twinned operands, as the statements bishengir's moves make of it.
static tl_stmt_t *rewrite_gemm(flow_t *f, tl_stmt_t *g)
{
    tl_op_t *op = &g->op;
    bool any = false;
    for (int i = 0; i < 3; i++) any = any || twinned(f, op->args[i].region.buf);
    if (!any) return g;
    tl_loc_t loc = g->loc;
    tl_stmt_t *seq = tl_ir_seq(f->k, loc);
    for (int i = 0; i < 2; i++) {
        tl_region_t *r = &op->args[i].region;
        if (!twinned(f, r->buf)) continue;
        tl_buffer_t *t = twin(f, f->l1, r->buf, TL_SCOPE_L1, "l1");
        tl_ir_seq_push(f->k, seq, copy_to(f, r, r->buf, t, loc));
        r->buf = t;
    }
    tl_region_t *c = &op->args[2].region;
    if (!twinned(f, c->buf)) {
        tl_ir_seq_push(f->k, seq, g);
        return seq;
    }
    tl_buffer_t *home = c->buf, *acc = twin(f, f->l0c, home, TL_SCOPE_L0C, "l0c");
    tl_region_t cr = *c;
    tl_expr_t *init = op->init; // NULL: accumulate
    c->buf = acc;
    op->init = tl_ir_int(f->k, 1, TL_BOOL, loc);
    tl_ir_seq_push(f->k, seq, g);
    int64_t iv = 0;
    bool const_init = init && tl_ir_is_const_int(init, &iv) && iv != 0;
    tl_stmt_t *set = copy_to(f, &cr, acc, home, loc);
    if (const_init) {
        tl_ir_seq_push(f->k, seq, set);
        return seq;
    }
    // C += A x B: the product into a UB temporary, added into the buffer
    tl_buffer_t *tmp = twin(f, f->tmp_ub, home, TL_SCOPE_UB, "prod");
    tl_stmt_t *add = tl_ir_seq(f->k, loc);
    tl_ir_seq_push(f->k, add, copy_to(f, &cr, acc, tmp, loc));
    tl_stmt_t *sum = op_stmt(f, TL_OP_ADD, loc, 3);
    sum->op.args[0] = region_arg(&cr, home);
    sum->op.args[1] = region_arg(&cr, home);
    sum->op.args[2] = region_arg(&cr, tmp);
    tl_ir_seq_push(f->k, add, sum);
    if (!init) {
        tl_ir_seq_push(f->k, seq, add);
        return seq;
    }
    tl_stmt_t *branch = tl_ir_stmt(f->k, TL_ST_IF, loc);
    branch->inserted = true;
    branch->if_.cond = init;
    branch->if_.then_ = set;
    branch->if_.else_ = add;
    tl_ir_seq_push(f->k, seq, branch);
    return seq;
}

// An npuir copy between GM and UB of different element types: bishengir casts the source
// tensor (hivm vcast, RINT; codegen_npuir_dev.cc CreateCastIfTypeMismatch). UB -> GM: the
// whole tile is cast into a UB twin of the destination's type, which is copied; GM -> UB:
// the region is loaded into a UB twin of the source's type and cast into the destination.
// A UB tile like b (its shape) of element type t, named after both.
static tl_buffer_t *ub_like(flow_t *f, const tl_buffer_t *b, tl_dtype_t t)
{
    const char *name = tl_trace_unique_name(f->ev, tl_arena_printf(f->ev->arena, "%s_%s", b->name, tl_dtype_name(t)));
    return tl_ir_buffer(f->k, name, TL_SCOPE_UB, t, b->ndim, b->shape, b->loc);
}

// cast(region r of `from` -> the same region of `to`): RINT, or CAST_NONE where Ascend's cast
// between the two types takes only that (no rounding choice)
static tl_stmt_t *cast_to(flow_t *f, const tl_region_t *r, tl_buffer_t *from, tl_buffer_t *to, tl_loc_t loc)
{
    tl_stmt_t *cast = op_stmt(f, TL_OP_CAST, loc, 2);
    cast->op.args[0] = region_arg(r, to);
    cast->op.args[1] = region_arg(r, from);
    if (!tl_cast_on_ascend(to->dtype, from->dtype, TL_CAST_RINT, NULL) &&
        tl_cast_on_ascend(to->dtype, from->dtype, TL_CAST_NONE, NULL))
        cast->op.round = TL_CAST_NONE;
    return cast;
}

static tl_stmt_t *rewrite_copy(flow_t *f, tl_stmt_t *s)
{
    tl_op_t *op = &s->op;
    if (op->code != TL_OP_COPY || !op->exact || op->nargs != 2) return s;
    tl_region_t *src = &op->args[0].region, *dst = &op->args[1].region;
    bool load = src->buf->scope == TL_SCOPE_GM && dst->buf->scope == TL_SCOPE_UB;
    bool store = src->buf->scope == TL_SCOPE_UB && dst->buf->scope == TL_SCOPE_GM;
    if (src->buf->dtype == dst->buf->dtype || !(load || store)) return s;
    tl_stmt_t *seq = tl_ir_seq(f->k, s->loc);
    if (load) { // the region loaded into a tile of the source's type, then cast into dst
        tl_buffer_t *b = dst->buf, *t = ub_like(f, b, src->buf->dtype);
        tl_region_t dr = *dst;
        dst->buf = t;
        tl_ir_seq_push(f->k, seq, s);
        tl_ir_seq_push(f->k, seq, cast_to(f, &dr, t, b, s->loc));
        return seq;
    }
    // the whole source tile cast into a tile of the destination's type, which is copied
    tl_buffer_t *b = src->buf, *t = ub_like(f, b, dst->buf->dtype);
    tl_region_t whole = *src;
    for (int d = 0; d < whole.ndim; d++) {
        whole.start[d] = tl_ir_int(f->k, 0, TL_I32, s->loc);
        whole.extent[d] = tl_ir_int(f->k, b->shape[d], TL_I32, s->loc);
    }
    whole.form = TL_REGION_WHOLE;
    tl_ir_seq_push(f->k, seq, cast_to(f, &whole, b, t, s->loc));
    src->buf = t;
    tl_ir_seq_push(f->k, seq, s);
    return seq;
}

static void rewrite(flow_t *f, tl_stmt_t **sp)
{
    tl_stmt_t *s = *sp;
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) rewrite(f, &s->seq.items[i]);
        break;
    case TL_ST_FOR: rewrite(f, &s->for_.body); break;
    case TL_ST_WHILE: rewrite(f, &s->while_.body); break;
    case TL_ST_IF:
        rewrite(f, &s->if_.then_);
        rewrite(f, &s->if_.else_);
        break;
    case TL_ST_SCOPE: rewrite(f, &s->scope.body); break;
    case TL_ST_OP:
        if (tl_op_info(s->op.code)->cls == TL_OPC_GEMM) *sp = rewrite_gemm(f, s);
        else *sp = rewrite_copy(f, s);
        break;
    default: break;
    }
}

void tl_front_npuir_flow(tl_eval_t *ev, tl_kernel_t *k)
{
    int n = k->buffers.len;
    flow_t f = {ev, k, n, calloc((size_t)n + 1, sizeof(unsigned)), calloc((size_t)n + 1, sizeof(tl_buffer_t *)),
                calloc((size_t)n + 1, sizeof(tl_buffer_t *)), calloc((size_t)n + 1, sizeof(tl_buffer_t *))};
    if (f.use && f.l1 && f.l0c && f.tmp_ub) {
        scan(&f, k->body);
        for (int i = 0; i < n; i++) {
            tl_buffer_t *b = k->buffers.items[i];
            unsigned u = f.use[b->id];
            if (!is_dev(b)) continue;
            if ((u & U_VEC) || ((u & U_AB) && (u & U_C)))
                b->scope = TL_SCOPE_UB; // the vector side holds the value
            else if ((u & U_C) && b->scope == TL_SCOPE_SHARED)
                b->scope = TL_SCOPE_FRAGMENT; // an accumulator only: L0C
        }
        rewrite(&f, &k->body);
    }
    free(f.use);
    free(f.l1);
    free(f.l0c);
    free(f.tmp_ub);
}
