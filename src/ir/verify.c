// The IR verifier: structural invariants every stage relies on. It runs after
// tracing and between passes in debug builds; every problem is reported at the
// statement's source location.
//
// Checked: buffer names unique; operand counts and kinds match the op table;
// regions have the buffer's rank and stay inside constant on-chip shapes; the
// operand scopes are legal for the op (copy paths, gemm operands, vector ops on
// UB); element counts of vector operands agree when constant; every variable is
// defined before it is used.
#include "ir/ir.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const tl_kernel_t *k;
    tl_diag_t *d;
    unsigned char *defined; // per var id
    tl_status_t st;
} verifier_t;

static void fail(verifier_t *v, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);

static void fail(verifier_t *v, tl_loc_t loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    v->st = tl_diag_vreport(v->d, TL_SEV_ERROR, loc, TL_ERR_COMPILE, fmt, ap);
    va_end(ap);
}

static void check_expr(verifier_t *v, const tl_expr_t *e)
{
    if (!e) return;
    tl_expr_t copy = *e; // every builder keeps the height (the nesting limit relies on it)
    tl_ir_fix_height(&copy);
    if (copy.height != e->height)
        fail(v, e->loc, "internal: an expression's height is %d, its operands make it %d",
             e->height, copy.height);
    switch (e->kind) {
    case TL_EX_INT:
    case TL_EX_FLOAT: break;
    case TL_EX_VAR:
        if (!v->defined[e->var->id])
            fail(v, e->loc, "'%s' is used outside the scope where it is defined", e->var->name);
        break;
    case TL_EX_LOAD:
        if (e->load.buf->int4)
            fail(v, e->loc, "cannot read an element of int4 buffer '%s': its elements are packed "
                            "two a byte and have no scalar form (read it with T.tile.cast to float16)",
                 e->load.buf->name);
        else if (e->load.buf->scope != TL_SCOPE_VAR && e->load.n != e->load.buf->ndim)
            fail(v, e->loc, "'%s' has %d dimensions but is indexed with %d", e->load.buf->name,
                 e->load.buf->ndim, e->load.n);
        for (int i = 0; i < e->load.n; i++) check_expr(v, e->load.idx[i]);
        break;
    case TL_EX_BIN:
        check_expr(v, e->op.a);
        check_expr(v, e->op.b);
        break;
    case TL_EX_UN: check_expr(v, e->op.a); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: check_expr(v, e->arg); break;
    case TL_EX_SELECT:
        check_expr(v, e->sel.cond);
        check_expr(v, e->sel.a);
        check_expr(v, e->sel.b);
        break;
    }
}

// Where an operand was written (the call when a pass made it).
static tl_loc_t arg_loc(const tl_arg_t *a, tl_loc_t call)
{
    tl_loc_t l = a->kind == TL_ARG_REGION ? a->region.loc : a->scalar ? a->scalar->loc : call;
    return l.line > 0 ? l : call;
}

static void check_region(verifier_t *v, const tl_region_t *r, tl_loc_t loc)
{
    const tl_buffer_t *b = r->buf;
    if (r->loc.line > 0) loc = r->loc;
    if (r->ndim != b->ndim) {
        fail(v, loc, "region of '%s' has rank %d, the buffer has rank %d", b->name, r->ndim,
             b->ndim);
        return;
    }
    for (int i = 0; i < r->ndim; i++) {
        check_expr(v, r->start[i]);
        check_expr(v, r->extent[i]);
        int64_t s, e;
        if (b->scope == TL_SCOPE_GM || b->scope == TL_SCOPE_VAR) continue;
        if (tl_ir_is_const_int(r->extent[i], &e) && (e < 0 || e > b->shape[i]))
            fail(v, loc, "region of '%s' has extent %" PRId64 " in dimension %d of size %" PRId64,
                 b->name, e, i, b->shape[i]);
        else if (tl_ir_is_const_int(r->start[i], &s) && tl_ir_is_const_int(r->extent[i], &e) &&
                 (s < 0 || s + e > b->shape[i]))
            fail(v, loc,
                 "region [%" PRId64 ", %" PRId64 ") of '%s' is outside dimension %d of size %" PRId64,
                 s, s + e, b->name, i, b->shape[i]);
    }
}

static bool is(tl_scope_t s, tl_scope_t want)
{
    // Developer scopes are legal wherever one of their inferred scopes is.
    if (s == want) return true;
    if (s == TL_SCOPE_SHARED) return want == TL_SCOPE_L1 || want == TL_SCOPE_UB;
    if (s == TL_SCOPE_FRAGMENT)
        return want == TL_SCOPE_L0A || want == TL_SCOPE_L0B || want == TL_SCOPE_L0C;
    return false;
}

static const tl_scope_t copy_paths[][2] = {
    {TL_SCOPE_GM, TL_SCOPE_L1},  {TL_SCOPE_GM, TL_SCOPE_UB}, {TL_SCOPE_L1, TL_SCOPE_L0A},
    {TL_SCOPE_L1, TL_SCOPE_L0B}, {TL_SCOPE_L0C, TL_SCOPE_GM}, {TL_SCOPE_UB, TL_SCOPE_GM},
    {TL_SCOPE_UB, TL_SCOPE_UB},  {TL_SCOPE_L0C, TL_SCOPE_UB}, {TL_SCOPE_UB, TL_SCOPE_L1},
};

