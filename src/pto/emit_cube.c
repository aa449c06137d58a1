// The cube ops: T.mma on L0A/L0B/L0C buffers as TMATMUL / TMATMUL_ACC, and
// T.gemm_v0 (operands in L1, result in L0C) expanded as upstream's template
// does: K in chunks of 128, each TEXTRACTed to L0A/L0B and multiplied, with
// the template's own flags around it (event id 7; docs/pto.md).
#include <inttypes.h>

#include "pto/pto_int.h"

static bool whole_2d(const tl_region_t *r)
{
    const tl_buffer_t *b = r->buf;
    int64_t v;
    if (b->ndim != 2) return false;
    for (int i = 0; i < 2; i++)
        if (!tl_ir_is_const_int(r->start[i], &v) || v != 0 ||
            !tl_ir_is_const_int(r->extent[i], &v) || v != b->shape[i])
            return false;
    return true;
}

static void acc_tile(pto_emit_t *e, const tl_buffer_t *c)
{
    pto_line(e, "pto::TileAcc<%s, %" PRId64 ", %" PRId64 "> tl_c;", pto_ctype(c->dtype),
             c->shape[0], c->shape[1]);
    pto_line(e, "pto::TASSIGN(tl_c, (uintptr_t)%" PRId64 ");", c->addr);
}

static bool cube_types(pto_emit_t *e, const tl_stmt_t *s, const tl_buffer_t *a,
                       const tl_buffer_t *c)
{
    bool ok =
        (a->dtype == TL_I8 && c->dtype == TL_I32) ||
        ((a->dtype == TL_F16 || a->dtype == TL_BF16 || a->dtype == TL_F32) && c->dtype == TL_F32);
    if (!ok)
        pto_unsupported(e, s->loc, "a %s -> %s matmul", tl_dtype_name(a->dtype),
                        tl_dtype_name(c->dtype));
    return ok;
}

static void matmul(pto_emit_t *e, const char *init, const char *a, const char *b)
{
    pto_line(e, "if (%s)", init);
    pto_line(e, "    pto::TMATMUL(tl_c, %s, %s);", a, b);
    pto_line(e, "else");
    pto_line(e, "    pto::TMATMUL_ACC(tl_c, tl_c, %s, %s);", a, b);
}

void pto_emit_mma(pto_emit_t *e, const tl_stmt_t *s)
{
    const tl_region_t *ra = &s->op.args[0].region, *rb = &s->op.args[1].region,
                      *rc = &s->op.args[2].region;
    const tl_buffer_t *a = ra->buf, *b = rb->buf, *c = rc->buf;
    pto_line(e, "{");
    e->indent++;
    if (!whole_2d(ra) || !whole_2d(rb) || !whole_2d(rc) || a->scope != TL_SCOPE_L0A ||
        b->scope != TL_SCOPE_L0B || c->scope != TL_SCOPE_L0C || s->op.transpose_a ||
        s->op.transpose_b) {
        pto_unsupported(e, s->loc, "T.mma other than on whole L0A, L0B, L0C buffers");
    } else if (cube_types(e, s, a, c)) {
        const char *ct = pto_ctype(a->dtype);
        pto_line(e,
                 "pto::Tile<pto::TileType::Left, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64
                 ", pto::SLayout::RowMajor, 512> tl_a;",
                 ct, a->shape[0], a->shape[1], a->shape[0], a->shape[1]);
        pto_line(e, "pto::TASSIGN(tl_a, (uintptr_t)%" PRId64 ");", a->addr);
        pto_line(e,
                 "pto::Tile<pto::TileType::Right, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64
                 ", pto::SLayout::ColMajor, 512> tl_b;",
                 ct, b->shape[0], b->shape[1], b->shape[0], b->shape[1]);
        pto_line(e, "pto::TASSIGN(tl_b, (uintptr_t)%" PRId64 ");", b->addr);
        acc_tile(e, c);
        matmul(e, s->op.init ? pto_expr_str(e, s->op.init) : "true", "tl_a", "tl_b");
    }
    e->indent--;
    pto_line(e, "}");
}

// One K chunk of gemm_v0: L0A/L0B tiles of kc columns/rows at L0 address 0,
// extracted from the L1 views at the operands' (view) starts.
static void gemm_chunk(pto_emit_t *e, tl_dtype_t t, int64_t M, int64_t N, int64_t kc,
                       const char *k0, const char *init)
{
    const char *ct = pto_ctype(t);
    pto_line(e,
             "pto::Tile<pto::TileType::Left, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64
             ", pto::SLayout::RowMajor, 512> tl_l0a;",
             ct, M, kc, M, kc);
    pto_line(e,
             "pto::Tile<pto::TileType::Right, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64
             ", pto::SLayout::ColMajor, 512> tl_l0b;",
             ct, kc, N, kc, N);
    pto_line(e, "pto::TASSIGN(tl_l0a, (uintptr_t)0);");
    pto_line(e, "pto::TASSIGN(tl_l0b, (uintptr_t)0);");
    pto_line(e, "set_flag(PIPE_M, PIPE_MTE1, EVENT_ID7);");
    pto_line(e, "wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID7);");
    pto_line(e, "pto::TEXTRACT(tl_l0a, tl_ma, (uint16_t)(%s), (uint16_t)(%s + %s));", e->gemm_a[0],
             e->gemm_a[1], k0);
    pto_line(e, "pto::TEXTRACT(tl_l0b, tl_mb, (uint16_t)(%s + %s), (uint16_t)(%s));", e->gemm_b[0],
             k0, e->gemm_b[1]);
    pto_line(e, "set_flag(PIPE_MTE1, PIPE_M, EVENT_ID7);");
    pto_line(e, "wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID7);");
    matmul(e, init, "tl_l0a", "tl_l0b");
}

