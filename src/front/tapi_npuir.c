// Upstream's npuir dialect (`@tilelang.jit(target="npuir")`, the AscendNPU-IR
// back end of tilelang-ascend's npuir branch, tilelang/language/customize_npuir.py):
// its spellings as ops of tilec's IR. The element-wise family (T.vadd(A, B, C),
// T.vexp(A, B), ...: the destination last) are rows of the op table (ir/ops.h,
// role '^'); this file binds the rest: T.clear / T.fill (a broadcast of a value),
// T.vbrc, T.vcast, T.vclamp (max then min), T.vexp2 / T.vlog2 (through their
// scratch buffer), and names the members of the family tilec does not implement.
// Every npuir spelling is an error outside an npuir kernel, as upstream's other
// back ends do not define them.
#include "front/front.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

// The target of the kernel being traced: the jit's target= value.
bool tl_front_npuir(tl_eval_t *ev)
{
    const tl_value_t *t = ev->trace_target;
    if (!t && ev->jit) t = ev->jit->jit.target;
    return t && t->kind == TL_V_STR && !strcmp(t->str.s, "npuir");
}

bool tl_front_npuir_require(tl_eval_t *ev, tl_loc_t loc, const char *fname)
{
    if (tl_front_npuir(ev)) return true;
    tl_eval_fail(ev, loc,
                 "%s is upstream's npuir dialect: only kernels of @tilelang.jit(target=\"npuir\") "
                 "have it (the Ascend C and PTO back ends do not)",
                 fname);
    return false;
}

static tl_stmt_t *new_op(tl_eval_t *ev, tl_opcode_t code, tl_loc_t loc, int nargs)
{
    tl_stmt_t *s = tl_ir_stmt(ev->kernel, TL_ST_OP, loc);
    s->op.code = code;
    s->op.args = tl_arena_alloc(ev->arena, sizeof(tl_arg_t) * (size_t)nargs);
    s->op.dim = -1;
    s->op.clear = true;
    s->op.round = TL_CAST_RINT;
    return s;
}

static bool is_tile(const tl_value_t *v)
{
    return v && (v->kind == TL_V_REGION || (v->kind == TL_V_BUFFER && v->buffer->scope != TL_SCOPE_VAR));
}

// One operand: a region (tiles; `tile_only`) or, for a value operand, a scalar.
static bool arg(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, bool tile_only, const char *fname,
                tl_arg_t *out)
{
    tl_value_t *v = tl_call_arg(c, pos, kw);
    tl_loc_t loc = tl_call_arg_loc(c, pos, kw);
    if (!v) {
        tl_eval_fail(ev, c->loc, "%s is missing its '%s' argument", fname, kw);
        return false;
    }
    const char *what = tl_arena_printf(ev->arena, "%s argument '%s'", fname, kw);
    bool point = v->kind == TL_V_EXPR && v->expr->kind == TL_EX_LOAD && v->expr->load.buf->scope != TL_SCOPE_VAR;
    if (is_tile(v) || (tile_only && point)) { // A[i, j] of a tile operand: a region from there
        tl_region_t *r = tl_value_to_region(ev, v, loc, what);
        if (!r) return false;
        out->kind = TL_ARG_REGION;
        out->region = *r;
        return true;
    }
    if (tile_only) {
        tl_eval_fail(ev, loc, "%s must be a buffer or a buffer region, got %s", what, tl_value_type_name(v));
        return false;
    }
    if (!tl_value_is_exprlike(v)) {
        tl_eval_fail(ev, loc, "%s must be a buffer, a buffer region or a scalar, got %s", what,
                     tl_value_type_name(v));
        return false;
    }
    out->kind = TL_ARG_SCALAR;
    out->scalar = tl_value_to_expr(ev, v, loc, -1);
    return out->scalar != NULL;
}

static tl_arg_t scalar_arg(tl_expr_t *e)
{
    tl_arg_t a = {.kind = TL_ARG_SCALAR};
    a.scalar = e;
    return a;
}

// Emits code(dst, a[, b]).
static void emit(tl_eval_t *ev, tl_loc_t loc, tl_opcode_t code, const tl_arg_t *dst, const tl_arg_t *a,
                 const tl_arg_t *b)
{
    tl_stmt_t *s = new_op(ev, code, loc, 3);
    s->op.args[0] = *dst;
    s->op.args[1] = *a;
    s->op.nargs = 2;
    if (b) s->op.args[s->op.nargs++] = *b;
    tl_trace_emit(ev, s);
}

static bool begin(tl_eval_t *ev, tl_call_t *c, const char *fname, int min_req, int max_pos,
                  const char *const *kws)
{
    return tl_call_check(ev, c, fname, min_req, max_pos, kws) && tl_front_npuir_require(ev, c->loc, fname) &&
           tl_trace_require(ev, c->loc, fname);
}

// The single element of a one-element region, as a scalar read.
static tl_expr_t *element_of(tl_eval_t *ev, const tl_region_t *r, tl_loc_t loc)
{
    tl_expr_t *idx[TL_MAX_DIMS];
    for (int d = 0; d < r->ndim; d++)
        idx[d] = r->form == TL_REGION_WHOLE || !r->start[d] ? tl_ir_int(ev->kernel, 0, TL_I32, loc) : r->start[d];
    return tl_ir_load(ev->kernel, r->buf, r->ndim, idx, loc);
}

// T.vbrc(src, dst) / T.fill(buffer, value): a scalar, or a one-element
// region, fills dst; a region with unit extents where dst has more is
// broadcast over them (tilec's broadcast: a (1, N) or (M, 1) source).
static tl_value_t *brc(tl_eval_t *ev, tl_call_t *c, const char *fname, int src_pos, const char *src_kw,
                       int dst_pos, const char *dst_kw)
{
    tl_arg_t src, dst;
    if (!arg(ev, c, dst_pos, dst_kw, true, fname, &dst) || !arg(ev, c, src_pos, src_kw, false, fname, &src))
        return NULL;
    if (src.kind == TL_ARG_REGION && tl_region_numel(&src.region) == 1)
        src = scalar_arg(element_of(ev, &src.region, c->loc));
    emit(ev, c->loc, src.kind == TL_ARG_SCALAR ? TL_OP_FILL : TL_OP_BROADCAST, &dst, &src, NULL);
    return tl_value_none();
}

static tl_value_t *n_vbrc(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src", "dst", NULL};
    if (!begin(ev, c, "T.vbrc", 2, 2, kws)) return NULL;
    return brc(ev, c, "T.vbrc", 0, "src", 1, "dst");
}

// T.fill / T.clear: npuir's (a broadcast of the value); elsewhere not Ascend's.
static tl_value_t *n_fill(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"buffer", "value", NULL};
    if (!tl_front_npuir(ev))
        return tl_eval_fail(ev, c->loc, "T.fill is not available on Ascend; use T.tile.fill (T.fill is "
                                        "upstream's npuir dialect: @tilelang.jit(target=\"npuir\"))");
    if (!begin(ev, c, "T.fill", 2, 2, kws)) return NULL;
    return brc(ev, c, "T.fill", 1, "value", 0, "buffer");
}