static bool copy_path_legal(tl_scope_t s, tl_scope_t d)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(copy_paths); i++)
        if (is(s, copy_paths[i][0]) && is(d, copy_paths[i][1])) return true;
    return false;
}

// "GM or UB": the scopes a copy from `s` may go to (for messages).
static void copy_targets(tl_buf_t *b, tl_scope_t s)
{
    int n = 0;
    for (size_t i = 0; i < TL_ARRAY_LEN(copy_paths); i++)
        if (is(s, copy_paths[i][0]) && !strstr(tl_buf_cstr(b), tl_scope_name(copy_paths[i][1])))
            tl_buf_printf(b, "%s%s", n++ ? ", " : "", tl_scope_name(copy_paths[i][1]));
    if (!n) tl_buf_puts(b, "nothing");
}

static const char *alloc_hint(tl_scope_t s)
{
    switch (s) {
    case TL_SCOPE_L1: return " (allocate it with T.alloc_L1 or T.alloc_shared)";
    case TL_SCOPE_L0A: return " (allocate it with T.alloc_L0A)";
    case TL_SCOPE_L0B: return " (allocate it with T.alloc_L0B)";
    case TL_SCOPE_L0C: return " (allocate it with T.alloc_L0C or T.alloc_fragment)";
    case TL_SCOPE_UB: return " (allocate it with T.alloc_ub or T.alloc_shared)";
    default: return "";
    }
}

// T.copy_pa(dst, kv, block_table, ...): an L1 tile filled from a GM tensor of
// its dtype through an int32 GM table (exec/tileop_pa.c has the rest).
static void check_copy_pa(verifier_t *v, const tl_stmt_t *st)
{
    const tl_op_t *op = &st->op;
    static const char *role[3] = {"destination", "kv", "block_table"};
    for (int i = 0; i < 3 && i < op->nargs; i++) {
        if (op->args[i].kind != TL_ARG_REGION) {
            fail(v, arg_loc(&op->args[i], st->loc), "T.copy_pa %s must be a buffer", role[i]);
            return;
        }
        const tl_buffer_t *b = op->args[i].region.buf;
        tl_scope_t want = i == 0 ? TL_SCOPE_L1 : TL_SCOPE_GM;
        if (!is(b->scope, want)) {
            fail(v, arg_loc(&op->args[i], st->loc), "T.copy_pa %s '%s' must be in %s, not %s%s",
                 role[i], b->name, tl_scope_name(want), tl_scope_name(b->scope), alloc_hint(want));
            return;
        }
    }
    const tl_buffer_t *d = op->args[0].region.buf, *kv = op->args[1].region.buf,
                      *bt = op->args[2].region.buf;
    if (d->dtype != kv->dtype)
        fail(v, arg_loc(&op->args[1], st->loc), "T.copy_pa kv '%s' is %s, its destination '%s' %s",
             kv->name, tl_dtype_name(kv->dtype), d->name, tl_dtype_name(d->dtype));
    else if (bt->dtype != TL_I32)
        fail(v, arg_loc(&op->args[2], st->loc), "T.copy_pa block_table '%s' must be int32, not %s",
             bt->name, tl_dtype_name(bt->dtype));
    if (d->ndim < 2 || op->nargs < 11) return;
    // What the library checks at run time (exec/tileop_pa.c), here when constant.
    int64_t rows = d->shape[d->ndim - 2], cols = d->shape[d->ndim - 1], act, n, align;
    int64_t c0 = 32 / tl_dtype_size(d->dtype);
    if (tl_ir_is_const_int(op->args[10].scalar, &align) && align != (rows + 15) / 16 * 16)
        fail(v, arg_loc(&op->args[10], st->loc),
             "T.copy_pa copy_row_num_align %lld is not %lld, the rows of '%s' rounded up to 16 "
             "(its zN C0 stride): tilec keeps L1 tiles logical and supports no other",
             (long long)align, (long long)((rows + 15) / 16 * 16), d->name);
    else if (tl_ir_is_const_int(op->args[9].scalar, &n) && (n < 0 || n > rows))
        fail(v, arg_loc(&op->args[9], st->loc),
             "T.copy_pa copy_row_num %lld is not in 0..%lld, the rows of '%s'", (long long)n,
             (long long)rows, d->name);
    else if (tl_ir_is_const_int(op->args[8].scalar, &act) && (act < 0 || act > cols || act % c0))
        fail(v, arg_loc(&op->args[8], st->loc),
             "T.copy_pa act_head_dim %lld must be a multiple of %lld (a 32-byte C0 block of %s) "
             "in 0..%lld, the columns of '%s'",
             (long long)act, (long long)c0, tl_dtype_name(d->dtype), (long long)cols, d->name);
}

