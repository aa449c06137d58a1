// Tile ops of the T namespace (T.copy, T.gemm_v0, T.mma, T.reduce_*, T.tile.*,
// ...): every spelling of the op table (ir/ops.h) with its binder. Arguments
// are bound by position or by the upstream parameter names, converted to IR
// operands by the op's signature, and emitted as one TL_ST_OP.
#include "front/front.h"

#include <stdio.h>
#include <string.h>

// Every spelling of an op (ir/ops.h: the api column of TL_OPS and of
// TL_OP_ALIASES) with its binder; a builtin's `self` is its index here.
typedef struct {
    tl_opcode_t op;
    tl_builtin_fn bind;
    const char *api; // "T.tile.add :dst :src0 :src1"
} spelling_t;

#define X(id, name, sig, cls, pipe, cost, bin, run, front, api)                                    \
    static tl_value_t *op_##front(tl_eval_t *ev, tl_call_t *c);
TL_OPS(X)
#undef X
static tl_value_t *op_clear(tl_eval_t *ev, tl_call_t *c);

static const spelling_t spellings[] = {
#define X(id, name, sig, cls, pipe, cost, bin, run, front, api) {id, op_##front, api},
    TL_OPS(X)
#undef X
#define X(id, front, api) {id, op_##front, api},
    TL_OP_ALIASES(X)
#undef X
};

static const spelling_t *spelling_of(const tl_call_t *c)
{
    return &spellings[c->self->i];
}

// The name a call was spelled with ("T.tile.add"), for messages.
static const char *fname_of(tl_eval_t *ev, const tl_call_t *c)
{
    const char *api = spelling_of(c)->api;
    return tl_arena_printf(ev->arena, "%.*s", (int)strcspn(api, " "), api);
}

// A tile operand (a UB/L1/... buffer or a region of one), not a scalar variable.
static bool is_tile_operand(const tl_value_t *v)
{
    return v && (v->kind == TL_V_REGION || (v->kind == TL_V_BUFFER && v->buffer->scope != TL_SCOPE_VAR));
}

// Converts one argument for signature letter `role`.
static bool operand(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, char role, const char *what,
                    tl_arg_t *out)
{
    if (role == 'w' || role == 'r' || role == 'x' ||
        (role == 'v' && (v->kind == TL_V_BUFFER || v->kind == TL_V_REGION) &&
         !(v->kind == TL_V_BUFFER && v->buffer->scope == TL_SCOPE_VAR))) {
        tl_region_t *r = tl_value_to_region(ev, v, loc, what);
        if (!r) return false;
        out->kind = TL_ARG_REGION;
        out->region = *r;
        return true;
    }
    if (v->kind == TL_V_BUFFER && v->buffer->scope != TL_SCOPE_VAR) {
        // A one-element buffer: say how to read its element.
        const tl_buffer_t *b = v->buffer;
        char hint[160] = "";
        if (tl_buffer_numel(b) == 1 && b->ndim >= 1 && b->ndim <= 8)
            snprintf(hint, sizeof hint, " (for its element write '%s[%.*s]')", b->name, 3 * b->ndim - 2,
                     "0, 0, 0, 0, 0, 0, 0, 0");
        tl_eval_fail(ev, loc, "%s must be a scalar, got buffer '%s'%s", what, b->name, hint);
        return false;
    }
    if (v->kind == TL_V_REGION) {
        tl_eval_fail(ev, loc, "%s must be a scalar, got a buffer region", what);
        return false;
    }
    if (!tl_value_is_exprlike(v) && v->kind != TL_V_ERROR && v->kind != TL_V_OPAQUE) {
        tl_eval_fail(ev, loc, "%s must be %s, got %s", what,
                     role == 'v' ? "a buffer, a buffer region or a scalar" : "a scalar (a number or an expression)",
                     tl_value_type_name(v));
        return false;
    }
    tl_expr_t *e = tl_value_to_expr(ev, v, loc, -1);
    if (!e) return false;
    out->kind = TL_ARG_SCALAR;
    out->scalar = e;
    return true;
}

// T.tile.fill's value given as a one-element buffer (upstream's
// group_norm: `T.tile.fill(mean_col, total)` with `total` a UB [1]): its
// element, read when the fill runs (a scalar read of the buffer, as
// `total[0]` is). False for any other value.
static bool one_element_value(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, tl_arg_t *out)
{
    tl_buffer_t *b = v->kind == TL_V_BUFFER ? v->buffer : NULL;
    if (!b || b->scope == TL_SCOPE_VAR || tl_buffer_numel(b) != 1 || b->ndim > TL_MAX_DIMS)
        return false;
    tl_expr_t *idx[TL_MAX_DIMS];
    for (int d = 0; d < b->ndim; d++) idx[d] = tl_ir_int(ev->kernel, 0, TL_I32, loc);
    out->kind = TL_ARG_SCALAR;
    out->scalar = tl_ir_load(ev->kernel, b, b->ndim, idx, loc);
    return out->scalar != NULL;
}

static tl_stmt_t *new_op(tl_eval_t *ev, tl_opcode_t code, tl_loc_t loc, int nargs)
{
    tl_stmt_t *s = tl_ir_stmt(ev->kernel, TL_ST_OP, loc);
    s->op.code = code;
    s->op.args = tl_arena_alloc(ev->arena, sizeof(tl_arg_t) * (size_t)(nargs ? nargs : 1));
    s->op.dim = -1;
    s->op.clear = true;
    s->op.round = TL_CAST_RINT;
    return s;
}

static bool parse_mode(tl_eval_t *ev, tl_op_t *op, tl_value_t *v, tl_loc_t loc)
{
    const char *m = tl_value_to_cstr(ev, v, loc, "the mode");
    if (!m) return false;
    if (op->code == TL_OP_CAST) {
        if (tl_round_parse(m, &op->round)) return true;
        tl_eval_fail(ev, loc, "unknown cast mode \"%s\" (CAST_NONE, CAST_RINT, CAST_ROUND, CAST_FLOOR, "
                              "CAST_CEIL, CAST_TRUNC, CAST_ODD)", m);
        return false;
    }
    static const char *cmp[] = {
#define X(id, name) name,
        TL_CMP_MODES(X)
#undef X
    };
    static const char *sel[] = {
#define X(id, name) name,
        TL_SEL_MODES(X)
#undef X
    };
    static const char *orders[] = {
#define X(id, name) name,
        TL_REDUCE_ORDERS(X)
#undef X
    };
    if (op->code == TL_OP_WHOLE_REDUCE_MAX || op->code == TL_OP_WHOLE_REDUCE_MIN) {
        const char *o = strncmp(m, "AscendC::ReduceOrder::", 22) ? m : m + 22;
        for (int i = 0; i < TL_ORDER_COUNT; i++)
            if (!strcmp(orders[i], o)) {
                op->order = (tl_reduce_order_t)i;
                return true;
            }
        tl_eval_fail(ev, loc,
                     "unknown ReduceOrder \"%s\" (ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, "
                     "ORDER_ONLY_VALUE, ORDER_ONLY_INDEX)",
                     m);
        return false;
    }
    if (op->code == TL_OP_COMPARE) {
        for (int i = 0; i < TL_CMPMODE_COUNT; i++)
            if (!strcmp(cmp[i], m)) {
                op->cmp = (tl_cmp_mode_t)i;
                return true;
            }
        tl_eval_fail(ev, loc, "unknown compare mode \"%s\" (EQ, NE, GT, GE, LT, LE)", m);
        return false;
    }
    for (int i = 0; i < TL_SEL_COUNT; i++)
        if (!strcmp(sel[i], m)) {
            op->sel = (tl_sel_mode_t)i;
            return true;
        }
    tl_eval_fail(ev, loc, "unknown select mode \"%s\" (VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, "
                          "VSEL_TENSOR_TENSOR_MODE)", m);
    return false;
}