static tl_value_t *n_clear(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"buffer", NULL};
    if (!tl_front_npuir(ev))
        return tl_eval_fail(ev, c->loc, "T.clear is not available on Ascend; use T.tile.clear or T.tile.fill "
                                        "(T.clear is upstream's npuir dialect: @tilelang.jit(target=\"npuir\"))");
    if (!begin(ev, c, "T.clear", 1, 1, kws)) return NULL;
    tl_arg_t dst;
    if (!arg(ev, c, 0, "buffer", true, "T.clear", &dst)) return NULL;
    tl_arg_t zero = scalar_arg(tl_ir_int(ev->kernel, 0, TL_I32, c->loc));
    emit(ev, c->loc, TL_OP_FILL, &dst, &zero, NULL);
    return tl_value_none();
}

static bool read_size(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *fname, tl_npuir_size_t *out);
static bool const_extents(const tl_region_t *r, int64_t *ext);
static tl_region_t row_of(tl_eval_t *ev, const tl_region_t *src, int64_t r, tl_loc_t loc);
static bool sized(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, const char *fname,
                  const tl_npuir_size_t *size, tl_arg_t *out);

// T.vcast(src, dst, size=None, round_mode="rint").
static tl_value_t *n_vcast(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src", "dst", "size", "round_mode", NULL};
    if (!begin(ev, c, "T.vcast", 2, 4, kws)) return NULL;
    tl_value_t *mode = tl_call_arg(c, 3, "round_mode");
    tl_npuir_size_t size;
    if (!read_size(ev, tl_call_arg(c, 2, "size"), tl_call_arg_loc(c, 2, "size"), "T.vcast", &size)) return NULL;
    tl_arg_t src, dst;
    if (!sized(ev, c, 1, "dst", "T.vcast", &size, &dst) || !sized(ev, c, 0, "src", "T.vcast", &size, &src)) return NULL;
    tl_round_t round = TL_CAST_RINT;
    if (mode && mode->kind != TL_V_NONE) {
        tl_loc_t loc = tl_call_arg_loc(c, 3, "round_mode");
        const char *m = tl_value_to_cstr(ev, mode, loc, "round_mode");
        if (!m) return NULL;
        char name[32] = "CAST_";
        size_t n = strlen(m);
        for (size_t i = 0; i < n && i + 6 < sizeof name; i++) name[5 + i] = (char)toupper((unsigned char)m[i]);
        if (n > 8 || strchr(m, '_') || !tl_round_parse(name, &round) || round == TL_CAST_NONE)
            return tl_eval_fail(ev, loc, "T.vcast round_mode must be one of round, rint, floor, ceil, trunc, "
                                         "odd, got \"%s\"", m);
    }
    // a conversion without a rounding choice (float16 -> float32, int8 -> float16, ...): Ascend's
    // cast takes CAST_NONE there and npuir's default "rint" means just that
    tl_dtype_t dt = dst.region.buf->dtype, st = src.region.buf->dtype;
    if (!tl_cast_on_ascend(dt, st, round, NULL) && tl_cast_on_ascend(dt, st, TL_CAST_NONE, NULL)) round = TL_CAST_NONE;
    // a 2-D region narrower than its buffer's rows (size=[m, n] of a wider tile: a strided
    // memref for bishengir) is cast row by row: tilec's vector ops take contiguous regions
    int64_t rows = 1;
    bool by_row = false;
    for (int i = 0; i < 2; i++) {
        const tl_region_t *r = i ? &src.region : &dst.region;
        int64_t e[TL_MAX_DIMS];
        if (r->ndim == 2 && r->form != TL_REGION_WHOLE && const_extents(r, e) && e[0] > 1 &&
            e[1] < r->buf->shape[1]) {
            by_row = true;
            rows = e[0];
        }
    }
    if (by_row && rows > 4096)
        return tl_eval_fail(ev, c->loc, "T.vcast of a strided region: at most 4,096 rows in tilec");
    for (int64_t r = 0; r < (by_row ? rows : 1); r++) {
        tl_stmt_t *s = new_op(ev, TL_OP_CAST, c->loc, 2);
        s->op.args[0] = dst;
        s->op.args[1] = src;
        if (by_row) {
            s->op.args[0].region = row_of(ev, &dst.region, r, c->loc);
            s->op.args[1].region = row_of(ev, &src.region, r, c->loc);
        }
        s->op.nargs = 2;
        s->op.round = round;
        tl_trace_emit(ev, s);
    }
    return tl_value_none();
}

// T.vclamp(src, dst, min_val, max_val): dst = max(src, min_val), then
// dst = min(dst, max_val) (upstream's two ops; the bounds are scalars or buffers).
static tl_value_t *n_vclamp(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src", "dst", "min_val", "max_val", NULL};
    if (!begin(ev, c, "T.vclamp", 4, 4, kws)) return NULL;
    tl_arg_t src, dst, lo, hi;
    if (!arg(ev, c, 0, "src", true, "T.vclamp", &src) || !arg(ev, c, 1, "dst", true, "T.vclamp", &dst) ||
        !arg(ev, c, 2, "min_val", false, "T.vclamp", &lo) || !arg(ev, c, 3, "max_val", false, "T.vclamp", &hi))
        return NULL;
    emit(ev, c->loc, TL_OP_MAX, &dst, &src, &lo);
    emit(ev, c->loc, TL_OP_MIN, &dst, &dst, &hi);
    return tl_value_none();
}

// T.vexp2(A, B, Tmp): Tmp = A * ln 2, B = exp(Tmp); T.vlog2(A, B, Tmp):
// Tmp = ln(A), B = Tmp * (1 / ln 2) (upstream's expansions, constants in A's type).
static tl_value_t *exp_log2(tl_eval_t *ev, tl_call_t *c, const char *fname, bool is_exp)
{
    static const char *kws[] = {"A", "B", "Tmp", NULL};
    if (!begin(ev, c, fname, 3, 3, kws)) return NULL;
    tl_arg_t a, b, tmp;
    if (!arg(ev, c, 0, "A", true, fname, &a) || !arg(ev, c, 1, "B", true, fname, &b) ||
        !arg(ev, c, 2, "Tmp", true, fname, &tmp))
        return NULL;
    tl_arg_t k = scalar_arg(tl_ir_float(ev->kernel, is_exp ? log(2.0) : 1.0 / log(2.0), a.region.buf->dtype, c->loc));
    if (is_exp) {
        emit(ev, c->loc, TL_OP_MUL, &tmp, &a, &k);
        emit(ev, c->loc, TL_OP_EXP, &b, &tmp, NULL);
    } else {
        emit(ev, c->loc, TL_OP_LN, &tmp, &a, NULL);
        emit(ev, c->loc, TL_OP_MUL, &b, &tmp, &k);
    }
    return tl_value_none();
}

static tl_value_t *n_vexp2(tl_eval_t *ev, tl_call_t *c)
{
    return exp_log2(ev, c, "T.vexp2", true);
}