// T.tile.im2col(dst, src, ...): an L0A tile from an L1 feature map of its dtype
// (exec/tileop_im2col.c has the rest).
static void check_im2col(verifier_t *v, const tl_stmt_t *st)
{
    const tl_op_t *op = &st->op;
    static const char *role[2] = {"destination", "source"};
    static const tl_scope_t want[2] = {TL_SCOPE_L0A, TL_SCOPE_L1};
    for (int i = 0; i < 2 && i < op->nargs; i++) {
        const tl_buffer_t *b = op->args[i].region.buf;
        if (op->args[i].kind != TL_ARG_REGION || !is(b->scope, want[i])) {
            fail(v, arg_loc(&op->args[i], st->loc), "T.tile.im2col %s must be in %s%s", role[i],
                 tl_scope_name(want[i]), alloc_hint(want[i]));
            return;
        }
    }
    const tl_buffer_t *d = op->args[0].region.buf, *s = op->args[1].region.buf;
    if (d->dtype != s->dtype)
        fail(v, arg_loc(&op->args[1], st->loc), "T.tile.im2col source '%s' is %s, its destination '%s' %s",
             s->name, tl_dtype_name(s->dtype), d->name, tl_dtype_name(d->dtype));
    else if (s->ndim >= 1 && s->shape[s->ndim - 1] * tl_dtype_size(s->dtype) != 32)
        fail(v, arg_loc(&op->args[1], st->loc),
             "T.tile.im2col source '%s' must be an NC1HWC0 feature map whose last dimension is C0 = "
             "32 bytes (%d %s elements), not %lld",
             s->name, 32 / tl_dtype_size(s->dtype), tl_dtype_name(s->dtype),
             (long long)s->shape[s->ndim - 1]);
}

// A vector cast the device has (tl_cast_on_ascend).
static void check_cast(verifier_t *v, tl_loc_t loc, const char *api, tl_dtype_t dst, tl_dtype_t src,
                       tl_round_t mode)
{
    if (tl_cast_on_ascend(dst, src, mode, NULL)) return;
    char why[256];
    tl_cast_explain(why, sizeof why, dst, src, mode);
    fail(v, loc, "%s: %s", api, why);
}

// Element-wise vector ops: dst and sources run over the same elements.
static bool elementwise(tl_opcode_t c)
{
    return tl_op_info(c)->cls == TL_OPC_VEC && c != TL_OP_BROADCAST && c != TL_OP_GATHER &&
           c != TL_OP_COMPARE && c != TL_OP_SELECT && c != TL_OP_REINTERPRETCAST &&
           c != TL_OP_TRANSPOSE && !(c >= TL_OP_ROW_EXPAND_MUL && c <= TL_OP_ROW_EXPAND_DIV_X) &&
           !(c >= TL_OP_SIZED_FIRST && c <= TL_OP_SIZED_LAST);
}

const tl_expr_t *tl_op_count(const tl_op_t *op)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    if (!elementwise(op->code) || !strstr(info->signature, "[s]") || op->nargs != info->max_args ||
        op->args[op->nargs - 1].kind != TL_ARG_SCALAR)
        return NULL;
    return op->args[op->nargs - 1].scalar;
}

// T.tile.arith_progression's dtypes per target, as upstream compiles them (its
// arith_progression_dtype_coverage test): AscendC's ArithProgression has no
// uint16 / uint32, PTO's TCI no float16. Target auto takes either.
static void check_progression(verifier_t *v, const tl_stmt_t *st, tl_dtype_t t)
{
    const char *tg = v->k->config.target;
    bool ascendc = tg && !strcmp(tg, "ascendc"), pto = tg && !strcmp(tg, "pto");
    if ((ascendc && (t == TL_U16 || t == TL_U32)) || (pto && t == TL_F16))
        fail(v, st->loc, "T.tile.arith_progression has no %s on target %s (%s)", tl_dtype_name(t), tg,
             ascendc ? "AscendC's ArithProgression takes float16, float32, int16 and int32"
                     : "PTO's TCI takes float32, int16, int32, uint16 and uint32");
}

// T.tile.createvecindex's dtypes per target, as upstream compiles them (its
// tile_createvecindex_dtype_coverage test): AscendC's CreateVecIndex takes
// float16, float32, int16 and int32, PTO's TCI float32, int16, int32, uint16
// and uint32. Target auto takes either.
static void check_vecindex(verifier_t *v, const tl_stmt_t *st, tl_dtype_t t)
{
    const char *tg = v->k->config.target;
    bool ascendc = tg && !strcmp(tg, "ascendc"), pto = tg && !strcmp(tg, "pto");
    bool in_ascendc = t == TL_F16 || t == TL_F32 || t == TL_I16 || t == TL_I32;
    bool in_pto = t == TL_F32 || t == TL_I16 || t == TL_I32 || t == TL_U16 || t == TL_U32;
    if ((ascendc && !in_ascendc) || (pto && !in_pto) || (!in_ascendc && !in_pto))
        fail(v, st->loc, "T.tile.createvecindex has no %s%s%s (%s)", tl_dtype_name(t),
             ascendc || pto ? " on target " : "", ascendc || pto ? tg : "",
             pto ? "PTO's TCI takes float32, int16, int32, uint16 and uint32"
                 : ascendc ? "AscendC's CreateVecIndex takes float16, float32, int16 and int32"
                           : "AscendC takes float16, float32, int16, int32; PTO float32, int16, int32, uint16, uint32");
}

