// Vector tile ops as PTO-ISA instructions on UB tiles.
//
// Element-wise ops work on flat spans (exec/tileop_vec.c): when every operand
// is contiguous they become one-row tiles of the span's length, else tiles of
// the operands' rows (which must then agree). Scalar forms follow tilec's
// numerics: the scalar is converted to the dtype first, sub by s is add by -s,
// div by s is mul by the float reciprocal of s. Per-row vectors (reduction
// results, row_expand and broadcast operands) are column tiles.
//
// compare, select, xor, the shifts, silu, axpy and a few more are in
// emit_mask.c. What is not lowered (a located error): ops without a PTO
// instruction or not written yet (sin, cos, gather, ...). Casts of float32 to
// a 16-bit float with a directed mode go through tilec_tcvt_mode (pto-isa's
// CPU TCVT ignores the mode there).
#include <inttypes.h>

#include "pto/pto_int.h"
#include "target/arch.h"

static const tl_region_t *region(const tl_stmt_t *s, int i)
{
    return i < s->op.nargs && s->op.args[i].kind == TL_ARG_REGION ? &s->op.args[i].region : NULL;
}

static const tl_expr_t *scalar(const tl_stmt_t *s, int i)
{
    return i < s->op.nargs && s->op.args[i].kind == TL_ARG_SCALAR ? s->op.args[i].scalar : NULL;
}

// The count operand of ops with an optional trailing `count` (signature "[s]").
static const tl_expr_t *count_arg(const tl_stmt_t *s)
{
    const char *sig = tl_op_info(s->op.code)->signature;
    const char *opt = strchr(sig, '[');
    if (!opt) return NULL;
    int i = (int)(opt - sig);
    return scalar(s, i);
}

// Views of the region operands listed in idx (-1 ends) with one layout for all.
bool pto_vec_views(pto_emit_t *e, const tl_stmt_t *s, const int *idx, pto_operands_t *o)
{
    o->n = 0;
    o->flat = true;
    const tl_expr_t *count = count_arg(s);
    for (int k = 0; idx[k] >= 0; k++) {
        const tl_region_t *r = region(s, idx[k]);
        if (!r) continue;
        if (r->buf->scope != TL_SCOPE_UB) {
            pto_unsupported(e, s->loc, "%s on %s buffer '%s'", tl_op_info(s->op.code)->spelling,
                            tl_scope_name(r->buf->scope), r->buf->name);
            return false;
        }
        if (!pto_view(e, r, &o->v[o->n], s->loc)) return false;
        if (!pto_view_contiguous(&o->v[o->n])) o->flat = false;
        o->n++;
    }
    int64_t c;
    for (int i = 0; i < o->n; i++) {
        pto_view_t *v = &o->v[i];
        if (!o->flat) {
            if (v->rows != o->v[0].rows || v->cols != o->v[0].cols) {
                pto_unsupported(e, s->loc, "%s on operands of different shapes",
                                tl_op_info(s->op.code)->spelling);
                return false;
            }
            if (v->ld * tl_dtype_size(v->buf->dtype) % 32) {
                pto_unsupported(e, s->loc,
                                "%s on rows of '%s' of %" PRId64
                                " bytes (PTO tiles need 32-byte rows)",
                                tl_op_info(s->op.code)->spelling, v->buf->name,
                                v->ld * tl_dtype_size(v->buf->dtype));
                return false;
            }
        } else if (count && tl_ir_is_const_int(count, &c)) {
            // past the operand the tile runs into the UB after it, as on the device
            // (exec/overrun.c); from the region's highest possible origin it must
            // stay inside the UB
            const tl_buffer_t *b = v->buf;
            int64_t size = tl_dtype_size(b->dtype),
                    ub = tl_arch_physical(tl_arch_default(), TL_SCOPE_UB);
            int64_t end = b->addr + (tl_buffer_numel(b) - v->rows * v->cols + c) * size;
            if (c > v->rows * v->cols && end > ub) {
                if (!e->failed)
                    tl_diag_error(e->d, s->loc,
                                  "the count of %s may run past the UB from '%s' (up to byte "
                                  "%" PRId64 " of %" PRId64 "; on the device: a vector core "
                                  "exception)",
                                  tl_op_info(s->op.code)->spelling, b->name, end, ub);
                e->failed = true;
                return false;
            }
            // the op's scratch (at ub_top) goes past the bytes it reaches
            e->ub_top = TL_MAX(e->ub_top, TL_ALIGN_UP(end, 32));
            v->rows = 1, v->cols = c;
        } else if (count) {
            v->vcols = pto_expr_str(e, count);
        } else if (v->rows * v->cols != o->v[0].rows * o->v[0].cols) {
            pto_unsupported(e, s->loc, "%s on operands of different lengths",
                            tl_op_info(s->op.code)->spelling);
            return false;
        }
    }
    if (count && !o->flat) {
        pto_unsupported(e, s->loc, "a count on strided operands");
        return false;
    }
    return true;
}