static tl_value_t *n_vlog2(tl_eval_t *ev, tl_call_t *c)
{
    return exp_log2(ev, c, "T.vlog2", false);
}

// Constant extents of a region (false when one is not a compile-time constant).
static bool const_extents(const tl_region_t *r, int64_t *ext)
{
    for (int d = 0; d < r->ndim; d++)
        if (!r->extent[d] || !tl_ir_is_const_int(r->extent[d], &ext[d])) return false;
    return true;
}

// Row r of a 2-D region (row 0 of a one-row operand).
static tl_region_t row_of(tl_eval_t *ev, const tl_region_t *src, int64_t r, tl_loc_t loc)
{
    tl_region_t x = *src;
    if (x.form == TL_REGION_WHOLE) {
        tl_npuir_size_t none = {0};
        tl_front_npuir_extent(ev, &x, &none, loc);
    }
    x.form = TL_REGION_SLICE;
    x.start[0] = tl_ir_bin(ev->kernel, TL_BIN_ADD, x.start[0], tl_ir_int(ev->kernel, r, TL_I32, loc), loc);
    x.extent[0] = tl_ir_int(ev->kernel, 1, TL_I32, loc);
    return x;
}

// Row idx[0..n-1] of a region (the leading n axes fixed, extent 1 each).
static tl_region_t row_at(tl_eval_t *ev, const tl_region_t *src, int n, const int64_t *idx, tl_loc_t loc)
{
    tl_region_t x = *src;
    if (x.form == TL_REGION_WHOLE) {
        tl_npuir_size_t none = {0};
        tl_front_npuir_extent(ev, &x, &none, loc);
    }
    x.form = TL_REGION_SLICE;
    for (int d = 0; d < n; d++) {
        x.start[d] = tl_ir_bin(ev->kernel, TL_BIN_ADD, x.start[d], tl_ir_int(ev->kernel, idx[d], TL_I32, loc), loc);
        x.extent[d] = tl_ir_int(ev->kernel, 1, TL_I32, loc);
    }
    return x;
}

bool tl_front_npuir_broadcast(tl_eval_t *ev, tl_stmt_t *s, const char *fname, bool *done)
{
    tl_op_t *op = &s->op;
    *done = false;
    if (op->nargs != 3 || op->args[0].kind != TL_ARG_REGION || op->args[1].kind != TL_ARG_REGION) return true;
    const tl_region_t *dst = &op->args[0].region;
    const tl_region_t *src[2] = {&op->args[1].region,
                                 op->args[2].kind == TL_ARG_REGION ? &op->args[2].region : NULL};
    int64_t de[TL_MAX_DIMS], se[2][TL_MAX_DIMS];
    if (!const_extents(dst, de)) return true;
    bool differ = false;
    for (int i = 0; i < 2; i++) {
        if (!src[i]) continue;
        if (src[i]->ndim != dst->ndim || !const_extents(src[i], se[i])) return true;
        for (int d = 0; d < dst->ndim; d++) {
            if (se[i][d] == de[d]) continue;
            if (se[i][d] != 1) return true; // not a broadcast: the op's own size check reports it
            differ = true;
        }
    }
    if (!differ) return true;
    // (1, N) operands repeat over the rows; src1 of (M, 1) (or 1 x 1) is a scalar per row.
    // A 3-D region (npuir's N-D broadcast: hc_split_sinkhorn's (M, H, 1) and (M, 1, W) over
    // (M, H, W)) is the same over each of its rows (i, j, :).
    int nd = dst->ndim, last = nd - 1;
    bool column = false;
    for (int i = 0; i < 2; i++)
        if (src[i] && (nd == 2 || nd == 3) && se[i][last] != de[last]) column = column || i == 1;
    int64_t nrows = nd == 3 ? de[0] * de[1] : de[0];
    bool ok = (nd == 2 || nd == 3) && !(src[0] && se[0][last] != de[last]) && nrows <= 4096;
    if (!ok) {
        tl_eval_fail(ev, s->loc,
                     "%s: npuir's implicit broadcast is supported by tilec for 2-D and 3-D regions only: operands "
                     "of extent 1 repeat over the leading axes, a second operand of extent 1 in the last axis over it "
                     "(at most 4,096 rows)",
                     fname);
        return false;
    }
    for (int64_t r = 0; r < nrows; r++) {
        int64_t idx[2] = {nd == 3 ? r / de[1] : r, nd == 3 ? r % de[1] : 0};
        tl_stmt_t *x = tl_ir_stmt(ev->kernel, TL_ST_OP, s->loc);
        x->op = *op;
        x->op.args = tl_arena_alloc(ev->arena, sizeof(tl_arg_t) * 3);
        x->op.args[0] = op->args[0];
        x->op.args[0].region = row_at(ev, dst, nd - 1, idx, s->loc);
        for (int i = 0; i < 2; i++) {
            tl_arg_t *a = &x->op.args[1 + i];
            *a = op->args[1 + i];
            if (!src[i]) continue;
            int64_t si[2];
            for (int d = 0; d < nd - 1; d++) si[d] = se[i][d] == 1 ? 0 : idx[d];
            a->region = row_at(ev, src[i], nd - 1, si, s->loc);
            if (i == 1 && column) {
                tl_expr_t *at[3];
                for (int d = 0; d < nd - 1; d++) at[d] = a->region.start[d];
                at[last] = src[i]->start[last];
                *a = scalar_arg(tl_ir_load(ev->kernel, src[i]->buf, nd, at, s->loc));
            }
        }
        tl_trace_emit(ev, x);
    }
    *done = true;
    return true;
}

// Squeezed constant extents of a region (its dimensions of extent other than 1); -1 when one
// is not a compile-time constant.
static int squeezed(const tl_region_t *r, int64_t *ext)
{
    int k = 0;
    for (int d = 0; d < r->ndim; d++) {
        int64_t e = r->buf->shape[d];
        if (r->form != TL_REGION_WHOLE && (!r->extent[d] || !tl_ir_is_const_int(r->extent[d], &e))) return -1;
        if (e != 1) ext[k++] = e;
    }
    return k;
}