// T.tile.pow's dtypes, as upstream compiles them (test_tile_pow.py): AscendC's
// Power takes float16, float32 and int32 ("Pow only supports
// float16/float32/int32"), PTO's TPOW float16 and float32 only.
static void check_pow(verifier_t *v, const tl_stmt_t *st, tl_dtype_t t)
{
    const char *tg = v->k->config.target;
    bool pto = tg && !strcmp(tg, "pto");
    if (t == TL_F16 || t == TL_F32 || (t == TL_I32 && !pto)) return;
    bool named = tg && strcmp(tg, "auto"); // int16: no target takes it
    fail(v, st->loc, "T.tile.pow has no %s%s%s (%s)", tl_dtype_name(t), named ? " on target " : "", named ? tg : "",
         pto ? "PTO's TPOW takes float16 and float32" : "Pow only supports float16/float32/int32");
}

// An op with a packed int4 operand (tl_buffer_t.int4). AscendC takes int4b_t in
// data moves (DataCopy), the cube (Mmad int4b_t x int4b_t -> int32_t: asc-devkit
// Mmad.md) and one vector instruction, Cast half <-> int4b_t (Cast.md's A2/A3
// table: to int4b_t CAST_RINT/FLOOR/CEIL/ROUND/TRUNC/NONE, from it CAST_NONE).
// So: T.copy between int4 buffers (GM <-> UB, GM -> L1, UB -> UB), T.gemm_v0
// with int4 A and B into an int32 C, and T.tile.cast float16 <-> int4.
static void check_int4(verifier_t *v, const tl_stmt_t *st)
{
    const tl_op_t *op = &st->op;
    const tl_opinfo_t *info = tl_op_info(op->code);
    const tl_arg_t *a0 = &op->args[0], *a1 = op->nargs > 1 ? &op->args[1] : NULL;
    const tl_buffer_t *b0 = a0->kind == TL_ARG_REGION ? a0->region.buf : NULL;
    const tl_buffer_t *b1 = a1 && a1->kind == TL_ARG_REGION ? a1->region.buf : NULL;
    if (op->code == TL_OP_COPY && b0 && b1) {
        tl_scope_t s0 = b0->scope, s1 = b1->scope;
        bool path = (s0 == TL_SCOPE_GM && (s1 == TL_SCOPE_UB || s1 == TL_SCOPE_L1)) ||
                    (s0 == TL_SCOPE_UB && (s1 == TL_SCOPE_GM || s1 == TL_SCOPE_UB));
        if (!b0->int4 || !b1->int4)
            fail(v, arg_loc(b0->int4 ? a1 : a0, st->loc),
                 "T.copy between int4 '%s' and %s '%s': int4 copies only to and from int4 buffers "
                 "(convert with T.tile.cast float16 <-> int4)",
                 (b0->int4 ? b0 : b1)->name, tl_dtype_name((b0->int4 ? b1 : b0)->dtype),
                 (b0->int4 ? b1 : b0)->name);
        else if (s0 == TL_SCOPE_L1 && (s1 == TL_SCOPE_L0A || s1 == TL_SCOPE_L0B))
            // upstream's copy_l1_to_l0a/l0b (tl_templates/ascend/common.h, catlass
            // layouts of T) size the fractals by sizeof(int4b_t) == 1 (32 elements a
            // C0 block, s4 packs 64), and AscendC's s4 L1 -> L0B LoadData ignores
            // the transpose flag (tilelang-ascend PR #1731, which fixes only
            // gemm_v0's own loads): no int4 L1 -> L0 copy of upstream's is right
            fail(v, arg_loc(a1, st->loc),
                 "T.copy of int4 from L1 to %s is not supported: upstream's copy_l1_to_l0a/l0b "
                 "size the fractals by sizeof(int4b_t) (32 elements a 32-byte block; s4 packs 64) "
                 "and AscendC's s4 L0B load ignores the transpose (tilelang-ascend #1731 fixes "
                 "only T.gemm_v0's loads); use T.gemm_v0 on the int4 L1 tiles",
                 tl_scope_name(s1));
        else if (!path)
            fail(v, arg_loc(a1, st->loc),
                 "T.copy of int4 from %s to %s is not supported: int4 moves GM -> UB, GM -> L1, "
                 "UB -> GM and UB -> UB (the cube reads int4 L1 tiles in T.gemm_v0)",
                 tl_scope_name(s0), tl_scope_name(s1));
        else if (op->enable_relu || op->transpose || op->pad_value)
            fail(v, st->loc, "T.copy of int4 takes no enable_relu, transpose or pad_value");
        return;
    }
    if (op->code == TL_OP_GEMM_V0) {
        const tl_buffer_t *a = op->args[0].region.buf, *b = op->args[1].region.buf,
                          *c = op->args[2].region.buf;
        if (!a->int4 || !b->int4)
            fail(v, arg_loc(&op->args[a->int4 ? 1 : 0], st->loc),
                 "T.gemm_v0 with int4 operand '%s' needs both A and B int4, not %s '%s'",
                 (a->int4 ? a : b)->name, tl_dtype_name((a->int4 ? b : a)->dtype), (a->int4 ? b : a)->name);
        else if (c->int4 || c->dtype != TL_I32)
            fail(v, arg_loc(&op->args[2], st->loc),
                 "T.gemm_v0 of int4 A and B accumulates into int32 (mad_s4), C '%s' is %s", c->name,
                 c->int4 ? "int4" : tl_dtype_name(c->dtype));
        return;
    }
    if (op->code == TL_OP_CAST && b0 && b1) {
        bool to = b0->int4 && !b1->int4 && b1->dtype == TL_F16;
        bool from = b1->int4 && !b0->int4 && b0->dtype == TL_F16;
        tl_round_t m = op->round;
        if (!to && !from)
            fail(v, st->loc, "T.tile.cast of int4 converts float16 -> int4 or int4 -> float16 (the "
                             "vector Casts of int4b_t on A2/A3), not %s '%s' -> %s '%s'",
                 b1->int4 ? "int4" : tl_dtype_name(b1->dtype), b1->name,
                 b0->int4 ? "int4" : tl_dtype_name(b0->dtype), b0->name);
        else if (to ? m == TL_CAST_ODD : m != TL_CAST_NONE)
            fail(v, st->loc, "T.tile.cast %s has no mode %s on A2/A3 (it has %s)",
                 to ? "float16 -> int4" : "int4 -> float16", tl_round_name(m),
                 to ? "CAST_RINT, FLOOR, CEIL, ROUND, TRUNC, NONE" : "CAST_NONE");
        return;
    }
    const tl_buffer_t *b = NULL;
    const tl_arg_t *at = a0;
    for (int i = 0; i < op->nargs && !b; i++)
        if (op->args[i].kind == TL_ARG_REGION && op->args[i].region.buf->int4) b = op->args[i].region.buf, at = &op->args[i];
    fail(v, arg_loc(at, st->loc),
         "%s cannot take int4 operand '%s': int4 (nibble-packed) goes only through T.copy, "
         "T.gemm_v0 and T.tile.cast float16 <-> int4",
         info->spelling ? info->spelling : info->name, b ? b->name : "?");
}