// A binary element-wise op (T.tile.add, .max, ...: signature "wrv") whose
// src1 is a whole buffer with more elements than dst: upstream's binary_op
// front-end checks dst against src0 and against a src1 region, but not a
// whole src1 buffer, whose first dst.size elements take part (its
// base/binary_op.py test_buffer_size_unvalidated, on both targets). The
// operand becomes that prefix, written as a box of the buffer; a prefix that
// is no box (a row and a half) is an error. False after an error.
static bool src1_prefix(tl_eval_t *ev, const char *fname, tl_op_t *op, tl_loc_t loc)
{
    tl_region_t *r = &op->args[2].region;
    const tl_buffer_t *b = r->buf;
    int64_t n0 = tl_region_numel(&op->args[0].region), n2 = tl_region_numel(r);
    // (dst and src0 agree in size: not T.tile.compare, whose dst is a bit mask)
    if (n0 <= 0 || n2 <= n0 || b->scope == TL_SCOPE_GM || tl_region_numel(&op->args[1].region) != n0)
        return true;
    for (int i = 0; i < b->ndim; i++) {
        int64_t inner = 1;
        for (int j = i + 1; j < b->ndim; j++) inner *= b->shape[j];
        if (n0 % inner || n0 / inner > b->shape[i]) continue;
        for (int j = 0; j < b->ndim; j++) {
            int64_t ext = j < i ? 1 : j == i ? n0 / inner : b->shape[j];
            r->start[j] = tl_ir_int(ev->kernel, 0, TL_I32, loc);
            r->extent[j] = tl_ir_int(ev->kernel, ext, TL_I32, loc);
        }
        r->form = TL_REGION_SLICE;
        return true;
    }
    tl_eval_fail(ev, loc,
                 "%s: src1 '%s' has %lld elements, dst %lld: its first %lld elements (the ones that take part, "
                 "as upstream's binary ops read them) are no box of its shape; pass a region of it",
                 fname, b->name, (long long)n2, (long long)n0, (long long)n0);
    return false;
}

// The ops whose upstream API takes a keyword-only scratch arena, tmp=None (a UB
// buffer or region the op uses as its workspace instead of the compiler's
// tmp_ub; upstream's explicit_tmp test). tilec's ops need no scratch: the
// arena is accepted and ignored (as the reductions' tmp, reduce_drop_tmp).
static bool takes_tmp(tl_opcode_t op)
{
    switch (op) {
    case TL_OP_SORT: case TL_OP_MERGE_SORT: case TL_OP_TOPK: case TL_OP_GATHER_MASK:
    case TL_OP_SELECT: case TL_OP_SIGMOID: case TL_OP_GATHER: case TL_OP_SIN: case TL_OP_COS:
    case TL_OP_POW: case TL_OP_XOR: case TL_OP_CLAMP_MAX: case TL_OP_CLAMP_MIN: case TL_OP_CLAMP:
    case TL_OP_ROUND: case TL_OP_BROADCAST: case TL_OP_REDUCE_SUM_X: case TL_OP_BILINEAR:
    case TL_OP_REDUCE_SUM_MASK_X: return true;
    default: return false;
    }
}

// The ops upstream's ascend_tile.py wraps in @deprecated() (a DeprecationWarning,
// "will be removed in future versions", at each call; the kernel still builds).
static bool deprecated_upstream(tl_opcode_t op)
{
    switch (op) {
    case TL_OP_BILINEAR: case TL_OP_WHOLE_REDUCE_SUM: case TL_OP_WHOLE_REDUCE_MAX:
    case TL_OP_WHOLE_REDUCE_MIN: case TL_OP_BLOCK_REDUCE_SUM: case TL_OP_BLOCK_REDUCE_MAX:
    case TL_OP_BLOCK_REDUCE_MIN: return true;
    default: return false;
    }
}