bool tl_front_npuir_copy_check(tl_eval_t *ev, tl_op_t *op, tl_loc_t loc)
{
    // a whole buffer against a slice of the same rank takes the slice's extents from its
    // start (npuir's copy.py: tail tiles T.copy(A[i:i+m, :], ub) keep matching shapes)
    for (int i = 0; i < 2; i++) {
        tl_region_t *w = &op->args[i].region, *o = &op->args[1 - i].region;
        if (w->form == TL_REGION_WHOLE && o->form == TL_REGION_SLICE && w->ndim == o->ndim) {
            for (int d = 0; d < w->ndim; d++) w->extent[d] = o->extent[d];
            w->form = TL_REGION_SLICE;
        }
    }
    int64_t a[TL_MAX_DIMS], b[TL_MAX_DIMS];
    int na = squeezed(&op->args[0].region, a), nb = squeezed(&op->args[1].region, b);
    if (na < 0 || nb < 0) return true;
    bool same = na == nb;
    for (int i = 0; same && i < na; i++) same = a[i] == b[i];
    if (same) return true;
    tl_buf_t sa, sb;
    tl_buf_init(&sa);
    tl_buf_init(&sb);
    for (int i = 0; i < na; i++) tl_buf_printf(&sa, "%s%lld", i ? " x " : "", (long long)a[i]);
    for (int i = 0; i < nb; i++) tl_buf_printf(&sb, "%s%lld", i ? " x " : "", (long long)b[i]);
    tl_eval_fail(ev, loc,
                 "T.copy: npuir's copy moves its regions element by element: their shapes without unit "
                 "dimensions must agree, here %s vs %s",
                 na ? tl_buf_cstr(&sa) : "1", nb ? tl_buf_cstr(&sb) : "1");
    tl_buf_free(&sa);
    tl_buf_free(&sb);
    return false;
}

// --- size= and the ops built on it ----------------------------------------------------------------

static bool read_size(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *fname, tl_npuir_size_t *out)
{
    out->n = 0;
    if (!v || v->kind == TL_V_NONE) return true;
    const char *what = tl_arena_printf(ev->arena, "%s size=", fname);
    int n;
    tl_value_t **items = tl_value_items(ev, v, loc, what, &n);
    if (!items) return false;
    if (n < 1 || n > TL_MAX_DIMS) {
        tl_eval_fail(ev, loc, "%s must list 1 to %d extents, got %d", what, TL_MAX_DIMS, n);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!(out->e[i] = tl_value_to_expr(ev, items[i], loc, TL_I32))) return false;
    out->n = n;
    return true;
}

void tl_front_npuir_extent(tl_eval_t *ev, tl_region_t *r, const tl_npuir_size_t *size, tl_loc_t loc)
{
    if (r->form == TL_REGION_SLICE) return;
    for (int d = 0; d < r->ndim; d++) {
        int j = size->n - r->ndim + d;
        if (r->form == TL_REGION_WHOLE || !r->start[d]) r->start[d] = tl_ir_int(ev->kernel, 0, TL_I32, loc);
        if (size->n) r->extent[d] = j >= 0 ? size->e[j] : tl_ir_int(ev->kernel, 1, TL_I32, loc);
        else if (r->form == TL_REGION_POINT) r->extent[d] = tl_ir_int(ev->kernel, 1, TL_I32, loc);
        else r->extent[d] = tl_ir_int(ev->kernel, r->buf->shape[d], TL_I32, loc);
    }
    r->form = TL_REGION_SLICE;
}

bool tl_front_npuir_copy_args(tl_eval_t *ev, tl_call_t *c, tl_npuir_size_t *size)
{
    static const char *kws[] = {"src", "dst", "coalesced_width", "size", NULL};
    if (!tl_call_check(ev, c, "T.copy", 2, 4, kws)) return false;
    if (!read_size(ev, tl_call_arg(c, 3, "size"), tl_call_arg_loc(c, 3, "size"), "T.copy", size)) return false;
    if (c->nargs > 2) c->nargs = 2; // coalesced_width: a GPU hint
    int m = 0;
    for (int i = 0; i < c->nkw; i++) {
        if (!strcmp(c->kw_names[i], "size") || !strcmp(c->kw_names[i], "coalesced_width")) continue;
        c->kw_names[m] = c->kw_names[i];
        c->kw_values[m] = c->kw_values[i];
        if (c->kw_locs) c->kw_locs[m] = c->kw_locs[i];
        m++;
    }
    c->nkw = m;
    return true;
}

// An operand of an npuir tile op with size= (the extents of _to_region).
static bool sized(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, const char *fname,
                  const tl_npuir_size_t *size, tl_arg_t *out)
{
    if (!arg(ev, c, pos, kw, true, fname, out)) return false;
    tl_front_npuir_extent(ev, &out->region, size, c->loc);
    return true;
}

// T.atomic_add / T.atomic_addx4 (dst, src, size=None): dst (GM) += src element by element
// (npuir's atomic add: both lower to the same op, the copy rule of T.copy).
static tl_value_t *atomic_add(tl_eval_t *ev, tl_call_t *c, const char *fname)
{
    static const char *kws[] = {"dst", "src", "size", NULL};
    if (!begin(ev, c, fname, 2, 3, kws)) return NULL;
    tl_npuir_size_t size;
    if (!read_size(ev, tl_call_arg(c, 2, "size"), tl_call_arg_loc(c, 2, "size"), fname, &size)) return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_ATOMIC_ADD, c->loc, 2);
    if (!sized(ev, c, 0, "dst", fname, &size, &s->op.args[0]) || !sized(ev, c, 1, "src", fname, &size, &s->op.args[1]))
        return NULL;
    s->op.nargs = 2;
    s->op.exact = true;
    if (!tl_front_npuir_copy_check(ev, &s->op, c->loc)) return NULL;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

static tl_value_t *n_atomic_add(tl_eval_t *ev, tl_call_t *c)
{
    return atomic_add(ev, c, "T.atomic_add");
}

static tl_value_t *n_atomic_addx4(tl_eval_t *ev, tl_call_t *c)
{
    return atomic_add(ev, c, "T.atomic_addx4");
}

// A flag argument given by keyword or position (absent: `dflt`).
static bool flag_arg(tl_eval_t *ev, tl_call_t *c, int pos, const char *kw, bool dflt, bool *out)
{
    tl_value_t *v = tl_call_arg(c, pos, kw);
    *out = dflt;
    return !v || v->kind == TL_V_NONE || tl_value_to_flag(ev, v, tl_call_arg_loc(c, pos, kw), kw, out);
}