bool tl_broadcast_fit(const int64_t *de, int dn, int64_t *se, int *sn, int *axis)
{
    int ax = *axis;
    if (*sn == 1 && dn == 2) {
        if (ax == 0 || (ax < 0 && de[1] == se[0]))
            se[1] = se[0], se[0] = 1, ax = 0;
        else if (ax == 1 || (ax < 0 && de[0] == se[0]))
            se[1] = 1, ax = 1;
        else
            return false;
        *sn = 2;
    }
    if (*sn != dn) return false;
    if (ax < 0 && dn == 2) ax = se[0] == 1 && de[0] != 1 ? 0 : se[1] == 1 && de[1] != 1 ? 1 : 0;
    if (ax < 0) ax = 0;
    if ((dn == 1 && ax != 0) || (dn == 2 && ax > 1)) return false;
    if (se[ax] == 1) {
        if (dn == 2 && se[1 - ax] != de[1 - ax]) return false;
    } else if (se[0] != de[0] || (dn == 2 && se[1] != de[1])) {
        return false;
    }
    *axis = ax;
    return true;
}

// A region's extents as T.tile.broadcast sees them (the last two; the leading ones
// must be 1): false when one is not a constant or a leading one is not 1.
static bool bcast_extents(const tl_region_t *r, int64_t *e, int *n)
{
    int64_t x;
    for (int d = 0; d + 2 < r->ndim; d++)
        if (!tl_ir_is_const_int(r->extent[d], &x) || x != 1) return false;
    *n = TL_MIN(r->ndim, 2);
    for (int i = 0; i < *n; i++)
        if (!tl_ir_is_const_int(r->extent[r->ndim - *n + i], &e[i])) return false;
    return true;
}

// T.tile.broadcast(dst, src, axis): one dtype and shapes that broadcast, checked when
// compiling (upstream rejects both before running: tile_broadcast_dtype_coverage's
// negative tests; the executors check again at run time).
static void check_broadcast(verifier_t *v, const tl_stmt_t *st, const tl_region_t *d, const tl_region_t *s)
{
    if (d->buf->dtype != s->buf->dtype) {
        fail(v, st->loc, "T.tile.broadcast: operands need the same dtype: '%s' is %s, '%s' is %s", d->buf->name,
             tl_dtype_name(d->buf->dtype), s->buf->name, tl_dtype_name(s->buf->dtype));
        return;
    }
    int64_t de[2], se[2], se0[2];
    int dn, sn, axis = st->op.dim;
    if (!bcast_extents(d, de, &dn) || !bcast_extents(s, se, &sn)) return;
    se0[0] = se[0], se0[1] = se[1];
    int sn0 = sn;
    if (tl_broadcast_fit(de, dn, se, &sn, &axis)) return;
    char a[64], b[64];
    snprintf(a, sizeof a, sn0 == 2 ? "[%lld, %lld]" : "[%lld]", (long long)se0[0], (long long)se0[1]);
    snprintf(b, sizeof b, dn == 2 ? "[%lld, %lld]" : "[%lld]", (long long)de[0], (long long)de[1]);
    fail(v, st->loc, "T.tile.broadcast: cannot broadcast '%s' %s to '%s' %s%s", s->buf->name, a, d->buf->name, b,
         st->op.dim >= 0 ? " along the given axis" : "");
}

