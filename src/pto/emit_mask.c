// More vector ops as PTO-ISA instructions: compare (a bit mask) and select
// by it, createvecindex, reinterpretcast, bitwise_xor, the shifts, silu,
// axpy, pow and transpose. All but transpose work on flat spans (every operand
// contiguous), as tilec defines them (exec/tileop_misc.c, exec/tileop_vec.c).
//
// compare writes one bit per element, LSB first: TCMP into a uint8 tile of
// ceil(n / 8) bytes (pto-isa packs the same way). The scalar form goes
// through a tile of the scalar and TCMP: pto-isa's CPU TCMPS calls values
// within 1e-9 of each other equal. select: TSEL (bit 1 takes src0), the
// scalar mode TSELS. Scratch tiles sit past the planned UB buffers.
#include <inttypes.h>
#include <string.h>

#include "pto/pto_int.h"
#include "target/arch.h"

static const tl_region_t *region_arg(const tl_stmt_t *s, int i)
{
    return i < s->op.nargs && s->op.args[i].kind == TL_ARG_REGION ? &s->op.args[i].region : NULL;
}

static int64_t pad32(int64_t n, int size)
{
    int64_t per = 32 / size;
    return (n + per - 1) / per * per;
}

// The flat operands of s listed in idx; false (reported) unless all are
// contiguous spans of one static length n.
static bool flat_operands(pto_emit_t *e, const tl_stmt_t *s, const int *idx, pto_operands_t *o,
                          int64_t *n)
{
    if (!pto_vec_views(e, s, idx, o)) return false;
    if (!o->flat || o->v[0].vcols) {
        pto_unsupported(e, s->loc, "%s on strided operands or with a run-time count",
                        tl_op_info(s->op.code)->spelling);
        return false;
    }
    *n = o->v[0].rows * o->v[0].cols;
    return true;
}

// A uint8 tile over the mask bytes of n elements at the region of argument i.
static bool mask_tile(pto_emit_t *e, const tl_stmt_t *s, int i, int64_t n)
{
    const tl_region_t *r = region_arg(s, i);
    pto_view_t m;
    if (!r || r->buf->scope != TL_SCOPE_UB || !pto_view(e, r, &m, s->loc)) {
        if (r && r->buf->scope != TL_SCOPE_UB) pto_unsupported(e, s->loc, "a mask outside UB");
        return false;
    }
    int64_t bytes = (n + 7) / 8, have = m.rows * m.cols * tl_dtype_size(m.buf->dtype);
    if (!pto_view_contiguous(&m) || have < bytes) {
        pto_unsupported(e, s->loc, "a mask '%s' that is strided or shorter than %lld bytes",
                        m.buf->name, (long long)bytes);
        return false;
    }
    pto_line(e,
             "pto::Tile<pto::TileType::Vec, uint8_t, 1, %" PRId64
             ", pto::BLayout::RowMajor, 1, %" PRId64 "> tl_m;",
             pad32(bytes, 1), bytes);
    pto_line(e, "pto::TASSIGN(tl_m, (uintptr_t)(%s));", m.addr);
    return true;
}

static const char *cmp_mode(tl_cmp_mode_t m)
{
    switch (m) {
    case TL_CMPMODE_EQ: return "EQ";
    case TL_CMPMODE_NE: return "NE";
    case TL_CMPMODE_GT: return "GT";
    case TL_CMPMODE_GE: return "GE";
    case TL_CMPMODE_LT: return "LT";
    default: return "LE";
    }
}