void pto_vec_tiles(pto_emit_t *e, const pto_operands_t *o)
{
    static const char *const names[] = {"tl_d", "tl_a", "tl_b", "tl_c"};
    for (int i = 0; i < o->n; i++) pto_vec_tile(e, names[i], &o->v[i], o->flat);
}

// The scalar operand i converted to the dtype of the tiles (as tilec does).
const char *pto_typed_scalar(pto_emit_t *e, const tl_stmt_t *s, int i, tl_dtype_t t)
{
    const tl_expr_t *x = scalar(s, i);
    return x ? pto_fmt(e, "(%s)(%s)", pto_ctype(t), pto_expr_str(e, x)) : "0";
}

static const char *round_mode(tl_round_t m)
{
    static const char *const names[] = {"CAST_NONE", "CAST_RINT",  "CAST_ROUND", "CAST_FLOOR",
                                        "CAST_CEIL", "CAST_TRUNC", "CAST_ODD"};
    return names[m];
}

static void cast(pto_emit_t *e, const tl_stmt_t *s, tl_dtype_t dt, tl_dtype_t st, tl_round_t mode,
                 const char *d, const char *a)
{
    bool ff = tl_dtype_is_float(dt) && tl_dtype_is_float(st);
    if (ff && dt == st) {
        pto_unsupported(e, s->loc, "a %s -> %s cast (a rounding to integral values)",
                        tl_dtype_name(st), tl_dtype_name(dt));
        return;
    }
    if (ff && tl_dtype_size(dt) < tl_dtype_size(st) && mode != TL_CAST_NONE &&
        mode != TL_CAST_RINT) {
        // pto-isa's CPU TCVT rounds to nearest even whatever the mode: the CPU
        // build rounds in tilec_pto.h, the NPU's TCVT has the mode (no round to
        // odd into bfloat16: vconv_f322bf16 has no such form)
        if (st != TL_F32 || (mode == TL_CAST_ODD && dt != TL_F16)) {
            pto_unsupported(e, s->loc, "a %s -> %s cast with %s", tl_dtype_name(st),
                            tl_dtype_name(dt), tl_round_name(mode));
            return;
        }
        pto_line(e, "tilec_tcvt_mode(%s, %s, pto::RoundMode::%s);", d, a, round_mode(mode));
        return;
    }
    if (st == TL_I32 && dt == TL_F16) { // through the deq scale (T.set_deq_scale)
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        pto_line(e, "tilec_tcvt_deq(%s, %s, tilec_deq, pto::RoundMode::%s);", d, a,
                 round_mode(mode));
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        return;
    }
    if (tl_dtype_is_int(dt) && tl_dtype_is_float(st))
        pto_line(e, "pto::TCVT(%s, %s, pto::RoundMode::%s, pto::SaturationMode::ON);", d, a,
                 round_mode(mode));
    else
        pto_line(e, "pto::TCVT(%s, %s, pto::RoundMode::%s);", d, a, round_mode(mode));
}

// UB scratch for an op: past every planned buffer (so it overlaps no live
// data on the NPU; pto-isa's CPU build gives every agent its own UB).
bool pto_scratch(pto_emit_t *e, const tl_stmt_t *s, int64_t bytes, int64_t *addr)
{
    *addr = e->ub_top;
    if (e->ub_top + bytes > tl_arch_physical(tl_arch_default(), TL_SCOPE_UB)) {
        pto_unsupported(e, s->loc,
                        "%s: its %lld-byte scratch does not fit in UB past the planned buffers",
                        tl_op_info(s->op.code)->spelling, (long long)bytes);
        return false;
    }
    return true;
}

