// T.copy_pa (exec/tileop_pa.c has its semantics): the page walk as a run-time
// loop, each page's run of rows loaded into the L1 matrix's rows from the
// rows done so far (NZ: in each 32-byte column strip the rows are 32 bytes
// apart, so a run of rows is one block per strip). On the CPU check the block
// is written by tilec_l1_rows, exactly its rows and columns; the NPU code
// TLOADs each strip's rows into a Mat tile over the matrix (not verified on a
// device). The block table is read by the scalar unit from GM.
#include <inttypes.h>

#include "pto/pto_int.h"

void pto_emit_copy_pa(pto_emit_t *e, const tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    if (op->nargs < 15) {
        pto_unsupported(e, s->loc, "T.copy_pa with %d operands", op->nargs);
        return;
    }
    const tl_region_t *dst = &op->args[0].region, *kv = &op->args[1].region,
                      *bt = &op->args[2].region;
    for (int d = 0; d < kv->ndim; d++) {
        int64_t c;
        if (!tl_ir_is_const_int(kv->start[d], &c) || c ||
            !tl_ir_is_const_int(bt->start[d < bt->ndim ? d : 0], &c) || c) {
            pto_unsupported(e, s->loc,
                            "T.copy_pa from a region of '%s' or '%s' (whole tensors only)",
                            kv->buf->name, bt->buf->name);
            return;
        }
    }
    pto_matrix_t m;
    if (!pto_matrix(e, dst, &m, s->loc)) return;
    if (!m.whole) {
        pto_unsupported(e, s->loc, "T.copy_pa into a block of '%s' (a whole tile only)",
                        dst->buf->name);
        return;
    }
    const char *ct = pto_ctype(dst->buf->dtype), *a[15];
    for (int i = 3; i < 15; i++) a[i] = pto_expr_str(e, op->args[i].scalar);
    int64_t c0n = 32 / tl_dtype_size(dst->buf->dtype);
    pto_line(e, "{");
    e->indent++;
    pto_line(e,
             "const int64_t tl_bs = (int64_t)(%s), tl_hd = (int64_t)(%s), tl_ks = (int64_t)(%s), "
             "tl_mb = (int64_t)(%s);",
             a[3], a[5], a[6], a[7]);
    pto_line(e,
             "const int64_t tl_act = (int64_t)(%s), tl_rows = (int64_t)(%s), tl_b = (int64_t)(%s), "
             "tl_n2 = (int64_t)(%s), tl_d = (int64_t)(%s);",
             a[8], a[9], a[11], a[12], a[14]);
    pto_line(e, "int64_t tl_done = 0, tl_s2 = (int64_t)(%s);", a[13]);
    pto_line(e, "while (tl_done < tl_rows) {");
    e->indent++;
    pto_line(e, "const int64_t tl_in = tl_s2 %% tl_bs, tl_vr = tilec_min(tl_bs - tl_in, tl_rows - "
                "tl_done);");
    pto_line(e, "const int64_t tl_id = (int64_t)%s[tl_b * tl_mb + tl_s2 / tl_bs];", bt->buf->name);
    pto_line(e, "%s *tl_src = %s + tl_id * tl_ks + tl_n2 * tl_hd * tl_bs + tl_in * tl_hd + tl_d;",
             ct, kv->buf->name);
    pto_line(e, "#if defined(__CPU_SIM)");
    pto_line(e,
             "tilec_l1_rows(TILEC_L1(%s, %s), %" PRId64
             ", tl_done, 0, tl_vr, tl_act, tl_src, tl_hd, tl_vr, tl_act);",
             ct, m.addr, m.frows);
    pto_line(e, "#else");
    pto_line(e, "for (int64_t tl_j = 0; tl_j * %" PRId64 " < tl_act; tl_j++) {", c0n);
    e->indent++;
    pto_line(e,
             "pto::GlobalTensor<%s, pto::Shape<1, 1, 1, -1, -1>, pto::Stride<1, 1, 1, -1, 1>> "
             "tl_g(tl_src + tl_j * %" PRId64
             ", pto::Shape<1, 1, 1, -1, -1>(1, 1, 1, tl_vr, %" PRId64
             "), pto::Stride<1, 1, 1, -1, 1>(1, 1, 1, tl_hd, 1));",
             ct, c0n, c0n);
    pto_line(e,
             "pto::Tile<pto::TileType::Mat, %s, %" PRId64 ", %" PRId64
             ", pto::BLayout::ColMajor, -1, -1, pto::SLayout::RowMajor, 512, pto::PadValue::Zero> "
             "tl_t((size_t)tl_vr, (size_t)%" PRId64 ");",
             ct, m.frows, c0n, c0n);
    pto_line(e, "pto::TASSIGN(tl_t, (uintptr_t)(%s + tl_j * %" PRId64 " + tl_done * 32));", m.addr,
             m.frows * 32);
    pto_line(e, "pto::TLOAD(tl_t, tl_g);");
    e->indent--;
    pto_line(e, "}");
    pto_line(e, "#endif");
    pto_line(e, "tl_done += tl_vr;");
    pto_line(e, "tl_s2 += tl_vr;");
    e->indent--;
    pto_line(e, "}");
    e->indent--;
    pto_line(e, "}");
}

