// The cube ops: T.mma on L0A/L0B/L0C matrices as TMATMUL / TMATMUL_ACC, and
// T.gemm_v0 (operands in L1, result in L0C) expanded as upstream's template
// does: K in chunks of 128, each TEXTRACTed to L0A/L0B and multiplied, with
// the template's own flags around it (event id 7; docs/pto.md). Operands are
// matrices of their buffers (pto_matrix: multi-buffered slots included).
#include <inttypes.h>

#include "pto/pto_int.h"

// The L0C matrix c, or its cols columns from column c0 (a C++ expression, a
// multiple of 16: NZ strips of their own; NULL: 0), as tl_c; vn: its valid
// columns (n_actual), NULL: all.
static void acc_tile(pto_emit_t *e, const pto_matrix_t *c, int64_t cols, const char *c0,
                     const char *vn)
{
    if (vn)
        pto_line(e,
                 "pto::TileAcc<%s, %" PRId64 ", %" PRId64 ", -1, -1> tl_c((size_t)%" PRId64
                 ", (size_t)(%s));",
                 pto_ctype(c->buf->dtype), c->frows, cols, c->frows, vn);
    else
        pto_line(e, "pto::TileAcc<%s, %" PRId64 ", %" PRId64 "> tl_c;", pto_ctype(c->buf->dtype),
                 c->frows, cols);
    if (c0)
        pto_line(e, "pto::TASSIGN(tl_c, (uintptr_t)(%s + (%s) * %" PRId64 "));", c->addr, c0,
                 c->frows * tl_dtype_size(c->buf->dtype));
    else
        pto_line(e, "pto::TASSIGN(tl_c, (uintptr_t)(%s));", c->addr);
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
    pto_line(e, "if (%s)", pto_cond(e, init));
    pto_line(e, "    pto::TMATMUL(tl_c, %s, %s);", a, b);
    pto_line(e, "else");
    pto_line(e, "    pto::TMATMUL_ACC(tl_c, tl_c, %s, %s);", a, b);
}

// The three operands as matrices of the scopes op needs (a, b in sa; c in L0C).
static bool operands(pto_emit_t *e, const tl_stmt_t *s, tl_scope_t sa, tl_scope_t sb,
                     pto_matrix_t m[3])
{
    for (int i = 0; i < 3; i++)
        if (!pto_matrix(e, &s->op.args[i].region, &m[i], s->loc)) return false;
    if (m[0].buf->scope != sa || m[1].buf->scope != sb || m[2].buf->scope != TL_SCOPE_L0C ||
        !m[2].whole) {
        pto_unsupported(e, s->loc, "%s on %s, %s, %s", tl_op_info(s->op.code)->spelling,
                        tl_scope_name(m[0].buf->scope), tl_scope_name(m[1].buf->scope),
                        tl_scope_name(m[2].buf->scope));
        return false;
    }
    return cube_types(e, s, m[0].buf, m[2].buf);
}

void pto_emit_mma(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_matrix_t m[3];
    pto_line(e, "{");
    e->indent++;
    if (!operands(e, s, TL_SCOPE_L0A, TL_SCOPE_L0B, m)) {
        // reported
    } else if (!m[0].whole || !m[1].whole || s->op.transpose_a || s->op.transpose_b ||
               m[0].rows != m[2].rows || m[1].cols != m[2].cols || m[0].cols != m[1].rows) {
        pto_unsupported(e, s->loc, "T.mma other than on whole L0A, L0B, L0C matrices");
    } else {
        // k_actual / n_actual: the products from k on are not added, C's
        // columns from n on not written (the tiles' valid shapes)
        const char *vk = NULL, *vn = NULL;
        if (s->op.k_valid || s->op.n_valid) {
            pto_line(
                e, "const int64_t tl_vk = %s, tl_vn = %s;",
                s->op.k_valid ? pto_expr_str(e, s->op.k_valid) : pto_fmt(e, "%" PRId64, m[0].cols),
                s->op.n_valid ? pto_expr_str(e, s->op.n_valid) : pto_fmt(e, "%" PRId64, m[1].cols));
            pto_line(e, "if (tl_vk > 0 && tl_vn > 0) {");
            e->indent++;
            vk = "tl_vk", vn = "tl_vn";
        }
        pto_l0_tile(e, "tl_a", TL_SCOPE_L0A, m[0].buf->dtype, m[0].frows, m[0].cols, m[0].addr,
                    NULL, vk);
        pto_l0_tile(e, "tl_b", TL_SCOPE_L0B, m[1].buf->dtype, m[1].frows, m[1].cols, m[1].addr, vk,
                    vn);
        acc_tile(e, &m[2], m[2].cols, NULL, vn);
        // no init (or a constant false one, which the front end drops): accumulate
        matmul(e, s->op.init ? pto_expr_str(e, s->op.init) : "false", "tl_a", "tl_b");
        if (vk) {
            e->indent--;
            pto_line(e, "}");
        }
    }
    e->indent--;
    pto_line(e, "}");
}