// The generic binder (`bind` in ops.h): arguments by position or by the
// parameter names of the op's api column.
static tl_value_t *op_bind(tl_eval_t *ev, tl_call_t *c)
{
    const spelling_t *sp = spelling_of(c);
    const tl_opinfo_t *info = tl_op_info(sp->op);
    const char *fname = fname_of(ev, c);
    if (!tl_trace_require(ev, c->loc, fname)) return NULL;
    // Split the parameter list.
    enum { MAXP = 16 }; // copy_pa has 15 parameters
    char names[MAXP][32];
    char roles[MAXP];
    int np = 0;
    for (const char *p = sp->api + strcspn(sp->api, " "); *p && np < MAXP;) {
        while (*p == ' ') p++;
        if (!*p) break;
        roles[np] = *p++;
        int n = 0;
        while (*p && *p != ' ' && n < 31) names[np][n++] = *p++;
        names[np][n] = 0;
        np++;
    }
    if (c->nargs > np)
        return tl_eval_fail(ev, c->arg_locs ? c->arg_locs[np] : c->loc, "%s takes at most %d arguments, got %d",
                            fname, np, c->nargs);
    tl_value_t *vals[MAXP] = {0};
    tl_loc_t locs[MAXP];
    for (int i = 0; i < np; i++) {
        vals[i] = tl_call_arg(c, i, names[i]);
        locs[i] = tl_call_arg_loc(c, i, names[i]);
    }
    // npuir's destination-last spelling: its parameter becomes operand 0.
    bool npuir = false;
    for (int i = 1; i < np; i++) {
        if (roles[i] != '^') continue;
        npuir = true;
        if (!tl_front_npuir_require(ev, c->loc, fname)) return NULL;
        char name[32];
        memcpy(name, names[i], sizeof name);
        tl_value_t *v = vals[i];
        tl_loc_t l = locs[i];
        for (int j = i; j > 0; j--) {
            memcpy(names[j], names[j - 1], sizeof name);
            roles[j] = roles[j - 1];
            vals[j] = vals[j - 1];
            locs[j] = locs[j - 1];
        }
        memcpy(names[0], name, sizeof name);
        roles[0] = ':';
        vals[0] = v;
        locs[0] = l;
    }
    for (int k = 0; k < c->nkw; k++) {
        bool known = false;
        for (int i = 0; i < np; i++) known = known || !strcmp(names[i], c->kw_names[k]);
        if (!known && !strcmp(c->kw_names[k], "tmp") && takes_tmp(sp->op)) {
            tl_value_t *t = c->kw_values[k];
            if (t->kind != TL_V_NONE && !is_tile_operand(t))
                return tl_eval_fail(ev, c->kw_locs ? c->kw_locs[k] : c->loc,
                                    "%s tmp= must be a UB buffer or region (the scratch arena), got %s", fname,
                                    tl_value_type_name(t));
            continue;
        }
        if (!known)
            return tl_eval_fail(ev, c->kw_locs ? c->kw_locs[k] : c->loc,
                                "%s got an unexpected keyword argument '%s'", fname, c->kw_names[k]);
    }
    tl_stmt_t *s = new_op(ev, sp->op, c->loc, info->max_args);
    tl_op_t *op = &s->op;
    const char *sig = info->signature;
    int si = 0; // position in the signature (skipping brackets)
    for (int i = 0; i < np; i++) {
        if (roles[i] == '~') continue;
        if (roles[i] == '@') {
            // wholereducemax/min's ReduceOrder defaults to ORDER_VALUE_INDEX (upstream's default)
            if (!vals[i] &&
                (op->code == TL_OP_WHOLE_REDUCE_MAX || op->code == TL_OP_WHOLE_REDUCE_MIN))
                continue;
            if (!vals[i]) return tl_eval_fail(ev, c->loc, "%s needs its %s argument", fname, names[i]);
            if (!parse_mode(ev, op, vals[i], locs[i])) return NULL;
            continue;
        }
        if (roles[i] == '#') {
            // A buffer there is the scratch of the older broadcast(dst, src, tmp), whose
            // axis was inferred from the shapes as tilec does without one.
            if (vals[i] && vals[i]->kind != TL_V_NONE && !is_tile_operand(vals[i])) {
                int64_t axis;
                if (!tl_value_to_int(ev, vals[i], locs[i], "the broadcast axis", &axis)) return NULL;
                if (axis < -1 || axis > 1) return tl_eval_fail(ev, locs[i], "broadcast axis must be 0 or 1");
                op->dim = (int)axis;
            }
            continue;
        }
        if (roles[i] == '%' && vals[i] && vals[i]->kind == TL_V_STR) {
            if (!tl_gather_pattern_parse(vals[i]->str.s, &op->pattern))
                return tl_eval_fail(ev, locs[i],
                                    "unknown gather_mask pattern \"%s\" (P0101, P1010, P0001, P0010, P0100, "
                                    "P1000, P1111, or a uint32 pattern buffer)",
                                    vals[i]->str.s);
            continue;
        }
        while (sig[si] == '[' || sig[si] == ']') si++;
        char role = sig[si] ? sig[si] : 's';
        if (sig[si]) si++;
        // None for an optional operand (merge_sort's src2=None) is no operand.
        if (vals[i] && vals[i]->kind == TL_V_NONE && op->nargs >= info->min_args) vals[i] = NULL;
        if (!vals[i]) {
            if (op->nargs < info->min_args)
                return tl_eval_fail(ev, c->loc, "%s is missing its '%s' argument", fname, names[i]);
            continue;
        }
        const char *what = tl_arena_printf(ev->arena, "%s argument '%s'", fname, names[i]);
        if (op->code == TL_OP_FILL && role == 's' &&
            one_element_value(ev, vals[i], locs[i], &op->args[op->nargs])) {
            op->nargs++;
            continue;
        }
        if (!operand(ev, vals[i], locs[i], role, what, &op->args[op->nargs])) return NULL;
        op->nargs++;
    }
    if (op->nargs < info->min_args)
        return tl_eval_fail(ev, c->loc, "%s needs %d operands, got %d", fname, info->min_args, op->nargs);
    if (npuir && !strcmp(info->signature, "wrv")) {
        bool done;
        if (!tl_front_npuir_broadcast(ev, s, fname, &done)) return NULL;
        if (done) return tl_value_none();
    }
    if (info->cls == TL_OPC_VEC && !strcmp(info->signature, "wrv") && op->nargs == 3 &&
        op->args[2].kind == TL_ARG_REGION && op->args[2].region.form == TL_REGION_WHOLE &&
        !src1_prefix(ev, fname, op, locs[2]))
        return NULL;
    if (op->code >= TL_OP_SIZED_FIRST && op->code <= TL_OP_SIZED_LAST &&
        !tl_front_check_sort_op(ev, op, c->loc))
        return NULL;
    if (deprecated_upstream(op->code))
        tl_diag_warning(ev->diag, c->loc,
                        "%s is deprecated upstream (tilelang/language/ascend_tile.py's @deprecated(): "
                        "a DeprecationWarning, 'will be removed in future versions')",
                        fname);
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// T.tile.clear(buffer): a fill with zeros.
static tl_value_t *op_clear(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "T.tile.clear", 1, 1, NULL) || !tl_trace_require(ev, c->loc, "T.tile.clear"))
        return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_FILL, c->loc, 2);
    if (!operand(ev, c->args[0], tl_call_arg_loc(c, 0, NULL), 'w', "T.tile.clear's buffer", &s->op.args[0]))
        return NULL;
    s->op.args[1].kind = TL_ARG_SCALAR;
    s->op.args[1].scalar = tl_ir_int(ev->kernel, 0, TL_I32, c->loc);
    s->op.nargs = 2;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// --- T.copy ----------------------------------------------------------------------------------------

// Extents of a start-point operand from the other side (upstream rule: the
// other side's extents; leading 1s when the point has more indices, the
// trailing entries when it has fewer).
static void infer_point(tl_region_t *pt, const tl_region_t *other, tl_kernel_t *k)
{
    int rp = pt->ndim, ro = other->ndim;
    for (int i = 0; i < rp; i++) {
        int j = i - (rp - ro);
        pt->extent[i] = j >= 0 ? other->extent[j] : tl_ir_int(k, 1, TL_I32, pt->loc);
    }
}

// An integer attribute of a cube op given by keyword (NULL when absent or on
// failure; *bad tells them apart): a count (>= 0) or a unit flag (0, 2, 3).
static tl_expr_t *int_attr(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, bool is_flag,
                           bool *bad)
{
    tl_value_t *v = tl_call_arg(c, pos, kw);
    if (!v || v->kind == TL_V_NONE) return NULL;
    tl_loc_t loc = tl_call_arg_loc(c, pos, kw);
    tl_expr_t *e = tl_value_to_expr(ev, v, loc, TL_I32);
    int64_t k;
    if (e && tl_dtype_is_float(e->dtype)) {
        tl_eval_fail(ev, loc, "%s must be an integer", kw);
        e = NULL;
    } else if (e && tl_ir_is_const_int(e, &k) && (is_flag ? k != 0 && k != 2 && k != 3 : k < 0)) {
        tl_eval_fail(ev, loc,
                     is_flag ? "%s must be 0, 0b10 (2) or 0b11 (3), got %lld (0b01 is reserved)"
                             : "%s must not be negative, got %lld",
                     kw, (long long)k);
        e = NULL;
    }
    *bad = !e;
    return e;
}