// T.tile.im2col (exec/tileop_im2col.c has its semantics): on the CPU check a
// scalar loop over the L0A tile's valid rows and columns, each element from
// the feature map in L1 (its logical NC1HWC0 index mapped into the buffer's
// matrices, each laid out with its planned rows) or the pad value 0, written
// through pto-isa's Left-tile element offsets. The NPU lowering (TIMG2COL on
// a ConvTile) is not emitted yet: the NPU build stops with an #error there.
void pto_emit_im2col(pto_emit_t *e, const tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    if (op->nargs < 18) {
        pto_unsupported(e, s->loc, "T.tile.im2col with %d operands", op->nargs);
        return;
    }
    const tl_region_t *dst = &op->args[0].region, *src = &op->args[1].region;
    const tl_buffer_t *sb = src->buf;
    pto_matrix_t m;
    if (!pto_matrix(e, dst, &m, s->loc)) return;
    if (!m.whole || sb->ndim < 2) {
        pto_unsupported(e, s->loc, "T.tile.im2col into a block of '%s' or from a 1-D '%s'",
                        dst->buf->name, sb->name);
        return;
    }
    const char *ct = pto_ctype(dst->buf->dtype), *a[18];
    for (int i = 2; i < 18; i++) a[i] = pto_expr_str(e, op->args[i].scalar);
    int n = sb->ndim, size = tl_dtype_size(sb->dtype);
    int64_t R = sb->shape[n - 2], C = sb->shape[n - 1], FR = tl_buffer_planned_rows(e->k, sb);
    tl_buf_t org; // the source region's logical flat origin
    tl_buf_init(&org);
    tl_buf_puts(&org, "0");
    int64_t stride = 1;
    for (int i = n - 1; i >= 0; i--) {
        tl_buf_printf(&org, " + (int64_t)(%s) * %" PRId64, pto_expr_str(e, src->start[i]), stride);
        stride *= sb->shape[i];
    }
    pto_line(e, "{");
    e->indent++;
    pto_line(e, "#if defined(__CPU_SIM)");
    pto_l0_tile(e, "tl_x", TL_SCOPE_L0A, dst->buf->dtype, m.frows, m.cols, m.addr, NULL, NULL);
    pto_line(e, "const %s *tl_f = TILEC_L1(%s, %" PRId64 ");", ct, ct, sb->addr);
    pto_line(
        e,
        "const int64_t tl_hi = %s, tl_wi = %s, tl_kh = %s, tl_kw = %s, tl_sh = %s, tl_sw = %s, "
        "tl_dh = %s, tl_dw = %s;",
        a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
    pto_line(
        e,
        "const int64_t tl_pl = %s, tl_pr = %s, tl_pt = %s, tl_pb = %s, tl_pm = %s, tl_pk = %s, "
        "tl_vm = %s, tl_vk = %s;",
        a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17]);
    pto_line(e, "const int64_t tl_c0 = %d, tl_org = %s;", 32 / size, tl_buf_cstr(&org));
    tl_buf_free(&org);
    pto_line(
        e, "const int64_t tl_wo = (tl_wi + tl_pl + tl_pr - tl_dw * (tl_kw - 1) - 1) / tl_sw + 1;");
    pto_line(
        e, "const int64_t tl_ho = (tl_hi + tl_pt + tl_pb - tl_dh * (tl_kh - 1) - 1) / tl_sh + 1;");
    if (size == 4)
        pto_line(e, "const int64_t tl_rows = tl_vm;");
    else
        pto_line(e,
                 "const int64_t tl_rows = tilec_min((tl_vm + 15) / 16 * 16, (int64_t)%" PRId64 ");",
                 m.rows);
    pto_line(e, "for (int64_t tl_r = 0; tl_r < tl_rows; tl_r++)");
    pto_line(e, "    for (int64_t tl_k = 0; tl_k < tl_vk; tl_k++) {");
    e->indent += 2;
    pto_line(e,
             "const int64_t tl_m = tl_pm + tl_r, tl_kk = tl_pk + tl_k, tl_khkw = tl_kh * tl_kw;");
    pto_line(e,
             "const int64_t tl_c1 = tl_kk / (tl_khkw * tl_c0), tl_fi = tl_kk / tl_c0 %% tl_khkw;");
    pto_line(e, "const int64_t tl_oh = tl_wo > 0 ? tl_m / tl_wo : 0, tl_ow = tl_wo > 0 ? tl_m %% "
                "tl_wo : 0;");
    pto_line(e, "const int64_t tl_ih = tl_oh * tl_sh - tl_pt + tl_fi / tl_kw * tl_dh;");
    pto_line(e, "const int64_t tl_iw = tl_ow * tl_sw - tl_pl + tl_fi %% tl_kw * tl_dw;");
    pto_line(e, "%s tl_v = %s(0);", ct, ct);
    pto_line(e, "if (tl_m < tl_ho * tl_wo && tl_ih >= 0 && tl_ih < tl_hi && tl_iw >= 0 && tl_iw < "
                "tl_wi) {");
    e->indent++;
    pto_line(e, "const int64_t tl_l = tl_org + ((tl_c1 * tl_hi + tl_ih) * tl_wi + tl_iw) * tl_c0 + "
                "tl_kk %% tl_c0;");
    pto_line(e, "tl_v = tl_f[tl_l / %" PRId64 " * %" PRId64 " + tl_l %% %" PRId64 "];", R * C,
             FR * C, R * C);
    e->indent--;
    pto_line(e, "}");
    pto_line(
        e, "tl_x.data()[pto::GetTileElementOffset<decltype(tl_x)>((int)tl_r, (int)tl_k)] = tl_v;");
    e->indent -= 2;
    pto_line(e, "    }");
    pto_line(e, "#else");
    pto_line(e,
             "#error \"T.tile.im2col: the NPU lowering (TIMG2COL) is not emitted by tilec yet\"");
    pto_line(e, "#endif");
    e->indent--;
    pto_line(e, "}");
}