// compare(mask, src0, src1 | scalar, mode)
static void compare(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {1, 2, -1};
    pto_operands_t o;
    int64_t n;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    if (t != TL_F32 && t != TL_F16 && t != TL_I32) {
        pto_unsupported(e, s->loc, "T.tile.compare of %s (TCMP: float32, float16, int32)",
                        tl_dtype_name(t));
        return;
    }
    if (o.n == 2 && o.v[1].buf->dtype != t) {
        pto_unsupported(e, s->loc, "T.tile.compare between dtypes");
        return;
    }
    int64_t at = 0, bytes = pad32(n, tl_dtype_size(t)) * tl_dtype_size(t);
    if (o.n == 1 && e->ub_top + bytes > tl_arch_physical(tl_arch_default(), TL_SCOPE_UB)) {
        // no room for the scalar's tile (the lightning indexers fill UB): tilec_pto.h's
        // scalar loop, between barriers of every pipe
        if (!mask_tile(e, s, 0, n)) return;
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        pto_line(e, "tilec_cmps(tl_m.data(), TILEC_UB(%s, %s), %s, %" PRId64 ", \"%s\");",
                 pto_ctype(t), o.v[0].addr,
                 pto_typed_scalar(e, s, 2, t == TL_I32 ? TL_I64 : TL_F32), n, cmp_mode(s->op.cmp));
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        return;
    }
    if (o.n == 1 && !pto_scratch(e, s, bytes, &at)) return;
    if (!mask_tile(e, s, 0, n)) return;
    pto_vec_tiles(e, &o); // tl_d = src0, tl_a = src1
    if (o.n == 1) {
        pto_flat_at(e, "tl_a", t, n, pto_fmt(e, "%" PRId64, at));
        pto_line(e, "pto::TEXPANDS(tl_a, %s);", pto_typed_scalar(e, s, 2, t));
        pto_line(e, "pipe_barrier(PIPE_V);");
    }
    pto_line(e, "pto::TCMP(tl_m, tl_d, tl_a, pto::CmpMode::%s);", cmp_mode(s->op.cmp));
}

// select(dst, mask, src0, src1 | scalar, mode)
static void select_op(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 2, 3, -1};
    pto_operands_t o;
    int64_t n, at;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    bool scalar_mode = s->op.sel == TL_SEL_TENSOR_SCALAR;
    if (scalar_mode != (o.n == 2)) {
        pto_unsupported(e, s->loc, "T.tile.select whose mode does not match its src1");
        return;
    }
    for (int i = 1; i < o.n; i++)
        if (o.v[i].buf->dtype != t) {
            pto_unsupported(e, s->loc, "T.tile.select between dtypes");
            return;
        }
    int64_t bytes = pad32(n, tl_dtype_size(t)) * tl_dtype_size(t);
    if (e->ub_top + bytes > tl_arch_physical(tl_arch_default(), TL_SCOPE_UB)) {
        // no room for TSEL's scratch: tilec_pto.h's scalar loop, as compare's
        if (!mask_tile(e, s, 1, n)) return;
        const char *ct = pto_ctype(t);
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        pto_line(e,
                 "tilec_select(TILEC_UB(%s, %s), tl_m.data(), TILEC_UB(%s, %s), TILEC_UB(%s, %s), "
                 "%s, %s, %" PRId64 ");",
                 ct, o.v[0].addr, ct, o.v[1].addr, ct, o.v[scalar_mode ? 1 : 2].addr,
                 scalar_mode ? pto_typed_scalar(e, s, 3, t) : pto_fmt(e, "(%s)0", ct),
                 scalar_mode ? "true" : "false", n);
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        return;
    }
    if (!pto_scratch(e, s, bytes, &at)) return;
    if (!mask_tile(e, s, 1, n)) return;
    pto_vec_tiles(e, &o); // tl_d, tl_a = src0, tl_b = src1
    pto_flat_at(e, "tl_tmp", t, n, pto_fmt(e, "%" PRId64, at));
    if (scalar_mode)
        pto_line(e, "pto::TSELS(tl_d, tl_m, tl_a, tl_tmp, %s);", pto_typed_scalar(e, s, 3, t));
    else
        pto_line(e, "pto::TSEL(tl_d, tl_m, tl_a, tl_b, tl_tmp);");
}