// A flat tile named `name` of dtype t over n elements at byte address addr.
void pto_flat_at(pto_emit_t *e, const char *name, tl_dtype_t t, int64_t n, const char *addr)
{
    pto_view_t v = {.buf = &(tl_buffer_t){.dtype = t}, .addr = addr, .rows = 1, .cols = n, .ld = n};
    pto_vec_tile(e, name, &v, true);
}

// T.tile.round (rint) and float32 -> float32 casts (a rounding to integral
// values with the cast's mode) exactly, from PTO's float -> int32 TCVT:
// c = clamp(x, +-2^23) (|x| >= 2^23 is integral already), r = mode(c) through
// int32, then x + (r - c) (r - c is exact and 0 for |x| >= 2^23) with x's
// sign bit OR-ed in (the roundings keep the sign: -0.0, and (-1, 0) rounded
// to zero, give -0.0). pto-isa's NPU TCVT has float32 -> float32 with a mode
// (vconv_f322f32*), but its CPU TCVT ignores the mode there, so the check
// could not tell. Two scratch tiles past the planned UB buffers.
static void round_op(pto_emit_t *e, const tl_stmt_t *s, pto_operands_t *o, tl_round_t mode)
{
    if (o->v[0].buf->dtype != TL_F32 || o->v[1].buf->dtype != TL_F32 || !o->flat || o->v[0].vcols) {
        pto_unsupported(e, s->loc, "T.tile.round of %s", tl_dtype_name(o->v[1].buf->dtype));
        return;
    }
    int64_t n = o->v[0].rows * o->v[0].cols, bytes = (n * 4 + 31) / 32 * 32, at;
    if (!pto_scratch(e, s, 2 * bytes, &at)) return;
    pto_vec_tiles(e, o);
    const char *sa = pto_fmt(e, "%lld", (long long)at),
               *sb = pto_fmt(e, "%lld", (long long)(at + bytes));
    pto_flat_at(e, "tl_sa", TL_F32, n, sa);
    pto_flat_at(e, "tl_sb", TL_F32, n, sb);
    pto_flat_at(e, "tl_sai", TL_I32, n, sa);
    pto_flat_at(e, "tl_sbi", TL_I32, n, sb);
    pto_flat_at(e, "tl_ai", TL_I32, n, o->v[1].addr);
    pto_flat_at(e, "tl_di", TL_I32, n, o->v[0].addr);
    pto_line(e, "pto::TMAXS(tl_sa, tl_a, -8388608.0f);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TMINS(tl_sa, tl_sa, 8388608.0f);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TCVT(tl_sbi, tl_sa, pto::RoundMode::%s, pto::SaturationMode::ON);",
             round_mode(mode == TL_CAST_NONE ? TL_CAST_RINT : mode));
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TCVT(tl_sb, tl_sbi, pto::RoundMode::CAST_NONE);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TSUB(tl_sb, tl_sb, tl_sa);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TEXPANDS(tl_sai, (int32_t)INT32_MIN);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TAND(tl_sai, tl_ai, tl_sai);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TADD(tl_d, tl_a, tl_sb);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TOR(tl_di, tl_di, tl_sai);");
}

static void unary(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, -1};
    pto_operands_t o;
    if (!pto_vec_views(e, s, idx, &o) || o.n != 2) return;
    tl_dtype_t dt = o.v[0].buf->dtype, st = o.v[1].buf->dtype;
    if (s->op.code == TL_OP_ROUND) {
        round_op(e, s, &o, TL_CAST_RINT);
        return;
    }
    if (s->op.code == TL_OP_CAST && dt == TL_F32 && st == TL_F32 && s->op.round != TL_CAST_ODD) {
        round_op(e, s, &o, s->op.round); // a float32 -> float32 cast rounds to integral values
        return;
    }
    if (s->op.code == TL_OP_CAST) {
        pto_vec_tiles(e, &o);
        cast(e, s, dt, st, s->op.round, "tl_d", "tl_a");
        return;
    }
    if (dt != st) {
        pto_unsupported(e, s->loc, "%s between dtypes", tl_op_info(s->op.code)->spelling);
        return;
    }
    const char *inst = NULL;
    switch (s->op.code) {
    case TL_OP_EXP: inst = "TEXP"; break;
    case TL_OP_LN: inst = "TLOG"; break;
    case TL_OP_ABS: inst = "TABS"; break;
    case TL_OP_RECIPROCAL: inst = "TRECIP"; break;
    case TL_OP_SQRT: inst = "TSQRT"; break;
    case TL_OP_RSQRT: inst = "TRSQRT"; break;
    case TL_OP_RELU: inst = "TRELU"; break;
    case TL_OP_NOT: inst = "TNOT"; break;
    case TL_OP_SIGMOID: break;
    default:
        pto_unsupported(e, s->loc, "%s (no PTO-ISA instruction)", tl_op_info(s->op.code)->spelling);
        return;
    }
    pto_vec_tiles(e, &o);
    if (inst) {
        pto_line(e, "pto::%s(tl_d, tl_a);", inst);
        return;
    }
    // sigmoid: 1 / (1 + exp(-x)), each step on the destination
    pto_line(e, "pto::TMULS(tl_d, tl_a, (%s)(-1.0f));", pto_ctype(dt));
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TEXP(tl_d, tl_d);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TADDS(tl_d, tl_d, (%s)(1.0f));", pto_ctype(dt));
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TRECIP(tl_d, tl_d);");
}