// T.gemm / T.npuir_dot(A, B, C, size=None, initC=False, a_transpose=False, b_transpose=False):
// C = A x B when initC, else C += A x B (an L0C accumulator); size=[m, k, n] gives the
// operands' extents from their starts. tilec's gemm_v0 op computes it.
static tl_value_t *n_gemm(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"A", "B", "C", "size", "initC", "a_transpose", "b_transpose", NULL};
    const char *fname = c->self && c->self->kind == TL_V_STR ? c->self->str.s : "T.gemm";
    if (!tl_front_npuir(ev))
        return tl_eval_fail(ev, c->loc, "T.gemm is the GPU GEMM; on Ascend use T.gemm_v0 (L1 operands) or T.mma "
                                        "(L0 operands) (in upstream's npuir dialect, @tilelang.jit(target=\"npuir\"), "
                                        "T.gemm is npuir_dot)");
    if (!begin(ev, c, fname, 3, 7, kws)) return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_GEMM_V0, c->loc, 3);
    tl_op_t *op = &s->op;
    tl_npuir_size_t size;
    if (!read_size(ev, tl_call_arg(c, 3, "size"), tl_call_arg_loc(c, 3, "size"), fname, &size) ||
        !flag_arg(ev, c, 5, "a_transpose", false, &op->transpose_a) ||
        !flag_arg(ev, c, 6, "b_transpose", false, &op->transpose_b))
        return NULL;
    if (size.n && size.n != 3)
        return tl_eval_fail(ev, tl_call_arg_loc(c, 3, "size"), "%s size= must be [m, k, n], got %d extents", fname,
                            size.n);
    tl_npuir_size_t ext[3] = {{0}, {0}, {0}};
    if (size.n) {
        tl_expr_t *m = size.e[0], *k = size.e[1], *n = size.e[2];
        ext[0] = (tl_npuir_size_t){2, {op->transpose_a ? k : m, op->transpose_a ? m : k}};
        ext[1] = (tl_npuir_size_t){2, {op->transpose_b ? n : k, op->transpose_b ? k : n}};
        ext[2] = (tl_npuir_size_t){2, {m, n}};
    }
    static const char *names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++)
        if (!sized(ev, c, i, names[i], fname, &ext[i], &op->args[i])) return NULL;
    op->nargs = 3;
    tl_value_t *init = tl_call_arg(c, 4, "initC");
    if (init && init->kind != TL_V_NONE) {
        tl_expr_t *e = tl_value_to_expr(ev, init, tl_call_arg_loc(c, 4, "initC"), TL_BOOL);
        if (!e) return NULL;
        int64_t v;
        if (!(tl_ir_is_const_int(e, &v) && v == 0)) op->init = tl_ir_cast(ev->kernel, TL_BOOL, e, c->loc);
    }
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// T.load_nd2nz(src, dst, size=None) / T.store_nz2nd(src, dst, size=None): a copy of
// exactly the regions (tilec keeps every scope in the logical row-major layout, so the
// fractal NZ layout of L1 changes no value).
static tl_value_t *nz_copy(tl_eval_t *ev, tl_call_t *c, const char *fname, bool fixpipe)
{
    static const char *kws[] = {"src", "dst", "size", NULL};
    static const char *kws_fix[] = {"src", "dst", "size", "enable_nz2nd", "channel_split", "pre_relu_mode", NULL};
    if (!begin(ev, c, fname, 2, fixpipe ? 6 : 3, fixpipe ? kws_fix : kws)) return NULL;
    tl_npuir_size_t size;
    if (!read_size(ev, tl_call_arg(c, 2, "size"), tl_call_arg_loc(c, 2, "size"), fname, &size)) return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_COPY, c->loc, 2);
    tl_op_t *op = &s->op;
    if (!sized(ev, c, 0, "src", fname, &size, &op->args[0]) || !sized(ev, c, 1, "dst", fname, &size, &op->args[1]))
        return NULL;
    op->nargs = 2;
    op->exact = true;
    if (fixpipe) {
        bool nz2nd, split;
        if (!flag_arg(ev, c, 3, "enable_nz2nd", false, &nz2nd) || !flag_arg(ev, c, 4, "channel_split", false, &split))
            return NULL;
        if (!nz2nd)
            return tl_eval_fail(ev, c->loc, "%s without enable_nz2nd=True writes the fractal NZ layout, which tilec "
                                            "does not model (its buffers are row-major)", fname);
        if (split) return tl_eval_fail(ev, tl_call_arg_loc(c, 4, "channel_split"), "%s channel_split=True is not "
                                                                                  "supported by tilec", fname);
        tl_value_t *mode = tl_call_arg(c, 5, "pre_relu_mode");
        if (mode && mode->kind != TL_V_NONE) {
            tl_loc_t ml = tl_call_arg_loc(c, 5, "pre_relu_mode");
            const char *m = tl_value_to_cstr(ev, mode, ml, "pre_relu_mode");
            if (!m) return NULL;
            if (!strcmp(m, "relu")) op->enable_relu = true;
            else if (*m)
                return tl_eval_fail(ev, ml, "%s pre_relu_mode \"%s\" is not supported by tilec (\"\" and \"relu\" are)",
                                    fname, m);
        }
        tl_dtype_t st = op->args[0].region.buf->dtype, dt = op->args[1].region.buf->dtype;
        if (!(st == dt || (st == TL_F32 && (dt == TL_F16 || dt == TL_BF16)) || (st == TL_I32 && dt == TL_I8)))
            return tl_eval_fail(ev, c->loc, "%s: %s to %s is not a pre-quant mode of npuir's fixpipe (same type, "
                                            "float32 to float16 / bfloat16, int32 to int8)",
                                fname, tl_dtype_name(st), tl_dtype_name(dt));
    }
    if (!tl_front_npuir_copy_check(ev, op, c->loc)) return NULL;
    tl_trace_emit(ev, s);
    return tl_value_none();
}

static tl_value_t *n_load_nd2nz(tl_eval_t *ev, tl_call_t *c)
{
    return nz_copy(ev, c, "T.load_nd2nz", false);
}

static tl_value_t *n_store_nz2nd(tl_eval_t *ev, tl_call_t *c)
{
    return nz_copy(ev, c, "T.store_nz2nd", false);
}

static tl_value_t *n_store_fixpipe(tl_eval_t *ev, tl_call_t *c)
{
    return nz_copy(ev, c, "T.store_fixpipe", true);
}

// Whether a statement tree has an explicit T.Scope (npuir's expert mode).
static bool has_scope(const tl_stmt_t *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (has_scope(s->seq.items[i])) return true;
        return false;
    case TL_ST_FOR: return has_scope(s->for_.body);
    case TL_ST_WHILE: return has_scope(s->while_.body);
    case TL_ST_IF: return has_scope(s->if_.then_) || has_scope(s->if_.else_);
    case TL_ST_SCOPE: return true;
    default: return false;
    }
}

// One vector core per block for a kernel without T.Scope: an AIV kernel's vector code, and
// a developer-mode MIX kernel's (tilec runs its vector part once, not on both cores of the
// block's 1:2 group writing the same bytes). Expert kernels (T.Scope("Cube") /
// T.Scope("Vector"), bishengir's separate AIC and AIV functions) keep both vector cores:
// they split their rows by the sub-block index and pair their flags with both.
void tl_front_npuir_kernel(tl_kernel_t *k)
{
    if (k->threads == 0 && !has_scope(k->body)) k->threads = 1;
}

bool tl_front_npuir_expert(const tl_kernel_t *k)
{
    return has_scope(k->body);
}

// T.vcmp / T.vselect: npuir's element-wise forms on bool tensors, traced as loops
// over the destination's elements (scalar code: the same values; timed as such).
typedef struct {
    tl_arg_t a[4];
    int n;
} elems_t;

// Element `iv` (the loop variables) of operand a: a load, or the scalar itself.
static tl_expr_t *elem(tl_eval_t *ev, const tl_arg_t *a, tl_expr_t **iv, tl_loc_t loc)
{
    if (a->kind == TL_ARG_SCALAR) return a->scalar;
    const tl_region_t *r = &a->region;
    tl_expr_t *idx[TL_MAX_DIMS];
    for (int d = 0; d < r->ndim; d++) idx[d] = tl_ir_bin(ev->kernel, TL_BIN_ADD, r->start[d], iv[d], loc);
    return tl_ir_load(ev->kernel, r->buf, r->ndim, idx, loc);
}