static void check_op(verifier_t *v, const tl_stmt_t *st)
{
    const tl_op_t *op = &st->op;
    const tl_opinfo_t *info = tl_op_info(op->code);
    if (op->nargs < info->min_args || op->nargs > info->max_args) {
        fail(v, st->loc, "%s takes %d to %d operands, got %d", info->name, info->min_args,
             info->max_args, op->nargs);
        return;
    }
    const char *sig = info->signature;
    int ai = 0;
    for (const char *p = sig; *p && ai < op->nargs; p++) {
        if (*p == '[' || *p == ']') continue;
        const tl_arg_t *a = &op->args[ai++];
        bool want_region = *p == 'w' || *p == 'r' || *p == 'x';
        bool want_scalar = *p == 's';
        if (want_region && a->kind != TL_ARG_REGION)
            fail(v, arg_loc(a, st->loc), "operand %d of %s must be a buffer or region", ai, info->name);
        else if (want_scalar && a->kind != TL_ARG_SCALAR)
            fail(v, arg_loc(a, st->loc), "operand %d of %s must be a scalar", ai, info->name);
        if (a->kind == TL_ARG_REGION) check_region(v, &a->region, st->loc);
        else check_expr(v, a->scalar);
    }
    check_expr(v, op->init);
    check_expr(v, op->pad_value);
    check_expr(v, op->k_valid);
    check_expr(v, op->n_valid);
    check_expr(v, op->unit_flag);
    if (v->st != TL_OK) return;
    bool int4 = tl_op_has_int4(op);
    if (int4) {
        check_int4(v, st);
        if (v->st != TL_OK) return;
    }

    const tl_region_t *r0 = op->nargs > 0 && op->args[0].kind == TL_ARG_REGION ? &op->args[0].region : NULL;
    const tl_region_t *r1 = op->nargs > 1 && op->args[1].kind == TL_ARG_REGION ? &op->args[1].region : NULL;
    if (op->code == TL_OP_ARITH_PROGRESSION && r0) check_progression(v, st, r0->buf->dtype);
    if (op->code == TL_OP_POW && r0) check_pow(v, st, r0->buf->dtype);
    if (op->code == TL_OP_CREATEVECINDEX && r0) check_vecindex(v, st, r0->buf->dtype);
    if (op->code == TL_OP_BROADCAST && r0 && r1) check_broadcast(v, st, r0, r1);
    // T.tile.gather(dst, src, offsets, base): dst and src of one dtype (upstream
    // rejects the pair at compile time, tile_gather_dtype_coverage)
    if (op->code == TL_OP_GATHER && r0 && r1 && r0->buf->dtype != r1->buf->dtype)
        fail(v, st->loc, "T.tile.gather: dst '%s' is %s, src '%s' %s (upstream: \"Unsupported AscendC Vector dtype "
             "tuple for tl.ascend_gather\"; they need one dtype)",
             r0->buf->name, tl_dtype_name(r0->buf->dtype), r1->buf->name, tl_dtype_name(r1->buf->dtype));
    // ... and uint32 byte offsets (upstream: "Unsupported AscendC Gather offset dtype; expected uint32")
    if (op->code == TL_OP_GATHER && op->nargs > 2 && op->args[2].kind == TL_ARG_REGION &&
        op->args[2].region.buf->dtype != TL_U32)
        fail(v, st->loc, "T.tile.gather: offsets '%s' are %s; they must be uint32 (upstream: \"Unsupported AscendC "
             "Gather offset dtype; expected uint32\")",
             op->args[2].region.buf->name, tl_dtype_name(op->args[2].region.buf->dtype));
    switch (info->cls) {
    case TL_OPC_COPY:
        if (op->code == TL_OP_COPY_PA) {
            check_copy_pa(v, st);
            break;
        }
        if (op->code == TL_OP_IM2COL) {
            check_im2col(v, st);
            break;
        }
        if (op->code == TL_OP_COPY && r0 && r1 && !copy_path_legal(r0->buf->scope, r1->buf->scope)) {
            tl_buf_t to;
            tl_buf_init(&to);
            copy_targets(&to, r0->buf->scope);
            fail(v, arg_loc(&op->args[1], st->loc),
                 "T.copy from %s ('%s') to %s ('%s') is not a legal data path (from %s a copy can go to %s)",
                 tl_scope_name(r0->buf->scope), r0->buf->name, tl_scope_name(r1->buf->scope),
                 r1->buf->name, tl_scope_name(r0->buf->scope), tl_buf_cstr(&to));
            tl_buf_free(&to);
        }
        // a copy between UB buffers of two dtypes is a vector Cast (upstream's copy_ub_to_ub)
        if (op->code == TL_OP_COPY && r0 && r1 && r0->buf->scope == TL_SCOPE_UB &&
            r1->buf->scope == TL_SCOPE_UB && r0->buf->dtype != r1->buf->dtype)
            check_cast(v, arg_loc(&op->args[1], st->loc), "T.copy", r1->buf->dtype, r0->buf->dtype,
                       tl_cast_copy_mode(r1->buf->dtype, r0->buf->dtype));
        if (op->code == TL_OP_ATOMIC_ADD && r0 && r0->buf->scope != TL_SCOPE_GM)
            fail(v, arg_loc(&op->args[0], st->loc), "atomic_add destination '%s' must be a global tensor",
                 r0->buf->name);
        break;
    case TL_OPC_GEMM: {
        bool mma = op->code == TL_OP_MMA;
        tl_scope_t want[3] = {mma ? TL_SCOPE_L0A : TL_SCOPE_L1, mma ? TL_SCOPE_L0B : TL_SCOPE_L1,
                              TL_SCOPE_L0C};
        static const char *role[3] = {"A", "B", "C"};
        for (int i = 0; i < 3; i++) {
            const tl_buffer_t *b = op->args[i].region.buf;
            if (!is(b->scope, want[i]))
                fail(v, arg_loc(&op->args[i], st->loc), "T.%s operand %s ('%s') must be in %s, not %s%s",
                     info->name, role[i], b->name, tl_scope_name(want[i]), tl_scope_name(b->scope),
                     alloc_hint(want[i]));
        }
        break;
    }
    case TL_OPC_VEC:
    case TL_OPC_REDUCE: {
        if (op->code == TL_OP_CAST && r0 && r1 && !int4)
            check_cast(v, st->loc, "T.tile.cast", r0->buf->dtype, r1->buf->dtype, op->round);
        int64_t n0 = -1;
        const char *api = info->cls == TL_OPC_REDUCE ? "T." : "T.tile.";
        for (int i = 0; i < op->nargs; i++) {
            const tl_arg_t *a = &op->args[i];
            if (a->kind != TL_ARG_REGION) continue;
            if (!is(a->region.buf->scope, TL_SCOPE_UB)) {
                fail(v, arg_loc(a, st->loc), "%s%s operand '%s' must be in UB, not %s%s", api, info->name,
                     a->region.buf->name, tl_scope_name(a->region.buf->scope), alloc_hint(TL_SCOPE_UB));
                continue;
            }
        }
        // Element-wise ops need equal element counts on their full-size operands.
        if (!elementwise(op->code) || int4) break;
        // A trailing count (upstream's `count`) processes that many elements
        // from each operand's origin, so the operands may be larger (upstream
        // casts 64 elements of a 256-element row) or smaller: the device has
        // no per-buffer bound, the op runs on into the UB after the region
        // (exec/overrun.c names those bytes, or rejects a count past the UB,
        // once the buffers are placed).
        const tl_expr_t *counted = tl_op_count(op);
        for (int i = 0; i < op->nargs && !counted; i++) {
            const tl_arg_t *a = &op->args[i];
            if (a->kind != TL_ARG_REGION) continue;
            int64_t n = tl_region_numel(&a->region);
            if (n < 0) continue;
            if (n0 < 0) n0 = n;
            else if (n != n0)
                fail(v, arg_loc(a, st->loc),
                     "T.tile.%s operands differ in size: '%s' has %" PRId64
                     " elements, '%s' has %" PRId64 " (element-wise operands need equal element counts)",
                     info->name, op->args[0].region.buf->name, n0, a->region.buf->name, n);
        }
        break;
    }
    case TL_OPC_STATE: break;
    }
}