// The PTO-ISA instructions of the binary ops by operator (tl_op_binary): of
// two tiles, and of a tile and a scalar (sub and float div go through add and
// mul, see binary()); NULL where PTO-ISA has none. Division of two tiles is
// tilec_pto.h's tilec_tdiv (TDIV, but IEEE on a zero divisor on the CPU).
typedef struct {
    const char *tiles, *scalar;
} pto_bin_t;

static const pto_bin_t pto_bin[TL_BIN_COUNT] = {
    [TL_BIN_ADD] = {"TADD", "TADDS"}, [TL_BIN_SUB] = {"TSUB", NULL},
    [TL_BIN_MUL] = {"TMUL", "TMULS"}, [TL_BIN_DIV] = {"tilec_tdiv", "TDIVS"},
    [TL_BIN_MAX] = {"TMAX", "TMAXS"}, [TL_BIN_MIN] = {"TMIN", "TMINS"},
    [TL_BIN_AND] = {"TAND", NULL},    [TL_BIN_OR] = {"TOR", "TORS"},
};

// The instructions of binary op c, NULL if it is none or PTO-ISA lacks it.
static const pto_bin_t *pto_bin_of(tl_opcode_t c)
{
    tl_binop_t bin = tl_op_binary(c);
    return bin != TL_BIN_NONE && pto_bin[bin].tiles ? &pto_bin[bin] : NULL;
}

static void binary(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, 2, -1};
    pto_operands_t o;
    if (!pto_vec_views(e, s, idx, &o)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    for (int i = 1; i < o.n; i++)
        if (o.v[i].buf->dtype != t) {
            pto_unsupported(e, s->loc, "%s between dtypes", tl_op_info(s->op.code)->spelling);
            return;
        }
    bool f = tl_dtype_is_float(t);
    tl_opcode_t c = s->op.code;
    tl_binop_t bin = tl_op_binary(c);
    const pto_bin_t *pb = pto_bin_of(c);
    if (o.n == 3) {
        const char *inst = pb ? pb->tiles : NULL;
        if (!inst || (!f && bin == TL_BIN_DIV)) {
            pto_unsupported(e, s->loc, "%s of two tiles", tl_op_info(c)->spelling);
            return;
        }
        pto_vec_tiles(e, &o);
        pto_line(e, "%s%s(tl_d, tl_a, tl_b);", bin == TL_BIN_DIV ? "" : "pto::", inst);
        return;
    }
    const char *sv = pto_typed_scalar(e, s, 2, t), *ct = pto_ctype(t);
    pto_vec_tiles(e, &o);
    if (bin == TL_BIN_SUB) { // x - s is x + (-s), as the library computes it
        pto_line(e, "pto::TADDS(tl_d, tl_a, (%s)(-(%s)));", ct, sv);
        return;
    }
    if (bin == TL_BIN_DIV && f) { // x * (1 / s), as the library computes it
        pto_line(e, "pto::TMULS(tl_d, tl_a, (%s)(1.0f / (float)(%s)));", ct, sv);
        return;
    }
    if (pb && pb->scalar) {
        pto_line(e, "pto::%s(tl_d, tl_a, %s);", pb->scalar, sv);
        return;
    }
    switch (c) {
    case TL_OP_LEAKY_RELU: pto_line(e, "pto::TLRELU(tl_d, tl_a, %s);", sv); break;
    case TL_OP_CLAMP_MAX: pto_line(e, "pto::TMINS(tl_d, tl_a, %s);", sv); break;
    case TL_OP_CLAMP_MIN: pto_line(e, "pto::TMAXS(tl_d, tl_a, %s);", sv); break;
    case TL_OP_CLAMP:
        pto_line(e, "pto::TMAXS(tl_d, tl_a, %s);", sv);
        pto_line(e, "pipe_barrier(PIPE_V);");
        pto_line(e, "pto::TMINS(tl_d, tl_d, %s);", pto_typed_scalar(e, s, 3, t));
        break;
    default: pto_unsupported(e, s->loc, "%s with a scalar", tl_op_info(c)->spelling); break;
    }
}