// One K chunk of gemm_v0: L0A/L0B tiles of kc columns/rows at L0 address 0,
// extracted from the L1 views at the operands' (view) starts; N columns of B
// from column n0 (a C++ expression; NULL: 0).
static void gemm_chunk(pto_emit_t *e, tl_dtype_t t, int64_t M, int64_t N, int64_t kc,
                       const char *k0, const char *n0, const char *init, const char *vn)
{
    pto_l0_tile(e, "tl_l0a", TL_SCOPE_L0A, t, M, kc, "0", NULL, NULL);
    pto_l0_tile(e, "tl_l0b", TL_SCOPE_L0B, t, kc, N, "0", NULL, vn);
    pto_line(e, "set_flag(PIPE_M, PIPE_MTE1, EVENT_ID7);");
    pto_line(e, "wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID7);");
    pto_line(e, "pto::TEXTRACT(tl_l0a, tl_ma, (uint16_t)(%s), (uint16_t)(%s + %s));", e->gemm_a[0],
             e->gemm_a[1], k0);
    if (n0)
        pto_line(e, "pto::TEXTRACT(tl_l0b, tl_mb, (uint16_t)(%s + %s), (uint16_t)(%s + %s));",
                 e->gemm_b[0], k0, e->gemm_b[1], n0);
    else
        pto_line(e, "pto::TEXTRACT(tl_l0b, tl_mb, (uint16_t)(%s + %s), (uint16_t)(%s));",
                 e->gemm_b[0], k0, e->gemm_b[1]);
    pto_line(e, "set_flag(PIPE_MTE1, PIPE_M, EVENT_ID7);");
    pto_line(e, "wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID7);");
    matmul(e, init, "tl_l0a", "tl_l0b");
}

// gemm_v0's L1 operand as the matrix it reads (the transpose when transposed):
// its start in that view in start[], its extents in ext[].
static void l1_operand(pto_emit_t *e, const char *name, const pto_matrix_t *m, bool transposed,
                       const char **start, int64_t *ext)
{
    start[0] = transposed ? m->c0 : m->r0, start[1] = transposed ? m->r0 : m->c0;
    ext[0] = transposed ? m->ec : m->er, ext[1] = transposed ? m->er : m->ec;
    pto_mat_tile(e, name, m, transposed);
}

void pto_emit_gemm_v0(pto_emit_t *e, const tl_stmt_t *s)
{
    pto_matrix_t m[3];
    int64_t ea[2], eb[2];
    pto_line(e, "{");
    e->indent++;
    if (operands(e, s, TL_SCOPE_L1, TL_SCOPE_L1, m)) {
        l1_operand(e, "tl_ma", &m[0], s->op.transpose_a, e->gemm_a, ea);
        l1_operand(e, "tl_mb", &m[1], s->op.transpose_b, e->gemm_b, eb);
        if (ea[0] != m[2].rows || eb[1] != m[2].cols || ea[1] != eb[0] || ea[1] % 16) {
            pto_unsupported(e, s->loc, "T.gemm_v0 on these operand shapes");
        } else {
            int64_t M = m[2].frows, N = m[2].cols, K = ea[1];
            tl_dtype_t t = m[0].buf->dtype;
            // K in chunks of kL0Size, N in tiles (upstream's newest helper, as tilec sim)
            int64_t kl0 = tl_gemm_v0_k_l0(&s->op);
            int64_t full = K / kl0, tail = K % kl0;
            int64_t nt = tl_gemm_v0_n_tile(&s->op, N, 8 * tl_dtype_size(t));
            // n_actual: C's columns from n on are not written (L0B's and C's valid columns)
            const char *vn = NULL, *n0 = NULL;
            if (s->op.n_valid) {
                pto_line(e, "const int64_t tl_vn = tilec_min((int64_t)%" PRId64 ", (int64_t)(%s));",
                         N, pto_expr_str(e, s->op.n_valid));
                vn = "tl_vn";
            }
            if (nt == N) acc_tile(e, &m[2], N, NULL, vn);
            pto_line(e, "const bool tl_init = %s;",
                     s->op.init ? pto_expr_str(e, s->op.init) : "false");
            if (nt < N) {
                pto_line(e, "for (int64_t tl_j = 0; tl_j < %" PRId64 "; tl_j++) {", N / nt);
                e->indent++;
                n0 = pto_fmt(e, "tl_j * %" PRId64, nt);
                if (vn) {
                    pto_line(e,
                             "const int64_t tl_vnj = tilec_min(tl_vn - tl_j * %" PRId64
                             ", (int64_t)%" PRId64 ");",
                             nt, nt);
                    pto_line(e, "if (tl_vnj <= 0) break;");
                    vn = "tl_vnj";
                }
                acc_tile(e, &m[2], nt, n0, vn);
            }
            pto_line(e, "set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID7);");
            pto_line(e, "wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID7);");
            pto_line(e, "set_flag(PIPE_FIX, PIPE_M, EVENT_ID7);");
            pto_line(e, "wait_flag(PIPE_FIX, PIPE_M, EVENT_ID7);");
            if (full) {
                pto_line(e, "for (int64_t tl_kk = 0; tl_kk < %" PRId64 "; tl_kk++) {", full);
                e->indent++;
                gemm_chunk(e, t, M, nt, kl0, pto_fmt(e, "tl_kk * %" PRId64, kl0), n0,
                           "tl_init && tl_kk == 0", vn);
                e->indent--;
                pto_line(e, "}");
            }
            if (tail) {
                pto_line(e, "{");
                e->indent++;
                gemm_chunk(e, t, M, nt, tail, pto_fmt(e, "%" PRId64, full * kl0), n0,
                           full ? "false" : "tl_init", vn);
                e->indent--;
                pto_line(e, "}");
            }
            if (nt < N) {
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
