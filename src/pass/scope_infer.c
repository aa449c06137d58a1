// scope_infer: gives every developer-mode buffer a physical scope.
//
// requires: traced IR (buffers may still be TL_SCOPE_SHARED / TL_SCOPE_FRAGMENT)
// ensures:  no buffer is SHARED or FRAGMENT; conflicting uses are errors
//
// Rules (classification by the op table and operand roles, never by names):
//   fragment: gemm_v0/mma operand C -> L0C; mma A -> L0A, mma B -> L0B; copied
//             from L1 as a matrix operand (`transpose` copy) -> L0A/L0B by its
//             consumer; otherwise L0C.
//   shared:   operand A/B of gemm_v0, or the source of a copy into L0A/L0B -> L1;
//             operand of a vector op or reduction, or read/written by scalar
//             code -> UB; used only by copies -> the scope of the copy peers
//             (a copy from/to an L1 buffer that feeds the cube stays L1 only if
//             the cube reads it), otherwise UB.
// A buffer that both the cube and the vector side compute on is rejected with
// both uses located: on Ascend the two sides have no shared scratchpad.
#include "pass/pass.h"

#include <stdlib.h>
#include <string.h>

enum { USE_CUBE = 1, USE_VEC = 2, USE_L0A = 4, USE_L0B = 8, USE_L0C = 16 };

typedef struct {
    unsigned flags;
    tl_loc_t cube_loc, vec_loc;
} use_t;

typedef struct {
    tl_kernel_t *k;
    use_t *uses; // per buffer id
    // copy edges between two developer buffers, resolved after the direct uses
    int ncopies, capcopies;
    int (*copies)[2];
} infer_t;

static void mark(infer_t *s, const tl_buffer_t *b, unsigned flag, tl_loc_t loc)
{
    use_t *u = &s->uses[b->id];
    if ((flag & USE_CUBE) && !(u->flags & USE_CUBE)) u->cube_loc = loc;
    if ((flag & USE_VEC) && !(u->flags & USE_VEC)) u->vec_loc = loc;
    u->flags |= flag;
}

static void scan_expr(infer_t *s, const tl_expr_t *e, tl_loc_t loc)
{
    if (!e) return;
    switch (e->kind) {
    case TL_EX_LOAD:
        mark(s, e->load.buf, USE_VEC, loc); // scalar reads of on-chip data are vector-side (UB)
        for (int i = 0; i < e->load.n; i++) scan_expr(s, e->load.idx[i], loc);
        break;
    case TL_EX_BIN:
        scan_expr(s, e->op.a, loc);
        scan_expr(s, e->op.b, loc);
        break;
    case TL_EX_UN: scan_expr(s, e->op.a, loc); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: scan_expr(s, e->arg, loc); break;
    case TL_EX_SELECT:
        scan_expr(s, e->sel.cond, loc);
        scan_expr(s, e->sel.a, loc);
        scan_expr(s, e->sel.b, loc);
        break;
    default: break;
    }
}

static void add_copy(infer_t *s, const tl_buffer_t *a, const tl_buffer_t *b)
{
    if (s->ncopies == s->capcopies) {
        s->capcopies = s->capcopies ? s->capcopies * 2 : 16;
        s->copies = realloc(s->copies, sizeof *s->copies * (size_t)s->capcopies);
    }
    s->copies[s->ncopies][0] = a->id;
    s->copies[s->ncopies][1] = b->id;
    s->ncopies++;
}

static void scan_op(infer_t *s, const tl_stmt_t *st)
{
    const tl_op_t *op = &st->op;
    const tl_opinfo_t *info = tl_op_info(op->code);
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_SCALAR) {
            scan_expr(s, a->scalar, st->loc);
            continue;
        }
        for (int d = 0; d < a->region.ndim; d++) {
            scan_expr(s, a->region.start[d], st->loc);
            scan_expr(s, a->region.extent[d], st->loc);
        }
    }
    switch (info->cls) {
    case TL_OPC_GEMM: {
        bool mma = op->code == TL_OP_MMA;
        mark(s, op->args[0].region.buf, USE_CUBE | (mma ? USE_L0A : 0), st->loc);
        mark(s, op->args[1].region.buf, USE_CUBE | (mma ? USE_L0B : 0), st->loc);
        mark(s, op->args[2].region.buf, USE_CUBE | USE_L0C, st->loc);
        break;
    }
    case TL_OPC_VEC:
    case TL_OPC_REDUCE:
        for (int i = 0; i < op->nargs; i++)
            if (op->args[i].kind == TL_ARG_REGION) mark(s, op->args[i].region.buf, USE_VEC, st->loc);
        break;
    case TL_OPC_COPY: {
        if (op->nargs < 2) break;
        const tl_buffer_t *src = op->args[0].region.buf, *dst = op->args[1].region.buf;
        if (op->code == TL_OP_COPY_PA) { // copy_pa(dst, kv, ...): dst is an L1 tile
            if (src->scope == TL_SCOPE_SHARED) mark(s, src, USE_CUBE, st->loc);
            break;
        }
        if (op->code == TL_OP_IM2COL) { // im2col(dst_l0a, src_l1, ...)
            if (dst->scope == TL_SCOPE_SHARED) mark(s, dst, USE_CUBE, st->loc);
            break;
        }
        if (op->code == TL_OP_ATOMIC_ADD) { // atomic_add(dst_gm, src)
            if (dst->scope == TL_SCOPE_SHARED) mark(s, dst, USE_VEC, st->loc);
            break;
        }
        // A copy into a fragment that then feeds mma makes the source an L1 tile.
        if (dst->scope == TL_SCOPE_FRAGMENT || dst->scope == TL_SCOPE_L0A || dst->scope == TL_SCOPE_L0B)
            if (src->scope == TL_SCOPE_SHARED) mark(s, src, USE_CUBE, st->loc);
        if (src->scope == TL_SCOPE_SHARED || dst->scope == TL_SCOPE_SHARED ||
            src->scope == TL_SCOPE_FRAGMENT || dst->scope == TL_SCOPE_FRAGMENT)
            add_copy(s, src, dst);
        break;
    }
    case TL_OPC_STATE: break;
    }
}