static void fill(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, -1};
    pto_operands_t o;
    if (!pto_vec_views(e, s, idx, &o) || o.n != 1) return;
    pto_vec_tiles(e, &o);
    pto_line(e, "pto::TEXPANDS(tl_d, %s);", pto_typed_scalar(e, s, 1, o.v[0].buf->dtype));
}

// A flat operand as one row of n elements (broadcast's per-column source).
static void row_tile(pto_emit_t *e, const char *name, const pto_view_t *v)
{
    pto_view_t r = *v;
    r.rows = 1, r.cols = v->rows * v->cols;
    pto_vec_tile(e, name, &r, true);
}

bool pto_ub_view(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v)
{
    const tl_region_t *r = region(s, i);
    if (!r || r->buf->scope != TL_SCOPE_UB) {
        pto_unsupported(e, s->loc, "%s outside UB", tl_op_info(s->op.code)->spelling);
        return false;
    }
    return pto_view(e, r, v, s->loc);
}

static bool rows_view(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v)
{
    if (!pto_ub_view(e, s, i, v)) return false;
    if (v->ld * tl_dtype_size(v->buf->dtype) % 32 && v->rows > 1) {
        pto_unsupported(
            e, s->loc, "%s on rows of '%s' of %" PRId64 " bytes (PTO tiles need 32-byte rows)",
            tl_op_info(s->op.code)->spelling, v->buf->name, v->ld * tl_dtype_size(v->buf->dtype));
        return false;
    }
    if (v->rows == 1) v->ld = v->cols; // one row: its own length (padded by the tile type)
    return true;
}

// A per-row (or per-column) vector operand: any contiguous UB region, its
// elements in order (reduction results, broadcast and row_expand sources).
static bool vector_view(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v)
{
    if (!pto_ub_view(e, s, i, v)) return false;
    if (!pto_view_contiguous(v)) {
        pto_unsupported(e, s->loc, "%s on a strided vector operand '%s'",
                        tl_op_info(s->op.code)->spelling, v->buf->name);
        return false;
    }
    v->cols *= v->rows, v->rows = 1, v->ld = v->cols;
    return true;
}

static void vec_2d(pto_emit_t *e, const char *name, pto_view_t *v)
{
    if (v->rows == 1) {
        pto_vec_tile(e, name, v, true);
    } else {
        pto_vec_tile(e, name, v, false);
    }
}

static void broadcast(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    if (!rows_view(e, s, 0, &d) || !vector_view(e, s, 1, &a)) return;
    int64_t n = a.rows * a.cols;
    bool per_row = s->op.dim == 1 || (s->op.dim < 0 && n == d.rows && n != d.cols);
    bool per_col = s->op.dim == 0 || (s->op.dim < 0 && n == d.cols);
    if (!(per_row && n == d.rows) && !(per_col && n == d.cols)) {
        pto_unsupported(e, s->loc,
                        "this broadcast (%" PRId64 " values to %" PRId64 " x %" PRId64 ")", n,
                        d.rows, d.cols);
        return;
    }
    vec_2d(e, "tl_d", &d);
    if (per_row && n == d.rows) {
        pto_col_tile(e, "tl_a", &a, n);
        pto_line(e, "pto::TROWEXPAND(tl_d, tl_a);");
    } else {
        row_tile(e, "tl_a", &a);
        pto_line(e, "pto::TCOLEXPAND(tl_d, tl_a);");
    }
}