// Loops over dst's elements (every region operand of its shape), the innermost body
// storing value(iv) into dst; NULL after an error.
static tl_stmt_t *elem_loops(tl_eval_t *ev, const char *fname, const elems_t *x, tl_loc_t loc, tl_expr_t ***iv_out,
                             tl_stmt_t **body)
{
    const tl_region_t *dst = &x->a[0].region;
    int64_t de[TL_MAX_DIMS], e[TL_MAX_DIMS];
    if (!const_extents(dst, de)) {
        tl_eval_fail(ev, loc, "%s: its regions need compile-time extents in tilec", fname);
        return NULL;
    }
    for (int i = 1; i < x->n; i++) {
        if (x->a[i].kind != TL_ARG_REGION) continue;
        const tl_region_t *r = &x->a[i].region;
        bool same = r->ndim == dst->ndim && const_extents(r, e);
        for (int d = 0; same && d < dst->ndim; d++) same = e[d] == de[d];
        if (!same) {
            tl_eval_fail(ev, loc, "%s: tilec needs its operands in the destination's shape", fname);
            return NULL;
        }
    }
    tl_kernel_t *k = ev->kernel;
    tl_expr_t **iv = tl_arena_alloc(ev->arena, sizeof(tl_expr_t *) * TL_MAX_DIMS);
    tl_stmt_t *outer = NULL, *cur = NULL;
    for (int d = 0; d < dst->ndim; d++) {
        tl_var_t *v = tl_ir_var(k, tl_trace_unique_name(ev, "e"), TL_I32, TL_VAR_LOOP, loc);
        tl_stmt_t *loop = tl_ir_stmt(k, TL_ST_FOR, loc);
        loop->for_.var = v;
        loop->for_.loop = TL_LOOP_SERIAL;
        loop->for_.start = tl_ir_int(k, 0, TL_I32, loc);
        loop->for_.end = tl_ir_int(k, de[d], TL_I32, loc);
        loop->for_.body = tl_ir_seq(k, loc);
        iv[d] = tl_ir_varref(k, v, loc);
        if (cur) tl_ir_seq_push(k, cur->for_.body, loop);
        else outer = loop;
        cur = loop;
    }
    *iv_out = iv;
    *body = cur->for_.body;
    return outer;
}

static tl_value_t *store_elems(tl_eval_t *ev, tl_stmt_t *outer, tl_stmt_t *body, const tl_region_t *dst,
                               tl_expr_t **iv, tl_expr_t *value, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_expr_t *idx[TL_MAX_DIMS];
    for (int d = 0; d < dst->ndim; d++) idx[d] = tl_ir_bin(k, TL_BIN_ADD, dst->start[d], iv[d], loc);
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_STORE, loc);
    s->store.buf = dst->buf;
    s->store.n = dst->ndim;
    s->store.idx = tl_arena_dup(ev->arena, idx, sizeof *idx * (size_t)dst->ndim);
    s->store.value = tl_ir_cast(k, dst->buf->dtype, value, loc);
    tl_ir_seq_push(k, body, s);
    tl_trace_emit(ev, outer);
    return tl_value_none();
}

// T.vcmp(A, B, C, cmp_mod): C = A cmp B (eq ne lt gt ge le), element by element.
static tl_value_t *n_vcmp(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"A", "B", "C", "cmp_mod", NULL};
    if (!begin(ev, c, "T.vcmp", 4, 4, kws)) return NULL;
    elems_t x = {.n = 3};
    if (!arg(ev, c, 2, "C", true, "T.vcmp", &x.a[0]) || !arg(ev, c, 0, "A", true, "T.vcmp", &x.a[1]) ||
        !arg(ev, c, 1, "B", false, "T.vcmp", &x.a[2]))
        return NULL;
    tl_loc_t ml = tl_call_arg_loc(c, 3, "cmp_mod");
    const char *m = tl_value_to_cstr(ev, tl_call_arg(c, 3, "cmp_mod"), ml, "cmp_mod");
    if (!m) return NULL;
    static const struct {
        const char *name;
        tl_binop_t op;
    } modes[] = {{"eq", TL_BIN_EQ}, {"ne", TL_BIN_NE}, {"lt", TL_BIN_LT},
                 {"gt", TL_BIN_GT}, {"ge", TL_BIN_GE}, {"le", TL_BIN_LE}};
    int mi = -1;
    for (int i = 0; i < (int)TL_ARRAY_LEN(modes); i++)
        if (!strcmp(modes[i].name, m)) mi = i;
    if (mi < 0) return tl_eval_fail(ev, ml, "T.vcmp cmp_mod must be one of eq, ne, lt, gt, ge, le, got \"%s\"", m);
    tl_expr_t **iv;
    tl_stmt_t *body, *outer = elem_loops(ev, "T.vcmp", &x, c->loc, &iv, &body);
    if (!outer) return NULL;
    tl_expr_t *v = tl_ir_bin(ev->kernel, modes[mi].op, elem(ev, &x.a[1], iv, c->loc), elem(ev, &x.a[2], iv, c->loc),
                             c->loc);
    return store_elems(ev, outer, body, &x.a[0].region, iv, v, c->loc);
}

// T.vselect(Cond, A, B, Out): Out = Cond ? A : B, element by element.
static tl_value_t *n_vselect(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"Cond", "A", "B", "Out", NULL};
    if (!begin(ev, c, "T.vselect", 4, 4, kws)) return NULL;
    elems_t x = {.n = 4};
    if (!arg(ev, c, 3, "Out", true, "T.vselect", &x.a[0]) || !arg(ev, c, 0, "Cond", true, "T.vselect", &x.a[1]) ||
        !arg(ev, c, 1, "A", false, "T.vselect", &x.a[2]) || !arg(ev, c, 2, "B", false, "T.vselect", &x.a[3]))
        return NULL;
    tl_expr_t **iv;
    tl_stmt_t *body, *outer = elem_loops(ev, "T.vselect", &x, c->loc, &iv, &body);
    if (!outer) return NULL;
    tl_kernel_t *k = ev->kernel;
    tl_expr_t *cond = tl_ir_cast(k, TL_BOOL, elem(ev, &x.a[1], iv, c->loc), c->loc);
    tl_expr_t *v = tl_ir_select(k, cond, elem(ev, &x.a[2], iv, c->loc), elem(ev, &x.a[3], iv, c->loc), c->loc);
    return store_elems(ev, outer, body, &x.a[0].region, iv, v, c->loc);
}

// Members of the npuir family without a tilec op: a located error naming why.
static tl_value_t *n_missing(tl_eval_t *ev, tl_call_t *c)
{
    const tl_value_t *self = c->self;
    return tl_eval_fail(ev, c->loc, "%s", self && self->kind == TL_V_STR ? self->str.s : "not supported");
}