static void scan(infer_t *s, const tl_stmt_t *st)
{
    if (!st) return;
    switch (st->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < st->seq.n; i++) scan(s, st->seq.items[i]);
        break;
    case TL_ST_FOR:
        scan_expr(s, st->for_.start, st->loc);
        scan_expr(s, st->for_.end, st->loc);
        scan(s, st->for_.body);
        break;
    case TL_ST_WHILE:
        scan_expr(s, st->while_.cond, st->loc);
        scan(s, st->while_.body);
        break;
    case TL_ST_IF:
        scan_expr(s, st->if_.cond, st->loc);
        scan(s, st->if_.then_);
        scan(s, st->if_.else_);
        break;
    case TL_ST_LET: scan_expr(s, st->let.value, st->loc); break;
    case TL_ST_STORE:
        if (st->store.buf->scope != TL_SCOPE_VAR) mark(s, st->store.buf, USE_VEC, st->loc);
        for (int i = 0; i < st->store.n; i++) scan_expr(s, st->store.idx[i], st->loc);
        scan_expr(s, st->store.value, st->loc);
        break;
    case TL_ST_OP: scan_op(s, st); break;
    case TL_ST_SCOPE: scan(s, st->scope.body); break;
    case TL_ST_SYNC: scan_expr(s, st->sync.id, st->loc); break;
    default: break;
    }
}

static bool is_dev(const tl_buffer_t *b)
{
    return b->scope == TL_SCOPE_SHARED || b->scope == TL_SCOPE_FRAGMENT;
}

static tl_scope_t direct_scope(const tl_buffer_t *b, const use_t *u)
{
    if (b->scope == TL_SCOPE_FRAGMENT) {
        if (u->flags & USE_L0A) return TL_SCOPE_L0A;
        if (u->flags & USE_L0B) return TL_SCOPE_L0B;
        if (u->flags & (USE_L0C | USE_CUBE)) return TL_SCOPE_L0C;
        return TL_SCOPE_FRAGMENT; // decided by copies
    }
    if (u->flags & USE_CUBE) return TL_SCOPE_L1;
    if (u->flags & USE_VEC) return TL_SCOPE_UB;
    return TL_SCOPE_SHARED; // decided by copies
}

tl_status_t tl_pass_scope_infer(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    infer_t s = {k, calloc((size_t)k->buffers.len + 1, sizeof(use_t)), 0, 0, NULL};
    if (!s.uses) return TL_ERR_NOMEM;
    scan(&s, k->body);
    tl_status_t st = TL_OK;
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (!is_dev(b)) continue;
        use_t *u = &s.uses[i];
        if (b->scope == TL_SCOPE_SHARED && (u->flags & USE_CUBE) && (u->flags & USE_VEC)) {
            st = tl_diag_error(ctx->diag, b->loc,
                               "'%s' is used by the cube core and by the vector cores; they share no "
                               "scratchpad: allocate one buffer per side and T.copy between them",
                               b->name);
            tl_diag_note(ctx->diag, u->cube_loc, "cube use of '%s'", b->name);
            tl_diag_note(ctx->diag, u->vec_loc, "vector use of '%s'", b->name);
        }
    }
    if (st != TL_OK) {
        free(s.uses);
        free(s.copies);
        return st;
    }
    // Direct uses first, then propagate through copies until nothing changes.
    tl_scope_t *res = calloc((size_t)k->buffers.len + 1, sizeof *res);
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        res[i] = is_dev(b) ? direct_scope(b, &s.uses[i]) : b->scope;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int c = 0; c < s.ncopies; c++) {
            int a = s.copies[c][0], b = s.copies[c][1];
            for (int side = 0; side < 2; side++) {
                int me = side ? b : a, peer = side ? a : b;
                if (res[me] != TL_SCOPE_SHARED && res[me] != TL_SCOPE_FRAGMENT) continue;
                tl_scope_t p = res[peer];
                tl_scope_t want = res[me];
                if (res[me] == TL_SCOPE_SHARED) {
                    // L0C -> shared is a hand-off to the vector side; L1 peers keep
                    // cube-side copy chains on the cube; UB/GM peers pull to UB.
                    if (p == TL_SCOPE_UB || p == TL_SCOPE_L0C || p == TL_SCOPE_GM) want = TL_SCOPE_UB;
                    else if (p == TL_SCOPE_L0A || p == TL_SCOPE_L0B) want = TL_SCOPE_L1;
                } else if (p == TL_SCOPE_L1 || p == TL_SCOPE_GM || p == TL_SCOPE_UB) {
                    want = TL_SCOPE_L0C;
                }
                if (want != res[me]) {
                    res[me] = want;
                    changed = true;
                }
            }
        }
    }
    for (int i = 0; i < k->buffers.len; i++) {
        tl_buffer_t *b = k->buffers.items[i];
        if (!is_dev(b)) continue;
        if (res[i] == TL_SCOPE_SHARED) res[i] = TL_SCOPE_UB;       // only copied: a UB staging tile
        if (res[i] == TL_SCOPE_FRAGMENT) res[i] = TL_SCOPE_L0C;    // never used: an accumulator
        b->scope = res[i];
    }
    free(res);
    free(s.uses);
    free(s.copies);
    return TL_OK;
}