// createvecindex(dst, first): first + i (TCI, a one-row tile)
static void createvecindex(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, -1};
    pto_operands_t o;
    int64_t n;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    if (t != TL_I32 && t != TL_I16 && t != TL_F32) {
        pto_unsupported(e, s->loc, "T.tile.createvecindex of %s", tl_dtype_name(t));
        return;
    }
    pto_vec_tiles(e, &o);
    pto_line(e, "pto::TCI<decltype(tl_d), %s, 0>(tl_d, %s);", pto_ctype(t),
             pto_typed_scalar(e, s, 1, t));
}

// reinterpretcast(dst, src): src's bytes into dst (no instruction when they
// are the same bytes; else a TMOV of the bytes as uint8)
static void reinterpret(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, -1};
    pto_operands_t o;
    if (!pto_vec_views(e, s, idx, &o) || o.n != 2) return;
    if (!o.flat || o.v[0].vcols || o.v[1].vcols) {
        pto_unsupported(e, s->loc, "T.tile.reinterpretcast of strided operands");
        return;
    }
    int64_t db = o.v[0].rows * o.v[0].cols * tl_dtype_size(o.v[0].buf->dtype);
    int64_t sb = o.v[1].rows * o.v[1].cols * tl_dtype_size(o.v[1].buf->dtype);
    if (db < sb) {
        pto_unsupported(e, s->loc, "T.tile.reinterpretcast into fewer bytes");
        return;
    }
    if (!strcmp(o.v[0].addr, o.v[1].addr)) {
        pto_line(e, "// the same bytes: nothing moves");
        return;
    }
    pto_flat_at(e, "tl_d", TL_U8, sb, o.v[0].addr);
    pto_flat_at(e, "tl_a", TL_U8, sb, o.v[1].addr);
    pto_line(e, "pto::TMOV(tl_d, tl_a);");
}

// bitwise_xor (TXOR / TXORS with a scratch tile), bitwise_lshift / rshift (TSHLS / TSHRS)
static void bits(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, 2, -1};
    pto_operands_t o;
    int64_t n, at = 0;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    bool ok = t == TL_I32 || t == TL_I16 || t == TL_U32 || t == TL_U16 ||
              (s->op.code == TL_OP_XOR && (t == TL_I8 || t == TL_U8));
    for (int i = 1; i < o.n; i++) ok = ok && o.v[i].buf->dtype == t;
    if (!ok) {
        pto_unsupported(e, s->loc, "%s of %s", tl_op_info(s->op.code)->spelling, tl_dtype_name(t));
        return;
    }
    if (s->op.code == TL_OP_XOR &&
        !pto_scratch(e, s, pad32(n, tl_dtype_size(t)) * tl_dtype_size(t), &at))
        return;
    pto_vec_tiles(e, &o);
    const char *sv = pto_typed_scalar(e, s, 2, t);
    if (s->op.code == TL_OP_XOR) {
        pto_flat_at(e, "tl_tmp", t, n, pto_fmt(e, "%" PRId64, at));
        if (o.n == 3)
            pto_line(e, "pto::TXOR(tl_d, tl_a, tl_b, tl_tmp);");
        else
            pto_line(e, "pto::TXORS(tl_d, tl_a, %s, tl_tmp);", sv);
    } else {
        pto_line(e, "pto::%s(tl_d, tl_a, %s);", s->op.code == TL_OP_SHL ? "TSHLS" : "TSHRS", sv);
    }
}

// silu = x / (1 + exp(-x)): the denominator in a scratch tile, then TDIV
static void silu(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, -1};
    pto_operands_t o;
    int64_t n, at;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    if ((t != TL_F32 && t != TL_F16) || o.v[1].buf->dtype != t) {
        pto_unsupported(e, s->loc, "T.tile.silu of %s", tl_dtype_name(o.v[1].buf->dtype));
        return;
    }
    if (!pto_scratch(e, s, pad32(n, tl_dtype_size(t)) * tl_dtype_size(t), &at)) return;
    pto_vec_tiles(e, &o);
    pto_flat_at(e, "tl_tmp", t, n, pto_fmt(e, "%" PRId64, at));
    const char *ct = pto_ctype(t);
    pto_line(e, "pto::TMULS(tl_tmp, tl_a, (%s)(-1.0f));", ct);
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TEXP(tl_tmp, tl_tmp);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TADDS(tl_tmp, tl_tmp, (%s)(1.0f));", ct);
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "tilec_tdiv(tl_d, tl_a, tl_tmp);");
}