// T.reshape(src, dst): dst takes src's elements in row-major order (bishengir's
// tensor.reshape); tilec copies them, for shapes that agree without their unit dimensions.
static tl_value_t *n_reshape(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src", "dst", NULL};
    if (!begin(ev, c, "T.reshape", 2, 2, kws)) return NULL;
    tl_stmt_t *s = new_op(ev, TL_OP_COPY, c->loc, 2);
    if (!arg(ev, c, 0, "src", true, "T.reshape", &s->op.args[0]) ||
        !arg(ev, c, 1, "dst", true, "T.reshape", &s->op.args[1]))
        return NULL;
    s->op.nargs = 2;
    s->op.exact = true;
    const tl_buffer_t *a = s->op.args[0].region.buf, *b = s->op.args[1].region.buf;
    if (a == b) return tl_value_none(); // a buffer into itself: nothing moves
    if (a->dtype != b->dtype)
        return tl_eval_fail(ev, c->loc, "T.reshape: '%s' is %s, '%s' %s (a reshape keeps the element type)", a->name,
                            tl_dtype_name(a->dtype), b->name, tl_dtype_name(b->dtype));
    if (tl_region_numel(&s->op.args[0].region) != tl_region_numel(&s->op.args[1].region))
        return tl_eval_fail(ev, c->loc, "T.reshape: '%s' and '%s' hold different numbers of elements", a->name,
                            b->name);
    int64_t ea[TL_MAX_DIMS], eb[TL_MAX_DIMS];
    int na = squeezed(&s->op.args[0].region, ea), nb = squeezed(&s->op.args[1].region, eb);
    bool same = na == nb;
    for (int i = 0; same && i < na; i++) same = ea[i] == eb[i];
    if (!same)
        return tl_eval_fail(ev, c->loc, "T.reshape between shapes that differ in more than unit dimensions "
                                        "('%s' to '%s') is not supported by tilec", a->name, b->name);
    tl_trace_emit(ev, s);
    return tl_value_none();
}

// T.arange(dst, strides, offset=0): dst[i0, i1, ...] = offset + i0 * strides[0] + i1 * strides[1]
// + ... (npuir_arange), traced as loops over dst's elements.
static tl_value_t *n_arange(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"dst", "strides", "offset", NULL};
    if (!begin(ev, c, "T.arange", 2, 3, kws)) return NULL;
    elems_t x = {.n = 1};
    if (!arg(ev, c, 0, "dst", true, "T.arange", &x.a[0])) return NULL;
    tl_loc_t sl = tl_call_arg_loc(c, 1, "strides");
    int n;
    tl_value_t **st = tl_value_items(ev, tl_call_arg(c, 1, "strides"), sl, "T.arange strides", &n);
    if (!st) return NULL;
    const tl_region_t *dst = &x.a[0].region;
    if (n != dst->ndim)
        return tl_eval_fail(ev, sl, "T.arange needs one stride per dimension of '%s' (%d), got %d", dst->buf->name,
                            dst->ndim, n);
    tl_expr_t **iv;
    tl_stmt_t *body, *outer = elem_loops(ev, "T.arange", &x, c->loc, &iv, &body);
    if (!outer) return NULL;
    tl_kernel_t *k = ev->kernel;
    tl_value_t *off = tl_call_arg(c, 2, "offset");
    tl_expr_t *v = off ? tl_value_to_expr(ev, off, tl_call_arg_loc(c, 2, "offset"), TL_I32) : tl_ir_int(k, 0, TL_I32, c->loc);
    if (!v) return NULL;
    for (int d = 0; d < n; d++) {
        tl_expr_t *sd = tl_value_to_expr(ev, st[d], sl, TL_I32);
        if (!sd) return NULL;
        v = tl_ir_bin(k, TL_BIN_ADD, v, tl_ir_bin(k, TL_BIN_MUL, iv[d], sd, c->loc), c->loc);
    }
    return store_elems(ev, outer, body, dst, iv, v, c->loc);
}

// --- reductions ------------------------------------------------------------------------------------

bool tl_front_npuir_reduce_args(tl_eval_t *ev, tl_call_t *c, const char *fname, tl_npuir_size_t *size)
{
    static const char *kws[] = {"buffer", "out", "dim", "size", "clear", NULL};
    if (!tl_call_check(ev, c, fname, 2, 5, kws)) return false;
    if (!read_size(ev, tl_call_arg(c, 3, "size"), tl_call_arg_loc(c, 3, "size"), fname, size)) return false;
    if (c->nargs > 3) { // drop the positional size: clear follows dim
        for (int i = 3; i + 1 < c->nargs; i++) {
            c->args[i] = c->args[i + 1];
            if (c->arg_locs) c->arg_locs[i] = c->arg_locs[i + 1];
        }
        c->nargs--;
    }
    int m = 0;
    for (int i = 0; i < c->nkw; i++) {
        if (!strcmp(c->kw_names[i], "size")) continue;
        c->kw_names[m] = c->kw_names[i];
        c->kw_values[m] = c->kw_values[i];
        if (c->kw_locs) c->kw_locs[m] = c->kw_locs[i];
        m++;
    }
    c->nkw = m;
    return true;
}

// T.reduce / T.npuir_reduce(src, dst, dims, reduce_mode, size=None, clear=True): the modes
// sum, max, min, abssum, absmax over one axis, as npuir's reduce_<mode>(src, dst, dim, size,
// clear) (customize_npuir.py builds those from it).
static tl_value_t *n_reduce(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"src", "dst", "dims", "reduce_mode", "size", "clear", NULL};
    if (!begin(ev, c, "T.reduce", 4, 6, kws)) return NULL;
    tl_loc_t dl = tl_call_arg_loc(c, 2, "dims"), ml = tl_call_arg_loc(c, 3, "reduce_mode");
    tl_value_t *dims = tl_call_arg(c, 2, "dims");
    if (dims->kind == TL_V_LIST || dims->kind == TL_V_TUPLE) {
        if (dims->seq.n != 1)
            return tl_eval_fail(ev, dl, "T.reduce over %d axes is not supported by tilec (one axis: dims=[d])",
                                dims->seq.n);
        dims = dims->seq.items[0];
    }
    const char *mode = tl_value_to_cstr(ev, tl_call_arg(c, 3, "reduce_mode"), ml, "reduce_mode");
    if (!mode) return NULL;
    static const char *modes[] = {"sum", "max", "min", "abssum", "absmax"};
    int mi = -1;
    for (int i = 0; i < (int)TL_ARRAY_LEN(modes); i++)
        if (!strcmp(modes[i], mode)) mi = i;
    if (mi < 0)
        return tl_eval_fail(ev, ml, "T.reduce reduce_mode \"%s\" is not supported by tilec (sum, max, min, abssum, "
                                    "absmax are)", mode);
    tl_value_t *size = tl_call_arg(c, 4, "size"), *clear = tl_call_arg(c, 5, "clear");
    if (mi >= 3 && size && size->kind != TL_V_NONE)
        return tl_eval_fail(ev, tl_call_arg_loc(c, 4, "size"), "T.reduce size= with reduce_mode \"%s\" is not "
                                                               "supported by tilec", mode);
    tl_value_t *fn = tl_value_module_get(ev->lang ? ev->lang : c->self, tl_arena_printf(ev->arena, "reduce_%s", mode));
    if (!fn) return tl_eval_fail(ev, c->loc, "T.reduce: no reduce_%s", mode);
    tl_call_t r = *c;
    r.nargs = 3;
    r.args = tl_arena_alloc(ev->arena, sizeof(tl_value_t *) * 3);
    r.arg_locs = tl_arena_alloc(ev->arena, sizeof(tl_loc_t) * 3);
    r.args[0] = tl_call_arg(c, 0, "src"), r.arg_locs[0] = tl_call_arg_loc(c, 0, "src");
    r.args[1] = tl_call_arg(c, 1, "dst"), r.arg_locs[1] = tl_call_arg_loc(c, 1, "dst");
    r.args[2] = dims, r.arg_locs[2] = dl;
    r.nkw = 0;
    r.kw_names = tl_arena_alloc(ev->arena, sizeof(char *) * 2);
    r.kw_values = tl_arena_alloc(ev->arena, sizeof(tl_value_t *) * 2);
    r.kw_locs = tl_arena_alloc(ev->arena, sizeof(tl_loc_t) * 2);
    if (size && size->kind != TL_V_NONE) {
        r.kw_names[r.nkw] = "size", r.kw_values[r.nkw] = size, r.kw_locs[r.nkw++] = tl_call_arg_loc(c, 4, "size");
    }
    if (clear && mi != 3) {
        r.kw_names[r.nkw] = "clear", r.kw_values[r.nkw] = clear, r.kw_locs[r.nkw++] = tl_call_arg_loc(c, 5, "clear");
    }
    r.self = NULL;
    return tl_eval_call(ev, fn, &r);
}