// A whole UB tile copied to or from a whole L0C / L1 tile twice its height
// (`T.copy(C_L0, C_ub)`, `T.copy(A_ub, A_L1)` with C_ub / A_ub of block_M / 2
// rows): the vector core's half of the cube tile, rows [vid * h, vid * h + h),
// as upstream's VidReduction and WorkspaceReduction passes give it (the
// workspace of a UB -> L1 hand-off holds vector_cnt UB tiles, one per vector
// core). Narrows the cube-side region to that half and says whether it did.
static bool vid_half(tl_kernel_t *k, tl_region_t *a, tl_region_t *b)
{
    tl_region_t *ub = a->buf->scope == TL_SCOPE_UB ? a : b, *cube = ub == a ? b : a;
    bool pair = (a == ub && cube->buf->scope == TL_SCOPE_L1) ||
                (b == ub && cube->buf->scope == TL_SCOPE_L0C);
    if (!pair || !k->vid || k->threads || ub->ndim != cube->ndim ||
        cube->buf->shape[0] != 2 * ub->buf->shape[0])
        return false;
    for (int i = 1; i < ub->ndim; i++)
        if (ub->buf->shape[i] != cube->buf->shape[i]) return false;
    tl_loc_t loc = cube->loc;
    tl_expr_t *h = tl_ir_int(k, ub->buf->shape[0], TL_I32, loc);
    cube->form = TL_REGION_SLICE;
    cube->start[0] = tl_ir_bin(k, TL_BIN_MUL, tl_ir_varref(k, k->vid, loc), h, loc);
    cube->extent[0] = h;
    return true;
}

// A copy of an int8 (1-byte) L1 tile into L0A/L0B addresses its source as
// upstream's copy_l1_to_l0a/b do: the flat row-major offset of the start index,
// P = row * cols + col, is a physical element offset into the tile's zN layout
// (fractals of 16 rows x 32 bytes, column blocks of all the rows one after
// another), from which the helper reads the L0 tile. Upstream's int8 kernels
// index their L1 tiles that way (quant_batch_matmul's
// `A_L1[s, kk * block_M * K_L0 // block_K, 0]` is the kk-th K tile); the start
// becomes the logical element that offset holds: row = P % (R16 * 32) / 32,
// col = P / (R16 * 32) * 32 + P % 32, R16 the rows rounded up to 16.
static void int8_physical_start(tl_kernel_t *k, tl_region_t *r)
{
    int n = r->ndim;
    int64_t r0, c0;
    if (n < 2 || (tl_ir_is_const_int(r->start[n - 2], &r0) && !r0 &&
                  tl_ir_is_const_int(r->start[n - 1], &c0) && !c0))
        return;
    tl_loc_t loc = r->loc;
    int64_t rows16 = (r->buf->shape[n - 2] + 15) / 16 * 16;
    tl_expr_t *cols = tl_ir_int(k, r->buf->shape[n - 1], TL_I32, loc);
    tl_expr_t *block = tl_ir_int(k, rows16 * 32, TL_I32, loc), *c0e = tl_ir_int(k, 32, TL_I32, loc);
    tl_expr_t *p = tl_ir_bin(k, TL_BIN_ADD, tl_ir_bin(k, TL_BIN_MUL, r->start[n - 2], cols, loc),
                             r->start[n - 1], loc);
    tl_expr_t *in_block = tl_ir_bin(k, TL_BIN_FLOORMOD, p, block, loc);
    tl_expr_t *col_block = tl_ir_bin(k, TL_BIN_FLOORDIV, p, block, loc);
    r->start[n - 2] = tl_ir_bin(k, TL_BIN_FLOORDIV, in_block, c0e, loc);
    r->start[n - 1] = tl_ir_bin(k, TL_BIN_ADD, tl_ir_bin(k, TL_BIN_MUL, col_block, c0e, loc),
                                tl_ir_bin(k, TL_BIN_FLOORMOD, p, c0e, loc), loc);
    if (r->form == TL_REGION_WHOLE) r->form = TL_REGION_SLICE;
}