// An L1 operand as the matrix gemm_v0 reads: NZ as stored, or read as the
// transpose (ZN) when the operand is transposed. start[] gets the region's
// start in that view; ext[] its extents.
static bool l1_matrix(pto_emit_t *e, const char *name, const tl_region_t *r, bool transposed,
                      const char **start, int64_t *ext)
{
    const tl_buffer_t *m = r->buf;
    const char *ct = pto_ctype(m->dtype);
    int64_t R = m->shape[0], C = m->shape[1];
    if (m->ndim != 2 || !tl_ir_is_const_int(r->extent[0], &ext[transposed]) ||
        !tl_ir_is_const_int(r->extent[1], &ext[!transposed]))
        return false;
    start[transposed] = pto_expr_str(e, r->start[0]);
    start[!transposed] = pto_expr_str(e, r->start[1]);
    if (transposed)
        pto_line(e,
                 "pto::Tile<pto::TileType::Mat, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::RowMajor, %" PRId64 ", %" PRId64
                 ", pto::SLayout::ColMajor, 512> %s;",
                 ct, C, R, C, R, name);
    else
        pto_line(e,
                 "pto::Tile<pto::TileType::Mat, %s, %" PRId64 ", %" PRId64
                 ", pto::BLayout::ColMajor, %" PRId64 ", %" PRId64
                 ", pto::SLayout::RowMajor, 512> %s;",
                 ct, R, C, R, C, name);
    pto_line(e, "pto::TASSIGN(%s, (uintptr_t)%" PRId64 ");", name, m->addr);
    return true;
}

void pto_emit_gemm_v0(pto_emit_t *e, const tl_stmt_t *s)
{
    const tl_region_t *ra = &s->op.args[0].region, *rb = &s->op.args[1].region,
                      *rc = &s->op.args[2].region;
    const tl_buffer_t *a = ra->buf, *b = rb->buf, *c = rc->buf;
    pto_line(e, "{");
    e->indent++;
    int64_t ea[2], eb[2];
    if (!whole_2d(rc) || a->scope != TL_SCOPE_L1 || b->scope != TL_SCOPE_L1 ||
        c->scope != TL_SCOPE_L0C) {
        pto_unsupported(e, s->loc, "T.gemm_v0 other than on L1, L1 and a whole L0C buffer");
    } else if (cube_types(e, s, a, c)) {
        if (!l1_matrix(e, "tl_ma", ra, s->op.transpose_a, e->gemm_a, ea) ||
            !l1_matrix(e, "tl_mb", rb, s->op.transpose_b, e->gemm_b, eb) || ea[0] != c->shape[0] ||
            eb[1] != c->shape[1] || ea[1] != eb[0] || ea[1] % 16) {
            pto_unsupported(e, s->loc, "T.gemm_v0 on these operand shapes");
        } else {
            int64_t M = c->shape[0], N = c->shape[1], K = ea[1];
            int64_t full = K / 128, tail = K % 128;
            acc_tile(e, c);
            pto_line(e, "const bool tl_init = %s;",
                     s->op.init ? pto_expr_str(e, s->op.init) : "false");
            pto_line(e, "set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID7);");
            pto_line(e, "wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID7);");
            pto_line(e, "set_flag(PIPE_FIX, PIPE_M, EVENT_ID7);");
            pto_line(e, "wait_flag(PIPE_FIX, PIPE_M, EVENT_ID7);");
            if (full) {
                pto_line(e, "for (int64_t tl_kk = 0; tl_kk < %" PRId64 "; tl_kk++) {", full);
                e->indent++;
                gemm_chunk(e, a->dtype, M, N, 128, "tl_kk * 128", "tl_init && tl_kk == 0");
                e->indent--;
                pto_line(e, "}");
            }
            if (tail) {
                pto_line(e, "{");
                e->indent++;
                gemm_chunk(e, a->dtype, M, N, tail, pto_fmt(e, "%" PRId64, full * 128),
                           full ? "false" : "tl_init");
                e->indent--;
                pto_line(e, "}");
            }
            pto_line(e, "set_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID7);");
            pto_line(e, "wait_flag(PIPE_MTE1, PIPE_MTE2, EVENT_ID7);");
            pto_line(e, "set_flag(PIPE_M, PIPE_FIX, EVENT_ID7);");
            pto_line(e, "wait_flag(PIPE_M, PIPE_FIX, EVENT_ID7);");
        }
    }
    e->indent--;
    pto_line(e, "}");
}