void tl_front_install_npuir(tl_eval_t *ev, tl_value_t *T)
{
    tl_front_def(ev, T, "clear", n_clear);
    tl_front_def(ev, T, "fill", n_fill);
    tl_front_def(ev, T, "vbrc", n_vbrc);
    tl_front_def(ev, T, "vcast", n_vcast);
    tl_front_def(ev, T, "vclamp", n_vclamp);
    tl_front_def(ev, T, "vexp2", n_vexp2);
    tl_front_def(ev, T, "vlog2", n_vlog2);
    tl_front_def(ev, T, "vcmp", n_vcmp);
    tl_front_def(ev, T, "vselect", n_vselect);
    tl_front_def(ev, T, "atomic_add", n_atomic_add);
    tl_front_def(ev, T, "reduce", n_reduce);
    tl_front_def(ev, T, "reshape", n_reshape);
    tl_front_def(ev, T, "arange", n_arange);
    tl_front_def(ev, T, "atomic_addx4", n_atomic_addx4);
    tl_front_def(ev, T, "load_nd2nz", n_load_nd2nz);
    tl_front_def(ev, T, "store_nz2nd", n_store_nz2nd);
    tl_front_def(ev, T, "store_fixpipe", n_store_fixpipe);
    tl_value_module_set(ev->arena, T, "gemm",
                        tl_value_builtin(ev->arena, "gemm", n_gemm, tl_value_str(ev->arena, "T.gemm")));
    static const struct {
        const char *name, *why;
    } missing[] = {
        {"vshr", "its round= shift (on by default) is a rounding tilec does not model"},
        {"vbitcast", "it returns a reinterpreted value, tilec has no such view"},
        {"vcumsum", "tilec has no cumulative sum"},
        {"interleave", "tilec has no interleave op"},
        {"deinterleave", "tilec has no deinterleave op"},
        {"concat", "tilec has no concat op"},
        {"pad", "tilec has no pad op"},
        {"flip", "tilec has no flip op"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(missing); i++)
        tl_value_module_set(
            ev->arena, T, missing[i].name,
            tl_value_builtin(ev->arena, missing[i].name, n_missing,
                             tl_value_str(ev->arena,
                                          tl_arena_printf(ev->arena,
                                                          "T.%s is upstream's npuir dialect and tilec does not "
                                                          "implement it: %s",
                                                          missing[i].name, missing[i].why))));
}

// Upstream's long names (T.npuir_add ...: customize_npuir.py's functions, which its
// T.v* names alias): the same builtins; the ones whose npuir meaning tilec does not
// implement are located errors.
void tl_front_install_npuir_names(tl_eval_t *ev, tl_value_t *T)
{
    static const char *same[][2] = {
        {"add", "vadd"},     {"sub", "vsub"},         {"mul", "vmul"},         {"div", "vdiv"},
        {"max", "vmax"},     {"min", "vmin"},         {"or", "vor"},           {"and", "vand"},
        {"xor", "vxor"},     {"pow", "vpow"},         {"shl", "vshl"},         {"shr", "vshr"},
        {"exp", "vexp"},     {"ln", "vln"},           {"exp2", "vexp2"},       {"log2", "vlog2"},
        {"brc", "vbrc"},     {"fill", "fill"},        {"clear", "clear"},      {"cast", "vcast"},
        {"clamp", "vclamp"}, {"relu", "vrelu"},       {"sigmoid", "vsigmoid"}, {"select", "vselect"},
        {"cmp", "vcmp"},     {"sqrt", "vsqrt"},       {"rsqrt", "vrsqrt"},     {"abs", "vabs"},
        {"rec", "vrec"},     {"not", "vnot"},         {"vcos", "vcos"},        {"vsin", "vsin"},
        {"verf", "verf"},    {"vtanh", "vtanh"},      {"bitcast", "vbitcast"}, {"load_nd2nz", "load_nd2nz"}, {"dot", "gemm"}, {"atomic_add", "atomic_add"}, {"reduce", "reduce"},
        {"store_nz2nd", "store_nz2nd"}, {"store_fixpipe", "store_fixpipe"}, {"interleave", "interleave"},
        {"deinterleave", "deinterleave"}, {"concat", "concat"}, {"pad", "pad"}, {"flip", "flip"},
        {"arange", "arange"}, {"reshape", "reshape"}, {"atomic_addx4", "atomic_addx4"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(same); i++) {
        tl_value_t *v = tl_value_module_get(T, same[i][1]);
        if (v) tl_value_module_set(ev->arena, T, tl_arena_printf(ev->arena, "npuir_%s", same[i][0]), v);
    }
    static const char *own[] = {"cumsum", "gather", "transpose", "print"};
    for (size_t i = 0; i < TL_ARRAY_LEN(own); i++) {
        const char *name = tl_arena_printf(ev->arena, "npuir_%s", own[i]);
        tl_value_module_set(ev->arena, T, name,
                            tl_value_builtin(ev->arena, name, n_missing,
                                             tl_value_str(ev->arena,
                                                          tl_arena_printf(ev->arena,
                                                                          "T.%s is upstream's npuir dialect and "
                                                                          "tilec does not implement its meaning "
                                                                          "there",
                                                                          name))));
    }
}