static tl_value_t *op_copy(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src",       "dst",    "enable_relu", "transpose", "pad_value",
                                "unit_flag", "real_k", "real_n",      NULL};
    tl_npuir_size_t size = {0}; // npuir's copy(src, dst, coalesced_width, size)
    if (tl_front_npuir(ev) && !tl_front_npuir_copy_args(ev, c, &size)) return NULL;
    if (!tl_call_check(ev, c, "T.copy", 2, 5, kws) || !tl_trace_require(ev, c->loc, "T.copy")) return NULL;
    tl_value_t *src = tl_call_arg(c, 0, "src"), *dst = tl_call_arg(c, 1, "dst");
    if (!src || !dst) return tl_eval_fail(ev, c->loc, "T.copy needs a source and a destination");
    tl_stmt_t *s = new_op(ev, TL_OP_COPY, c->loc, 2);
    tl_op_t *op = &s->op;
    op->exact = tl_front_npuir(ev); // npuir's copy rule (ir/copy_plan.h)
    if (!operand(ev, src, tl_call_arg_loc(c, 0, "src"), 'r', "T.copy's source", &op->args[0]) ||
        !operand(ev, dst, tl_call_arg_loc(c, 1, "dst"), 'w', "T.copy's destination", &op->args[1]))
        return NULL;
    op->nargs = 2;
    tl_region_t *a = &op->args[0].region, *b = &op->args[1].region;
    if (size.n) {
        if (a->form == TL_REGION_SLICE || b->form == TL_REGION_SLICE)
            return tl_eval_fail(ev, c->loc, "T.copy: cannot use both slice syntax and the size parameter");
        tl_front_npuir_extent(ev, a, &size, c->loc);
        tl_front_npuir_extent(ev, b, &size, c->loc);
    }
    if (a->form == TL_REGION_POINT && b->form == TL_REGION_POINT)
        return tl_eval_fail(ev, c->loc, "T.copy cannot infer the copy size: both operands are single "
                                        "elements (slice one of them, e.g. A[i:i+n, :])");
    if (a->form == TL_REGION_POINT) infer_point(a, b, ev->kernel);
    if (b->form == TL_REGION_POINT) infer_point(b, a, ev->kernel);
    if (op->exact && !tl_front_npuir_copy_check(ev, op, c->loc)) return NULL;
    tl_value_t *relu = tl_call_arg(c, 2, "enable_relu"), *tr = tl_call_arg(c, 3, "transpose");
    tl_value_t *pad = tl_call_arg(c, 4, "pad_value");
    if (relu && !tl_value_to_flag(ev, relu, tl_call_arg_loc(c, 2, "enable_relu"), "enable_relu", &op->enable_relu))
        return NULL;
    if (tr && tr->kind != TL_V_NONE &&
        !tl_value_to_flag(ev, tr, tl_call_arg_loc(c, 3, "transpose"), "transpose", &op->transpose))
        return NULL;
    if (pad && pad->kind != TL_V_NONE) {
        op->pad_value = tl_value_to_expr(ev, pad, tl_call_arg_loc(c, 4, "pad_value"), b->buf->dtype);
        if (!op->pad_value) return NULL;
    }
    // the valid part of an L1 -> L0A/L0B load, the unit flag of a copy out of L0C
    bool bad = false;
    bool to_l0 = a->buf->scope == TL_SCOPE_L1 &&
                 (b->buf->scope == TL_SCOPE_L0A || b->buf->scope == TL_SCOPE_L0B);
    if (to_l0 && !op->transpose && tl_dtype_size(a->buf->dtype) == 1) int8_physical_start(ev->kernel, a);
    static const char *vkw[3] = {"real_k", "real_n", "unit_flag"};
    tl_expr_t **slot[3] = {&op->k_valid, &op->n_valid, &op->unit_flag};
    for (int i = 0; i < 3; i++) {
        *slot[i] = int_attr(ev, c, -1, vkw[i], i == 2, &bad);
        if (bad) return NULL;
        bool ok = i < 2 ? to_l0 && (i == 0 || b->buf->scope == TL_SCOPE_L0B)
                        : a->buf->scope == TL_SCOPE_L0C;
        if (*slot[i] && !ok)
            return tl_eval_fail(ev, tl_call_arg_loc(c, -1, vkw[i]), "%s",
                                i == 0   ? "real_k only applies to copies from L1 to L0A/L0B"
                                : i == 1 ? "real_n only applies to copies from L1 to L0B"
                                         : "unit_flag only applies to copies out of L0C");
    }
    // int4 is held in packed bytes: shapes compare only between int4 buffers (verify.c)
    if (a->buf->int4 != b->buf->int4) {
        const tl_buffer_t *i4 = a->buf->int4 ? a->buf : b->buf, *o = a->buf->int4 ? b->buf : a->buf;
        tl_eval_fail(ev, c->loc, "T.copy between int4 '%s' and %s '%s': int4 copies only to and "
                                 "from int4 buffers (convert with T.tile.cast float16 <-> int4)",
                     i4->name, tl_dtype_name(o->dtype), o->name);
        return NULL;
    }
    // Whole-buffer copies must agree in shape (as upstream asserts), except a
    // vector core's half of a cube tile (below).
    if (a->form == TL_REGION_WHOLE && b->form == TL_REGION_WHOLE && !op->transpose &&
        a->buf->scope != TL_SCOPE_GM && b->buf->scope != TL_SCOPE_GM) {
        bool same = a->ndim == b->ndim;
        for (int i = 0; same && i < a->ndim; i++) same = a->buf->shape[i] == b->buf->shape[i];
        if (!same && vid_half(ev->kernel, a, b)) same = true;
        if (!same) {
            tl_buf_t sa, sb;
            tl_buf_init(&sa);
            tl_buf_init(&sb);
            tl_ir_print_region(&sa, a);
            tl_ir_print_region(&sb, b);
            for (int i = 0; i < a->ndim; i++) tl_buf_printf(&sa, "%s%lld", i ? "x" : " ", (long long)a->buf->shape[i]);
            for (int i = 0; i < b->ndim; i++) tl_buf_printf(&sb, "%s%lld", i ? "x" : " ", (long long)b->buf->shape[i]);
            tl_eval_fail(ev, c->loc, "T.copy of whole buffers needs equal shapes: %s vs %s",
                         tl_buf_cstr(&sa), tl_buf_cstr(&sb));
            tl_buf_free(&sa);
            tl_buf_free(&sb);
            return NULL;
        }
    }
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// --- GEMM ------------------------------------------------------------------------------------------

// gemm_v0's kL0Size: the K of each L1 -> L0A/L0B chunk of the helper's L0 ping-pong
// (tl_templates/ascend gemm_v0; upstream's docs: a multiple of 16, at most 4095). It changes
// the L0 tiling only, not the result.
static bool gemm_k_l0(tl_eval_t *ev, tl_call_t *c, int *out)
{
    tl_value_t *v = tl_call_arg(c, 6, "kL0Size");
    if (!v || v->kind == TL_V_NONE) return true;
    tl_loc_t loc = tl_call_arg_loc(c, 6, "kL0Size");
    tl_expr_t *e = tl_value_to_expr(ev, v, loc, TL_I32);
    int64_t k;
    if (!e) return false;
    if (!tl_ir_is_const_int(e, &k)) {
        tl_eval_fail(ev, loc, "T.gemm_v0 kL0Size must be a compile-time integer");
        return false;
    }
    if (k <= 0 || k % 16 != 0 || k > 4095) {
        tl_eval_fail(ev, loc, "T.gemm_v0 kL0Size must be a multiple of 16 in [16, 4095], got %lld",
                     (long long)k);
        return false;
    }
    *out = (int)k;
    return true;
}

// The int8 K tiles upstream's gemm_v0 rejects at compile time (tilelang-ascend #1723, merged
// 2026-09: two static_asserts in tl_templates/ascend common.h). An mmad consumes K in whole
// 32-byte C0 blocks (32 int8 elements) while the L1 zN tile pads K only to 16 rows, so a last K
// tile of 32q + 1..16 elements reads 16 L0B rows no copy wrote; and with several K tiles each
// must be a whole C0 block. 16- and 32-bit operands never trip either (C0 is at most 16).
static bool gemm_k_tiles(tl_eval_t *ev, const tl_stmt_t *s, tl_loc_t loc)
{
    const tl_region_t *a = &s->op.args[0].region;
    int d = a->ndim - 1 - (s->op.transpose_a && a->ndim >= 2);
    int64_t k = a->buf->shape[d], kl0 = tl_gemm_v0_k_l0(&s->op);
    if (tl_dtype_size(a->buf->dtype) != 1 || d < 0 ||
        (a->extent[d] && !tl_ir_is_const_int(a->extent[d], &k)) || k <= 0)
        return true;
    if (a->buf->int4) {
        // int4: 64 elements a 32-byte C0 block; the s4 loads and mad_s4 consume whole
        // blocks while the L0 slots are planned unrounded (upstream's static_assert)
        if (d == a->ndim - 1) k *= 2; // the packed bytes' elements
        int64_t split = (k + kl0 - 1) / kl0, tail = k - (split - 1) * kl0;
        if (tail % 64 || (split > 1 && kl0 % 64)) {
            tl_eval_fail(ev, loc,
                         "T.gemm_v0 with int4 operands needs K tiles that are a multiple of 64 "
                         "(one 32-byte C0 block of int4), got K = %lld with kL0Size %lld; "
                         "upstream's gemm_v0 rejects this at compile time (static_assert)",
                         (long long)k, (long long)kl0);
            return false;
        }
        return true;
    }
    int64_t split = (k + kl0 - 1) / kl0, tail = k - (split - 1) * kl0, c0 = 32;
    if (split > 1 && kl0 % c0 != 0) {
        tl_eval_fail(ev, loc,
                     "T.gemm_v0 with %s operands and K = %lld needs kL0Size a multiple of %lld "
                     "(32 bytes), got %lld: its mmad consumes each K tile in whole 32-byte blocks; "
                     "upstream's gemm_v0 rejects this at compile time (tilelang-ascend #1723)",
                     tl_dtype_name(a->buf->dtype), (long long)k, (long long)c0, (long long)kl0);
        return false;
    }
    if (tail % c0 >= 1 && tail % c0 <= 16) {
        tl_eval_fail(
            ev, loc,
            "T.gemm_v0 with %s operands: K = %lld leaves a last K tile of %lld (kL0Size "
            "%lld), whose mmad rounds it up to %lld and reads 16 L0B rows no copy wrote; "
            "upstream's gemm_v0 rejects this at compile time (tilelang-ascend #1723): pad K "
            "to a multiple of 32 (or give a kL0Size that leaves a tail of 0 or 17..31 "
            "modulo 32)",
            tl_dtype_name(a->buf->dtype), (long long)k, (long long)tail, (long long)kl0,
            (long long)((tail + c0 - 1) / c0 * c0));
        return false;
    }
    return true;
}