static void row_expand(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a, b;
    if (!rows_view(e, s, 0, &d) || !rows_view(e, s, 1, &a) || !vector_view(e, s, 2, &b)) return;
    if (a.rows != d.rows || a.cols != d.cols || b.rows * b.cols != d.rows) {
        pto_unsupported(e, s->loc, "%s on these shapes", tl_op_info(s->op.code)->spelling);
        return;
    }
    vec_2d(e, "tl_d", &d);
    vec_2d(e, "tl_a", &a);
    pto_col_tile(e, "tl_b", &b, d.rows);
    const char *inst = s->op.code == TL_OP_ROW_EXPAND_MUL   ? "pto::TROWEXPANDMUL"
                       : s->op.code == TL_OP_ROW_EXPAND_SUB ? "pto::TROWEXPANDSUB"
                                                            : "tilec_trowexpanddiv";
    pto_line(e, "%s(tl_d, tl_a, tl_b);", inst);
}

// A row reduction of `rows` rows of a (row pitch alloc, cols valid columns)
// as one instruction per row, each into a one-element row tile at its result.
static void reduce_row_by_row(pto_emit_t *e, const tl_stmt_t *s, const pto_view_t *a,
                              const pto_view_t *d, int64_t alloc, int64_t cols, const char *inst,
                              int64_t rows)
{
    int64_t at, asize = tl_dtype_size(a->buf->dtype), dsize = tl_dtype_size(d->buf->dtype);
    if (!pto_scratch(e, s, alloc * asize, &at)) return;
    const char *ct = pto_ctype(a->buf->dtype);
    pto_line(e, "for (int64_t tl_r = 0; tl_r < %" PRId64 "; tl_r++) {", rows);
    e->indent++;
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, 1, %" PRId64 ", pto::BLayout::RowMajor, 1, %" PRId64
             "> tl_a;",
             ct, alloc, cols);
    pto_line(e, "pto::TASSIGN(tl_a, (uintptr_t)(%s + tl_r * %" PRId64 "));", a->addr,
             alloc * asize);
    pto_line(
        e, "pto::Tile<pto::TileType::Vec, %s, 1, %" PRId64 ", pto::BLayout::RowMajor, 1, 1> tl_d;",
        pto_ctype(d->buf->dtype), 32 / dsize);
    pto_line(e, "pto::TASSIGN(tl_d, (uintptr_t)(%s + tl_r * %" PRId64 "));", d->addr, dsize);
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, 1, %" PRId64 ", pto::BLayout::RowMajor, 1, %" PRId64
             "> tl_tmp;",
             ct, alloc, cols);
    pto_line(e, "pto::TASSIGN(tl_tmp, (uintptr_t)%" PRId64 ");", at);
    pto_line(e, "pto::%s(tl_d, tl_a, tl_tmp);", inst);
    e->indent--;
    pto_line(e, "}");
}

// Which of sum (0), max (1), min (2) a reduction is (abssum / absmax: of |x|).
static int reduce_kind(tl_opcode_t c)
{
    return c == TL_OP_REDUCE_SUM || c == TL_OP_REDUCE_ABSSUM   ? 0
           : c == TL_OP_REDUCE_MAX || c == TL_OP_REDUCE_ABSMAX ? 1
                                                               : 2;
}