static void check_stmt(verifier_t *v, const tl_stmt_t *s)
{
    if (!s) return;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) check_stmt(v, s->seq.items[i]);
        // Let-bound names go out of scope at the end of their sequence.
        for (int i = 0; i < s->seq.n; i++)
            if (s->seq.items[i]->kind == TL_ST_LET) v->defined[s->seq.items[i]->let.var->id] = 0;
        break;
    case TL_ST_FOR:
        check_expr(v, s->for_.start);
        check_expr(v, s->for_.end);
        if (v->defined[s->for_.var->id])
            fail(v, s->loc, "loop variable '%s' is already defined", s->for_.var->name);
        v->defined[s->for_.var->id] = 1;
        check_stmt(v, s->for_.body);
        v->defined[s->for_.var->id] = 0;
        break;
    case TL_ST_WHILE:
        check_expr(v, s->while_.cond);
        check_stmt(v, s->while_.body);
        break;
    case TL_ST_IF:
        check_expr(v, s->if_.cond);
        check_stmt(v, s->if_.then_);
        check_stmt(v, s->if_.else_);
        break;
    case TL_ST_LET:
        check_expr(v, s->let.value);
        v->defined[s->let.var->id] = 1;
        break;
    case TL_ST_STORE:
        for (int i = 0; i < s->store.n; i++) check_expr(v, s->store.idx[i]);
        check_expr(v, s->store.value);
        if (s->store.buf->scope != TL_SCOPE_VAR && s->store.n != s->store.buf->ndim)
            fail(v, s->loc, "'%s' has %d dimensions but the store uses %d indices",
                 s->store.buf->name, s->store.buf->ndim, s->store.n);
        break;
    case TL_ST_OP: check_op(v, s); break;
    case TL_ST_SCOPE: check_stmt(v, s->scope.body); break;
    case TL_ST_SYNC: check_expr(v, s->sync.id); break;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) check_expr(v, s->print.args[i]);
        if (s->print.region) check_region(v, s->print.region, s->loc);
        break;
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: break;
    }
}