static tl_value_t *op_gemm(tl_eval_t *ev, tl_call_t *c)
{
    bool mma = spelling_of(c)->op == TL_OP_MMA;
    static const char *kws_v0[] = {"A",           "B",    "C",       "transpose_A",
                                   "transpose_B", "init", "kL0Size", "n_actual", NULL};
    static const char *kws_mma[] = {"A",        "B",        "C",         "init",
                                    "k_actual", "n_actual", "unit_flag", NULL};
    const char *fname = mma ? "T.mma" : "T.gemm_v0";
    if (!tl_call_check(ev, c, fname, 3, mma ? 4 : 8, mma ? kws_mma : kws_v0) ||
        !tl_trace_require(ev, c->loc, fname))
        return NULL;
    tl_stmt_t *s = new_op(ev, mma ? TL_OP_MMA : TL_OP_GEMM_V0, c->loc, 3);
    static const char *names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++) {
        tl_value_t *v = tl_call_arg(c, i, names[i]);
        if (!v) return tl_eval_fail(ev, c->loc, "%s is missing operand %s", fname, names[i]);
        const char *what = tl_arena_printf(ev->arena, "%s operand %s", fname, names[i]);
        if (!operand(ev, v, tl_call_arg_loc(c, i, names[i]), i == 2 ? 'x' : 'r', what, &s->op.args[i]))
            return NULL;
    }
    s->op.nargs = 3;
    if (!mma) {
        tl_value_t *ta = tl_call_arg(c, 3, "transpose_A"), *tb = tl_call_arg(c, 4, "transpose_B");
        if (ta && !tl_value_to_flag(ev, ta, tl_call_arg_loc(c, 3, "transpose_A"), "transpose_A", &s->op.transpose_a))
            return NULL;
        if (tb && !tl_value_to_flag(ev, tb, tl_call_arg_loc(c, 4, "transpose_B"), "transpose_B", &s->op.transpose_b))
            return NULL;
    }
    tl_value_t *init = tl_call_arg(c, mma ? 3 : 5, "init");
    if (init) {
        tl_expr_t *e = tl_value_to_expr(ev, init, tl_call_arg_loc(c, mma ? 3 : 5, "init"), TL_BOOL);
        if (!e) return NULL;
        int64_t v;
        if (!(tl_ir_is_const_int(e, &v) && v == 0)) s->op.init = tl_ir_cast(ev->kernel, TL_BOOL, e, c->loc);
    }
    // mma: the valid K and N of the multiply, the unit flag of its L0C write
    bool bad = false;
    if (mma) s->op.k_valid = int_attr(ev, c, -1, "k_actual", false, &bad);
    if (!bad) s->op.n_valid = int_attr(ev, c, mma ? -1 : 7, "n_actual", false, &bad);
    if (!bad && !mma && (!gemm_k_l0(ev, c, &s->op.k_l0) || !gemm_k_tiles(ev, s, c->loc)))
        return NULL;
    if (!bad && mma) s->op.unit_flag = int_attr(ev, c, -1, "unit_flag", true, &bad);
    if (bad) return NULL;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// --- reductions ------------------------------------------------------------------------------------

// Older upstream reductions take a scratch buffer: T.reduce_max(buffer, out, tmp, dim)
// (ascend.py, early 2026) and T.tile.reduce_max(out, buffer, tmp, dim) (ascend_tile.py
// before the T-level form). tilec's reduce needs no scratch: the tmp is accepted and
// ignored, the call rewritten to (buffer, out, dim, ...).
static void reduce_drop_tmp(tl_eval_t *ev, tl_call_t *c, bool dst_first)
{
    int n = c->nargs;
    tl_value_t **args = tl_arena_alloc(ev->arena, sizeof *args * (size_t)(n + 1));
    tl_loc_t *locs = tl_arena_alloc(ev->arena, sizeof *locs * (size_t)(n + 1));
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (i == 2 && is_tile_operand(c->args[i])) continue; // the scratch
        args[k] = c->args[i];
        locs[k++] = c->arg_locs ? c->arg_locs[i] : c->loc;
    }
    if (dst_first && k >= 2) { // (out, buffer) -> (buffer, out)
        tl_value_t *t = args[0];
        args[0] = args[1], args[1] = t;
        tl_loc_t tl = locs[0];
        locs[0] = locs[1], locs[1] = tl;
    }
    const char **names = tl_arena_alloc(ev->arena, sizeof *names * (size_t)(c->nkw + 1));
    tl_value_t **values = tl_arena_alloc(ev->arena, sizeof *values * (size_t)(c->nkw + 1));
    tl_loc_t *kw_locs = tl_arena_alloc(ev->arena, sizeof *kw_locs * (size_t)(c->nkw + 1));
    int m = 0;
    for (int i = 0; i < c->nkw; i++) { // keywords: drop tmp=
        if (!strcmp(c->kw_names[i], "tmp")) continue;
        names[m] = c->kw_names[i];
        values[m] = c->kw_values[i];
        kw_locs[m++] = c->kw_locs ? c->kw_locs[i] : c->loc;
    }
    c->nkw = m, c->kw_names = names, c->kw_values = values, c->kw_locs = kw_locs;
    c->nargs = k, c->args = args, c->arg_locs = locs;
}

// The axis of a reduction or cumsum normalised to 0 (over the rows: one line per
// column) or -1 (within each row); false after an error at loc.
static bool tile_axis(tl_eval_t *ev, const char *fname, int rank, int64_t dim, tl_loc_t loc, int *out)
{
    int r2 = rank >= 2 ? 2 : 1;
    if (rank == 1) {
        if (dim != 0 && dim != -1) {
            tl_eval_fail(ev, loc, "%s of a 1-D buffer takes dim 0 or -1, got %lld", fname, (long long)dim);
            return false;
        }
        *out = -1;
        return true;
    }
    int64_t norm = dim < 0 ? dim + rank : dim; // absolute axis
    int64_t rel = norm - (rank - r2);          // relative to the trailing 2-D tile
    if (rel != 0 && rel != 1) {
        tl_eval_fail(ev, loc,
                     "%s dim=%lld: the buffer has %d dimensions and only its last two axes can be reduced "
                     "(dim %d, %d, -2 or -1)",
                     fname, (long long)dim, rank, rank - 2, rank - 1);
        return false;
    }
    *out = rel == 1 ? -1 : 0;
    return true;
}