// axpy(dst, src, a): dst += a * src (float32: the product and the sum each
// rounded, as tilec computes it; 16-bit floats round once in tilec, twice in TAXPY)
static void axpy(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, -1};
    pto_operands_t o;
    int64_t n;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    if (o.v[0].buf->dtype != TL_F32 || o.v[1].buf->dtype != TL_F32) {
        pto_unsupported(e, s->loc, "T.tile.axpy of %s into %s (TAXPY rounds twice)",
                        tl_dtype_name(o.v[1].buf->dtype), tl_dtype_name(o.v[0].buf->dtype));
        return;
    }
    pto_vec_tiles(e, &o);
    pto_line(e, "pto::TAXPY(tl_d, tl_a, %s);", pto_typed_scalar(e, s, 2, TL_F32));
}

// One chunk of mul_add_dst: n elements from element k0 (a C++ expression).
static void mul_add_chunk(pto_emit_t *e, const pto_operands_t *o, int64_t n, const char *k0,
                          int64_t at)
{
    static const char *const names[] = {"tl_d", "tl_a", "tl_b"};
    for (int i = 0; i < 3; i++)
        pto_flat_at(e, names[i], TL_F32, n, pto_fmt(e, "(%s) + (%s) * 4", o->v[i].addr, k0));
    pto_flat_at(e, "tl_tmp", TL_F32, n, pto_fmt(e, "%" PRId64, at));
    pto_line(e, "pto::TMUL(tl_tmp, tl_a, tl_b);");
    pto_line(e, "pipe_barrier(PIPE_V);");
    pto_line(e, "pto::TADD(tl_d, tl_tmp, tl_d);");
    pto_line(e, "pipe_barrier(PIPE_V);");
}

// mul_add_dst(dst, src0, src1): dst = src0 * src1 + dst, float32 with the
// product and the sum each rounded (as tilec): TMUL into a scratch tile, TADD,
// in chunks of at most 256 elements (a 1 KB scratch; a scalar loop without room for it)
static void mul_add_dst(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, 2, -1};
    pto_operands_t o;
    int64_t n, at;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    for (int i = 0; i < 3; i++)
        if (o.v[i].buf->dtype != TL_F32) {
            pto_unsupported(e, s->loc, "T.tile.mul_add_dst of %s",
                            tl_dtype_name(o.v[i].buf->dtype));
            return;
        }
    int64_t chunk = n < 256 ? n : 256, full = n / chunk, tail = n % chunk;
    if (e->ub_top + pad32(chunk, 4) * 4 > tl_arch_physical(tl_arch_default(), TL_SCOPE_UB)) {
        // no room for a scratch (the lightning indexers fill UB): tilec_pto.h's
        // scalar loop, between barriers of every pipe
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        pto_line(e,
                 "tilec_mul_add_dst(TILEC_UB(float, %s), TILEC_UB(float, %s), TILEC_UB(float, %s), "
                 "%" PRId64 ");",
                 o.v[0].addr, o.v[1].addr, o.v[2].addr, n);
        pto_line(e, "pipe_barrier(PIPE_ALL);");
        return;
    }
    at = e->ub_top;
    pto_line(e, "for (int64_t tl_k = 0; tl_k < %" PRId64 "; tl_k++) {", full);
    e->indent++;
    mul_add_chunk(e, &o, chunk, pto_fmt(e, "tl_k * %" PRId64, chunk), at);
    e->indent--;
    pto_line(e, "}");
    if (tail) {
        pto_line(e, "{");
        e->indent++;
        mul_add_chunk(e, &o, tail, pto_fmt(e, "%" PRId64, full * chunk), at);
        e->indent--;
        pto_line(e, "}");
    }
}