// The reduction of s into d (rows x cols of a valid).
static void reduce_to(pto_emit_t *e, const tl_stmt_t *s, pto_view_t a, pto_view_t d, int64_t rows,
                      int64_t cols, int64_t out)
{
    const char *ct = pto_ctype(a.buf->dtype);
    int64_t alloc = a.rows == 1 ? (a.cols * tl_dtype_size(a.buf->dtype) + 31) / 32 * 32 /
                                      tl_dtype_size(a.buf->dtype)
                                : a.ld;
    static const char *const row_inst[] = {"TROWSUM", "TROWMAX", "TROWMIN"};
    static const char *const col_inst[] = {"TCOLSUM", "TCOLMAX", "TCOLMIN"};
    int which = reduce_kind(s->op.code);
    // The result of a row reduction is a column tile (a multiple of 32 bytes
    // tall). pto-isa's TROWSUM/TROWMIN also want it as tall as the input tile:
    // a single row's sum goes to a one-element row tile instead, other inputs
    // get rows of padding (never read: the valid shape is rows x cols) within
    // UB, or, where that padding would pass the end of UB, one row at a time.
    int per = 32 / tl_dtype_size(d.buf->dtype);
    int64_t real_rows = a.rows, drows = (out + per - 1) / per * per;
    bool same_rows = which != 1 && s->op.dim != 0, one_row = same_rows && a.rows == 1;
    if (same_rows && !one_row && a.rows % per) {
        int64_t arows = (a.rows + per - 1) / per * per;
        if (a.buf->addr + tl_buffer_bytes(a.buf) +
                (arows - a.rows) * alloc * tl_dtype_size(a.buf->dtype) >
            tl_arch_physical(tl_arch_default(), TL_SCOPE_UB)) {
            reduce_row_by_row(e, s, &a, &d, alloc, cols, row_inst[which], rows);
            return;
        }
        a.rows = arows;
    }
    if (same_rows && !one_row) drows = a.rows;
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64 "> tl_a;",
             ct, a.rows, alloc, rows, cols);
    pto_line(e, "pto::TASSIGN(tl_a, (uintptr_t)(%s));", a.addr);
    if (s->op.dim == 0) {
        row_tile(e, "tl_d",
                 &(pto_view_t){.buf = d.buf, .addr = d.addr, .rows = 1, .cols = out, .ld = out});
        pto_line(e, "pto::%s(tl_d, tl_a);", col_inst[which]);
    } else {
        if (one_row)
            pto_line(e,
                     "pto::Tile<pto::TileType::Vec, %s, 1, %d, pto::BLayout::RowMajor, 1, 1> tl_d;",
                     pto_ctype(d.buf->dtype), per);
        else
            pto_line(
                e,
                "pto::Tile<pto::TileType::Vec, %s, %lld, 1, pto::BLayout::ColMajor, %lld, 1> tl_d;",
                pto_ctype(d.buf->dtype), (long long)drows, (long long)out);
        pto_line(e, "pto::TASSIGN(tl_d, (uintptr_t)(%s));", d.addr);
        // the NPU's row reductions take a scratch tile of the input's shape
        int64_t at;
        if (!pto_scratch(e, s, real_rows * alloc * tl_dtype_size(a.buf->dtype), &at)) return;
        pto_line(e,
                 "pto::Tile<pto::TileType::Vec, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64 "> tl_tmp;",
                 ct, real_rows, alloc, rows, cols);
        pto_line(e, "pto::TASSIGN(tl_tmp, (uintptr_t)%lld);", (long long)at);
        pto_line(e, "pto::%s(tl_d, tl_a, tl_tmp);", row_inst[which]);
    }
}

// reduce_*(src, dst): dim -1 one result per row (a column tile), dim 0 one per
// column. clear=False reduces into a scratch past the planned UB, then merges
// it into dst (sum: TADD of the rounded results, max/min: TMAX/TMIN).
static void reduce(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t a, d;
    if (!rows_view(e, s, 0, &a) || !vector_view(e, s, 1, &d)) return;
    int64_t rows = s->op.real_shape[0] ? s->op.real_shape[0] : a.rows;
    int64_t cols = s->op.real_shape[1] ? s->op.real_shape[1] : a.cols;
    if (rows > a.rows || cols > a.cols) {
        pto_unsupported(e, s->loc, "a real_shape past the input");
        return;
    }
    int64_t out = s->op.dim == 0 ? cols : rows;
    if (d.rows * d.cols < out) {
        pto_unsupported(e, s->loc,
                        "a reduction output of %" PRId64 " elements for %" PRId64 " results",
                        d.rows * d.cols, out);
        return;
    }
    int64_t top0 = e->ub_top;
    if (s->op.code == TL_OP_REDUCE_ABSSUM || s->op.code == TL_OP_REDUCE_ABSMAX) {
        // |x| (TABS) into a scratch of the input's rows, with room for the padding
        // rows reduce_to may give the tile; the reduction then reads the scratch
        tl_dtype_t t = a.buf->dtype;
        if (t != TL_F32 && t != TL_F16) {
            pto_unsupported(e, s->loc, "%s of %s", tl_op_info(s->op.code)->spelling, tl_dtype_name(t));
            return;
        }
        int size = tl_dtype_size(t), per = 32 / size;
        int64_t ld = a.rows == 1 ? (a.cols + per - 1) / per * per : a.ld, at;
        int64_t bytes = (a.rows + per - 1) / per * per * ld * size;
        if (!pto_scratch(e, s, bytes, &at)) return;
        pto_view_t m = a;
        m.addr = pto_fmt(e, "%" PRId64, at);
        pto_line(e, "{");
        e->indent++;
        vec_2d(e, "tl_xs", &a);
        vec_2d(e, "tl_xd", &m);
        pto_line(e, "pto::TABS(tl_xd, tl_xs);");
        e->indent--;
        pto_line(e, "}");
        pto_line(e, "pipe_barrier(PIPE_V);");
        a = m;
        e->ub_top = at + bytes; // the reduction's own scratch goes past this one
    }
    if (s->op.clear) {
        reduce_to(e, s, a, d, rows, cols, out);
        e->ub_top = top0;
        return;
    }
    int size = tl_dtype_size(d.buf->dtype), per = 32 / size;
    int64_t top = e->ub_top, at, n = (TL_MAX(out, a.rows) + 2 * per - 1) / per * per;
    if (!pto_scratch(e, s, n * size, &at)) return;
    pto_view_t r = d;
    r.addr = pto_fmt(e, "%" PRId64, at);
    e->ub_top += n * size; // the reduction's own scratch goes past this one
    reduce_to(e, s, a, r, rows, cols, out);
    e->ub_top = top;
    static const char *const merge[] = {"TADD", "TMAX", "TMIN"};
    int which = reduce_kind(s->op.code);
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_flat_at(e, "tl_o", d.buf->dtype, out, d.addr);
    pto_flat_at(e, "tl_r", d.buf->dtype, out, r.addr);
    pto_line(e, "pto::%s(tl_o, tl_o, tl_r);", merge[which]);
    e->ub_top = top0;
}