static tl_value_t *op_reduce(tl_eval_t *ev, tl_call_t *c)
{
    tl_opcode_t code = spelling_of(c)->op;
    const char *fname = fname_of(ev, c);
    bool dst_first = !strncmp(spelling_of(c)->api, "T.tile.", 7);
    // reduce_abssum(buffer, out, dim) and reduce_absmax(buffer, out, dim, clear)
    // never had a scratch operand nor real_shape (upstream's reduce.py)
    bool abs_op = code == TL_OP_REDUCE_ABSSUM || code == TL_OP_REDUCE_ABSMAX;
    tl_npuir_size_t size = {0}; // npuir's reduce_sum / max / min(buffer, out, dim, size, clear)
    if (!abs_op && !dst_first && tl_front_npuir(ev) && !tl_front_npuir_reduce_args(ev, c, fname, &size)) return NULL;
    if (!abs_op && (dst_first || (c->nargs >= 3 && is_tile_operand(c->args[2])) || tl_call_arg(c, -1, "tmp")))
        reduce_drop_tmp(ev, c, dst_first);
    static const char *kws[] = {"buffer", "out", "dim", "clear", "real_shape", NULL};
    int most = code == TL_OP_REDUCE_ABSSUM ? 3 : code == TL_OP_REDUCE_ABSMAX ? 4 : 5;
    static const char *kws_abs[3][5] = {{"buffer", "out", "dim", NULL}, {"buffer", "out", "dim", "clear", NULL}};
    if (!tl_call_check(ev, c, fname, 2, most, abs_op ? kws_abs[most - 3] : kws) ||
        !tl_trace_require(ev, c->loc, fname))
        return NULL;
    tl_stmt_t *s = new_op(ev, code, c->loc, 2);
    tl_value_t *in = tl_call_arg(c, 0, "buffer"), *out = tl_call_arg(c, 1, "out");
    if (!in || !out) return tl_eval_fail(ev, c->loc, "%s needs a buffer and an output", fname);
    if (!operand(ev, in, tl_call_arg_loc(c, 0, "buffer"), 'r', "the reduced buffer", &s->op.args[0]) ||
        !operand(ev, out, tl_call_arg_loc(c, 1, "out"), 'x', "the reduction output", &s->op.args[1]))
        return NULL;
    s->op.nargs = 2;
    int64_t dim = -1;
    tl_value_t *d = tl_call_arg(c, 2, "dim");
    if (d && !tl_value_to_int(ev, d, tl_call_arg_loc(c, 2, "dim"), "dim", &dim)) return NULL;
    if (!tile_axis(ev, fname, s->op.args[0].region.ndim, dim, tl_call_arg_loc(c, 2, "dim"), &s->op.dim))
        return NULL;
    if (size.n) { // the extents of both from size=, the reduced one 1 in the output's
        int ax = (int)(dim < 0 ? dim + s->op.args[0].region.ndim : dim), j = size.n - s->op.args[0].region.ndim + ax;
        tl_front_npuir_extent(ev, &s->op.args[0].region, &size, c->loc);
        if (j >= 0 && j < size.n) size.e[j] = tl_ir_int(ev->kernel, 1, TL_I32, c->loc);
        tl_front_npuir_extent(ev, &s->op.args[1].region, &size, c->loc);
    }
    // `clear` and `real_shape` may also come positionally, in either order.
    for (int i = 3; i < c->nargs; i++) {
        tl_value_t *v = c->args[i];
        if (v->kind == TL_V_BOOL) s->op.clear = v->b;
        else if (v->kind == TL_V_LIST || v->kind == TL_V_TUPLE) {
            if (v->seq.n != 2)
                return tl_eval_fail(ev, c->arg_locs[i], "real_shape needs [rows, cols], got %d entries", v->seq.n);
            for (int k = 0; k < 2; k++)
                if (!tl_value_to_int(ev, v->seq.items[k], c->arg_locs[i], "real_shape", &s->op.real_shape[k])) return NULL;
        } else if (v->kind != TL_V_NONE)
            return tl_eval_fail(ev, c->arg_locs[i], "unexpected argument to %s", fname);
    }
    tl_value_t *cl = tl_call_arg(c, -1, "clear"), *rs = tl_call_arg(c, -1, "real_shape");
    if (cl && !tl_value_to_flag(ev, cl, tl_call_arg_loc(c, -1, "clear"), "clear", &s->op.clear)) return NULL;
    if (rs && rs->kind != TL_V_NONE) {
        int n;
        tl_value_t **items = tl_value_items(ev, rs, tl_call_arg_loc(c, -1, "real_shape"), "real_shape", &n);
        if (!items) return NULL;
        if (n != 2)
            return tl_eval_fail(ev, tl_call_arg_loc(c, -1, "real_shape"), "real_shape needs [rows, cols], got %d entries",
                                n);
        for (int k = 0; k < 2; k++)
            if (!tl_value_to_int(ev, items[k], tl_call_arg_loc(c, -1, "real_shape"), "real_shape", &s->op.real_shape[k]))
                return NULL;
    }
    for (int k = 0; k < 2; k++)
        if (s->op.real_shape[k] < 0)
            return tl_eval_fail(ev, tl_call_arg_loc(c, -1, "real_shape"), "real_shape entries must be >= 0");
    if (abs_op && tl_front_npuir(ev)) {
        // npuir's abssum / absmax: |buffer| written into the buffer, then its sum / max
        // (customize_npuir.py npuir_reduce)
        tl_stmt_t *a = new_op(ev, TL_OP_ABS, c->loc, 2);
        a->op.args[0] = a->op.args[1] = s->op.args[0];
        a->op.nargs = 2;
        tl_trace_emit(ev, a);
        s->op.code = code == TL_OP_REDUCE_ABSSUM ? TL_OP_REDUCE_SUM : TL_OP_REDUCE_MAX;
    }
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// T.cumsum(src, dst=None, dim=0, reverse=False): the running sums of src along dim
// into dst (src itself without one). Upstream's reduce.py rejects a dim outside
// (-rank, rank), so dim=-rank too (-1 of a 1-D buffer): kept, in its words.
static tl_value_t *op_cumsum(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src", "dst", "dim", "reverse", NULL};
    if (!tl_call_check(ev, c, "T.cumsum", 1, 4, kws) || !tl_trace_require(ev, c->loc, "T.cumsum")) return NULL;
    tl_value_t *src = tl_call_arg(c, 0, "src"), *dst = tl_call_arg(c, 1, "dst");
    if (!src) return tl_eval_fail(ev, c->loc, "T.cumsum needs a source buffer");
    tl_loc_t dloc = tl_call_arg_loc(c, 1, "dst");
    if (!dst || dst->kind == TL_V_NONE) dst = src, dloc = tl_call_arg_loc(c, 0, "src");
    tl_stmt_t *s = new_op(ev, TL_OP_CUMSUM, c->loc, 2);
    if (!operand(ev, src, tl_call_arg_loc(c, 0, "src"), 'r', "T.cumsum's source", &s->op.args[0]) ||
        !operand(ev, dst, dloc, 'x', "T.cumsum's destination", &s->op.args[1]))
        return NULL;
    s->op.nargs = 2;
    s->op.clear = true;
    int64_t dim = 0;
    tl_value_t *d = tl_call_arg(c, 2, "dim"), *rev = tl_call_arg(c, 3, "reverse");
    tl_loc_t at = tl_call_arg_loc(c, 2, "dim");
    if (d && !tl_value_to_int(ev, d, at, "dim", &dim)) return NULL;
    int rank = s->op.args[0].region.ndim;
    if (dim >= rank || dim <= -rank) {
        const tl_buffer_t *b = s->op.args[0].region.buf;
        char shape[160] = "[";
        for (int i = 0; i < b->ndim && strlen(shape) < 120; i++)
            snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%lld", i ? ", " : "",
                     (long long)b->shape[i]);
        strcat(shape, "]");
        return tl_eval_fail(ev, at, "Dimension %lld is out of bounds for buffer with shape %s", (long long)dim,
                            shape);
    }
    if (!tile_axis(ev, "T.cumsum", rank, dim, at, &s->op.dim)) return NULL;
    if (rev && !tl_value_to_flag(ev, rev, tl_call_arg_loc(c, 3, "reverse"), "reverse", &s->op.reverse)) return NULL;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// --- state and bit casts -----------------------------------------------------------------------------

static tl_value_t *op_deq_scale(tl_eval_t *ev, tl_call_t *c)
{
    if (!tl_call_check(ev, c, "T.set_deq_scale", 1, 1, NULL) || !tl_trace_require(ev, c->loc, "T.set_deq_scale"))
        return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_SET_DEQ_SCALE, c->loc, 1);
    if (!operand(ev, c->args[0], tl_call_arg_loc(c, 0, NULL), 's', "the dequantisation scale", &s->op.args[0]))
        return NULL;
    s->op.nargs = 1;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

static tl_value_t *op_reinterpret(tl_eval_t *ev, tl_call_t *c)
{
    const char *fname = fname_of(ev, c);
    if (!tl_call_check(ev, c, fname, 3, 3, NULL) || !tl_trace_require(ev, c->loc, fname)) return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_REINTERPRETCAST, c->loc, 2);
    if (!operand(ev, c->args[0], tl_call_arg_loc(c, 0, NULL), 'w', "T.reinterpretcast's destination", &s->op.args[0]) ||
        !operand(ev, c->args[1], tl_call_arg_loc(c, 1, NULL), 'r', "T.reinterpretcast's source", &s->op.args[1]))
        return NULL;
    s->op.nargs = 2;
    const char *t = tl_value_to_cstr(ev, c->args[2], tl_call_arg_loc(c, 2, NULL), "the cast type");
    if (!t) return NULL;
    // C spellings ("uint32_t", "float") name the destination's element type.
    char name[32];
    snprintf(name, sizeof name, "%s", t);
    size_t n = strlen(name);
    if (n > 2 && !strcmp(name + n - 2, "_t")) name[n - 2] = 0;
    if (!tl_dtype_parse(name, &s->op.dtype))
        return tl_eval_fail(ev, tl_call_arg_loc(c, 2, NULL), "unknown cast type \"%s\"", t);
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// T.tile.im2col(dst, src, image_shape, kernel, stride=(1, 1), dilation=(1, 1),
// padding=(0, 0, 0, 0), pos_m=0, pos_k=0, valid_m=None, valid_k=None): the
// tuples become scalar operands in order (exec/tileop_im2col.c), valid_m /
// valid_k default to the destination region's rows / columns.
static tl_value_t *op_im2col(tl_eval_t *ev, tl_call_t *c)
{
    const char *fname = "T.tile.im2col";
    static const char *kws[] = {"dst",     "src",   "image_shape", "kernel",  "stride",  "dilation",
                                "padding", "pos_m", "pos_k",       "valid_m", "valid_k", NULL};
    static const int len[] = {0, 0, 2, 2, 2, 2, 4, 1, 1, 1, 1};
    static const int64_t dflt[] = {0, 0, 0, 0, 1, 1, 0, 0, 0, -1, -1};
    if (!tl_call_check(ev, c, fname, 4, 11, kws) || !tl_trace_require(ev, c->loc, fname)) return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_IM2COL, c->loc, 18);
    tl_op_t *op = &s->op;
    for (int i = 0; i < 11; i++) {
        tl_value_t *v = tl_call_arg(c, i, kws[i]);
        tl_loc_t loc = tl_call_arg_loc(c, i, kws[i]);
        const char *what = tl_arena_printf(ev->arena, "%s argument '%s'", fname, kws[i]);
        if (i < 2) {
            if (!operand(ev, v, loc, i == 0 ? 'w' : 'r', what, &op->args[op->nargs])) return NULL;
            op->nargs++;
            continue;
        }
        if (v && v->kind == TL_V_NONE) v = NULL;
        if (!v && dflt[i] < 0) { // valid_m / valid_k: the destination region's rows / columns
            const tl_region_t *d = &op->args[0].region;
            if (d->ndim < 2) return tl_eval_fail(ev, c->loc, "%s needs a [rows, columns] destination", fname);
            op->args[op->nargs++] = (tl_arg_t){.kind = TL_ARG_SCALAR, .scalar = d->extent[d->ndim - 2 + (i - 9)]};
            continue;
        }
        bool seq = v && (v->kind == TL_V_TUPLE || v->kind == TL_V_LIST);
        if (len[i] > 1 && v && (!seq || v->seq.n != len[i]))
            return tl_eval_fail(ev, loc, "%s must be a tuple of %d values", what, len[i]);
        for (int j = 0; j < len[i]; j++) {
            tl_value_t *e = !v ? tl_value_int(ev->arena, dflt[i]) : len[i] > 1 ? v->seq.items[j] : v;
            if (!operand(ev, e, loc, 's', what, &op->args[op->nargs])) return NULL;
            op->nargs++;
        }
    }
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// Installs every spelling of the op table: "T.tile.<name>" into T.tile,
// "T.<name>" into T.
void tl_front_install_tile_ops(tl_eval_t *ev, tl_value_t *lang, tl_value_t *tile)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(spellings); i++) {
        const char *api = spellings[i].api, *tile_prefix = "T.tile.";
        bool in_tile = !strncmp(api, tile_prefix, strlen(tile_prefix));
        const char *name = api + (in_tile ? strlen(tile_prefix) : strlen("T."));
        name = tl_arena_printf(ev->arena, "%.*s", (int)strcspn(name, " "), name);
        tl_value_module_set(ev->arena, in_tile ? tile : lang, name,
                            tl_value_builtin(ev->arena, name, spellings[i].bind,
                                             tl_value_int(ev->arena, (int64_t)i)));
    }
}