// pow(dst, src, exponent tile | scalar): TPOW / TPOWS with a scratch tile
// (pto-isa's CPU pow: libm's pow in double, rounded; tilec: powf)
static void pow_op(pto_emit_t *e, const tl_stmt_t *s)
{
    static const int idx[] = {0, 1, 2, -1};
    pto_operands_t o;
    int64_t n, at;
    if (!flat_operands(e, s, idx, &o, &n)) return;
    tl_dtype_t t = o.v[0].buf->dtype;
    bool ok = t == TL_F32 || t == TL_F16;
    for (int i = 1; i < o.n; i++) ok = ok && o.v[i].buf->dtype == t;
    if (!ok) {
        pto_unsupported(e, s->loc, "T.tile.pow of %s", tl_dtype_name(o.v[1].buf->dtype));
        return;
    }
    if (!pto_scratch(e, s, pad32(n, tl_dtype_size(t)) * tl_dtype_size(t), &at)) return;
    pto_vec_tiles(e, &o);
    pto_flat_at(e, "tl_tmp", t, n, pto_fmt(e, "%" PRId64, at));
    if (o.n == 3)
        pto_line(e, "pto::TPOW(tl_d, tl_a, tl_b, tl_tmp);");
    else
        pto_line(e, "pto::TPOWS(tl_d, tl_a, %s, tl_tmp);", pto_typed_scalar(e, s, 2, t));
}

// transpose(dst, src): src [rows, cols] into dst [cols, rows] (TTRANS with a
// scratch tile; both operands whole contiguous 2-D blocks of 32-byte rows,
// in different places)
static void transpose(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_view_t d, a;
    if (!pto_ub_view(e, s, 0, &d) || !pto_ub_view(e, s, 1, &a)) return;
    int size = tl_dtype_size(a.buf->dtype);
    if (tl_dtype_size(d.buf->dtype) != size || !pto_view_contiguous(&d) ||
        !pto_view_contiguous(&a) || d.rows != a.cols || d.cols != a.rows || (a.cols * size) % 32 ||
        (d.cols * size) % 32 || d.buf == a.buf) {
        pto_unsupported(e, s->loc,
                        "T.tile.transpose other than of a contiguous [rows, cols] block into "
                        "another buffer's [cols, rows], rows of 32 bytes");
        return;
    }
    int64_t at;
    if (!pto_scratch(e, s, a.rows * a.cols * size, &at)) return;
    pto_vec_tile(e, "tl_d", &d, false);
    pto_vec_tile(e, "tl_a", &a, false);
    pto_view_t t = a;
    t.addr = pto_fmt(e, "%" PRId64, at);
    pto_vec_tile(e, "tl_tmp", &t, false);
    pto_line(e, "pto::TTRANS(tl_d, tl_a, tl_tmp);");
}

bool pto_emit_vec_more(pto_emit_t *e, const tl_stmt_t *s)
{
    switch (s->op.code) {
    case TL_OP_COMPARE: compare(e, s); return true;
    case TL_OP_SELECT: select_op(e, s); return true;
    case TL_OP_CREATEVECINDEX: createvecindex(e, s); return true;
    case TL_OP_REINTERPRETCAST: reinterpret(e, s); return true;
    case TL_OP_XOR:
    case TL_OP_SHL:
    case TL_OP_SHR: bits(e, s); return true;
    case TL_OP_SILU: silu(e, s); return true;
    case TL_OP_AXPY: axpy(e, s); return true;
    case TL_OP_MUL_ADD_DST: mul_add_dst(e, s); return true;
    case TL_OP_POW: pow_op(e, s); return true;
    case TL_OP_TRANSPOSE: transpose(e, s); return true;
    default: return false;
    }
}