static void copy_ub(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {1, 0, -1};
    pto_operands_t o;
    if (!pto_vec_views(e, s, idx, &o) || o.n != 2) return;
    pto_vec_tiles(e, &o); // the destination (operand 1) is tl_d
    tl_dtype_t dt = o.v[0].buf->dtype, st = o.v[1].buf->dtype;
    if (dt == st)
        pto_line(e, "pto::TMOV(tl_d, tl_a);");
    else
        cast(e, s, dt, st, tl_cast_copy_mode(dt, st), "tl_d", "tl_a");
}

void pto_emit_vec(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_line(e, "{");
    e->indent++;
    switch (s->op.code) {
    case TL_OP_FILL: fill(e, s); break;
    case TL_OP_SET_DEQ_SCALE:
        pto_line(e, "tilec_deq = (float)(%s);", pto_expr_str(e, scalar(s, 0)));
        break;
    case TL_OP_CAST:
    case TL_OP_EXP:
    case TL_OP_LN:
    case TL_OP_ABS:
    case TL_OP_RECIPROCAL:
    case TL_OP_SQRT:
    case TL_OP_RSQRT:
    case TL_OP_RELU:
    case TL_OP_SIGMOID:
    case TL_OP_SIN:
    case TL_OP_COS:
    case TL_OP_ROUND:
    case TL_OP_NOT: unary(e, s); break;
    case TL_OP_LEAKY_RELU:
    case TL_OP_CLAMP:
    case TL_OP_CLAMP_MAX:
    case TL_OP_CLAMP_MIN: binary(e, s); break;
    case TL_OP_BROADCAST: broadcast(e, s); break;
    case TL_OP_ROW_EXPAND_MUL:
    case TL_OP_ROW_EXPAND_SUB:
    case TL_OP_ROW_EXPAND_DIV: row_expand(e, s); break;
    case TL_OP_REDUCE_SUM:
    case TL_OP_REDUCE_MAX:
    case TL_OP_REDUCE_MIN:
    case TL_OP_REDUCE_ABSSUM:
    case TL_OP_REDUCE_ABSMAX: reduce(e, s); break;
    case TL_OP_COPY: copy_ub(e, s); break;
    default:
        if (pto_bin_of(s->op.code))
            binary(e, s); // add .. min, bitwise_and, bitwise_or
        else if (!pto_emit_vec_more(e, s) && !pto_emit_repeat(e, s) && !pto_emit_sort(e, s) &&
                 !pto_emit_scan(e, s))
            pto_unsupported(e, s->loc, "%s", tl_op_info(s->op.code)->spelling);
        break;
    }
    e->indent--;
    pto_line(e, "}");
}