// --- nesting ----------------------------------------------------------------------

typedef struct {
    tl_diag_t *d;
    tl_status_t st;
} nest_t;

static bool too_high(nest_t *n, const tl_expr_t *e, tl_loc_t loc)
{
    if (!e || e->height <= TL_MAX_NESTING) return false;
    n->st = tl_diag_report(n->d, TL_SEV_ERROR, loc.line ? loc : e->loc, TL_ERR_COMPILE,
                           "this expression nests too deeply: %d levels, more than the %d "
                           "allowed",
                           e->height, TL_MAX_NESTING);
    return true;
}

static bool nest_stmt(nest_t *n, const tl_stmt_t *s, int depth)
{
    if (!s) return true;
    if (depth > TL_MAX_IR_DEPTH) {
        n->st =
            tl_diag_report(n->d, TL_SEV_ERROR, s->loc, TL_ERR_COMPILE,
                           "statements nest too deeply here: more than %d levels", TL_MAX_IR_DEPTH);
        return false;
    }
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (!nest_stmt(n, s->seq.items[i], depth + 1)) return false;
        return true;
    case TL_ST_FOR:
        return !too_high(n, s->for_.start, s->loc) && !too_high(n, s->for_.end, s->loc) &&
               nest_stmt(n, s->for_.body, depth + 1);
    case TL_ST_WHILE:
        return !too_high(n, s->while_.cond, s->loc) && nest_stmt(n, s->while_.body, depth + 1);
    case TL_ST_IF:
        return !too_high(n, s->if_.cond, s->loc) && nest_stmt(n, s->if_.then_, depth + 1) &&
               nest_stmt(n, s->if_.else_, depth + 1);
    case TL_ST_SCOPE: return nest_stmt(n, s->scope.body, depth + 1);
    case TL_ST_LET: return !too_high(n, s->let.value, s->loc);
    case TL_ST_STORE:
        for (int i = 0; i < s->store.n; i++)
            if (too_high(n, s->store.idx[i], s->loc)) return false;
        return !too_high(n, s->store.value, s->loc);
    case TL_ST_SYNC: return !too_high(n, s->sync.id, s->loc);
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++)
            if (too_high(n, s->print.args[i], s->loc)) return false;
        return true;
    case TL_ST_OP:
        for (int i = 0; i < s->op.nargs; i++) {
            const tl_arg_t *a = &s->op.args[i];
            if (a->kind == TL_ARG_SCALAR && too_high(n, a->scalar, s->loc)) return false;
            if (a->kind == TL_ARG_REGION)
                for (int j = 0; j < a->region.ndim; j++)
                    if (too_high(n, a->region.start[j], s->loc) ||
                        too_high(n, a->region.extent[j], s->loc))
                        return false;
        }
        return true;
    default: return true;
    }
}

tl_status_t tl_ir_check_nesting(const tl_kernel_t *k, tl_diag_t *d)
{
    nest_t n = {d, TL_OK};
    if (!too_high(&n, k->grid, k->loc)) nest_stmt(&n, k->body, 1);
    return n.st;
}

tl_status_t tl_ir_verify(const tl_kernel_t *k, tl_diag_t *d)
{
    tl_status_t nst = tl_ir_check_nesting(k, d);
    if (nst != TL_OK) return nst; // (the checks below recurse)
    verifier_t v = {k, d, calloc((size_t)k->vars.len + 1, 1), TL_OK};
    if (!v.defined) return TL_ERR_NOMEM;
    for (int i = 0; i < k->vars.len; i++) {
        const tl_var_t *var = k->vars.items[i];
        if (var->kind == TL_VAR_DIM || var->kind == TL_VAR_PARAM || var->kind == TL_VAR_BLOCK ||
            var->kind == TL_VAR_SUBBLOCK)
            v.defined[var->id] = 1;
    }
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *a = k->buffers.items[i];
        for (int j = 0; j < i; j++) {
            const tl_buffer_t *b = k->buffers.items[j];
            if (!strcmp(a->name, b->name)) {
                fail(&v, a->loc, "buffer name '%s' is used twice", a->name);
                break;
            }
        }
    }
    check_expr(&v, k->grid);
    check_stmt(&v, k->body);
    free(v.defined);
    return v.st;
}
