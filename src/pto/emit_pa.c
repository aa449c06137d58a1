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

// T.tile.im2col (exec/tileop_im2col.c has its semantics) as pto-isa's
// TIMG2COL from a ConvTile (NC1HWC0, N = 1) over the feature map in L1 into
// the L0A tile, the fmatrix set by the instruction (FMATRIX_A_AUTO), pad
// value 0. Two things stand between tilec's operands and one TIMG2COL:
// - the L0A tile is zZ (A2/A3; what the NPU's TIMG2COL and TMATMUL take),
//   while pto-isa's CPU TIMG2COL writes an nZ Left tile (A5's). For a tile of
//   one 16-row fractal row both are the same bytes, so the CPU build issues
//   one TIMG2COL per 16-row band of the tile (posM advanced by 16 each);
// - the pto pipeline plans an L1 matrix in whole 16-row fractals, so a
//   feature map spread over several matrices of rows not a multiple of 16
//   (upstream's [C1, H*W, C0] buffer with H*W = 30) is not one NC1HWC0 run.
//   Then each C0 channel block (c1) is a ConvTile of its own at its physical
//   address, into its K columns (kh*kw*C0 of them: K is ordered c1, kh, kw,
//   c0), one TIMG2COL per band and block on both builds; that needs the
//   image, kernel and valid_k as constants and no block across a matrix's
//   end.
// A position past the Ho x Wo outputs is the pad value (pto-isa's CPU
// TIMG2COL: the next image, which N = 1 does not have; tilec's rule).
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
    int64_t c[18];
    bool known[18];
    for (int i = 2; i < 18; i++) {
        a[i] = pto_expr_str(e, op->args[i].scalar);
        known[i] = tl_ir_is_const_int(op->args[i].scalar, &c[i]);
    }
    // the fields of pto-isa's ConvTile: strides, dilations and pads 8 bits,
    // the image and kernel 16 bits, positions 16 bits
    static const int64_t lim[18] = {0, 0, 65535, 65535, 65535, 65535, 255, 255, 255, 255,
                                    255, 255, 255, 255, 65535, 65535, 65535, 65535};
    for (int i = 2; i < 18; i++)
        if (known[i] && c[i] > lim[i]) {
            pto_unsupported(e, s->loc,
                            "T.tile.im2col with operand %d = %" PRId64 " (pto-isa's TIMG2COL takes "
                            "at most %" PRId64 ")",
                            i + 1, c[i], lim[i]);
            return;
        }
    bool all = true;
    for (int i = 2; i < 14; i++) all = all && known[i];
    if (all && c[7] > 0 && c[6] > 0 &&
        ((c[3] + c[10] + c[11] - c[9] * (c[5] - 1) - 1) / c[7] + 1 <= 0 ||
         (c[2] + c[12] + c[13] - c[8] * (c[4] - 1) - 1) / c[6] + 1 <= 0)) {
        pto_unsupported(e, s->loc,
                        "T.tile.im2col with no output position (Ho or Wo <= 0: tilec writes "
                        "zeros, TIMG2COL has no such output)");
        return;
    }
    int n = sb->ndim, size = tl_dtype_size(sb->dtype);
    int64_t R = sb->shape[n - 2], C = sb->shape[n - 1], FR = tl_buffer_planned_rows(e->k, sb);
    int64_t c0n = 32 / size, nmat = 1;
    for (int i = 0; i < n - 2; i++) nmat *= sb->shape[i];
    // the region's start: the matrix (leading dimensions) and the element in it
    tl_buf_t mat;
    tl_buf_init(&mat);
    tl_buf_puts(&mat, "0");
    int64_t stride = 1, in0, in1;
    for (int i = n - 3; i >= 0; i--) {
        tl_buf_printf(&mat, " + (int64_t)(%s) * %" PRId64, pto_expr_str(e, src->start[i]), stride);
        stride *= sb->shape[i];
    }
    const char *matx = pto_fmt(e, "%s", tl_buf_cstr(&mat));
    tl_buf_free(&mat);
    const char *inx = pto_fmt(e, "(int64_t)(%s) * %" PRId64 " + (int64_t)(%s)",
                              pto_expr_str(e, src->start[n - 2]), C, pto_expr_str(e, src->start[n - 1]));
    bool contiguous = FR == R || nmat == 1;
    int64_t c1n = 0, khkw = 0;
    if (!contiguous) {
        bool ok = known[2] && known[3] && known[4] && known[5] && known[17] && known[15] &&
                  c[15] == 0 && tl_ir_is_const_int(src->start[n - 2], &in0) &&
                  tl_ir_is_const_int(src->start[n - 1], &in1) && C == c0n;
        khkw = ok ? c[4] * c[5] : 0;
        ok = ok && khkw > 0 && c[17] % (khkw * c0n) == 0;
        c1n = ok ? c[17] / (khkw * c0n) : 0;
        for (int64_t b = 0; ok && b < c1n; b++) {
            int64_t l = in0 * C + in1 + b * c[2] * c[3] * c0n;
            ok = l % (R * C) + c[2] * c[3] * c0n <= R * C;
        }
        if (!ok) {
            pto_unsupported(e, s->loc,
                            "T.tile.im2col from '%s', whose matrices of %" PRId64 " rows are laid "
                            "out in %" PRId64 " (whole 16-row fractals), other than with a "
                            "constant image, kernel and valid_k and each C0 channel block inside "
                            "one matrix (a ConvTile is one NC1HWC0 run)",
                            sb->name, R, FR);
            return;
        }
    }
    pto_line(e, "{");
    e->indent++;
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
    pto_line(e, "(void)tl_pk;");
    pto_line(e, "if (tl_rows > 0 && tl_vk > 0 && tl_ho > 0 && tl_wo > 0) {");
    e->indent++;
    for (int64_t b = 0; b < (contiguous ? 1 : c1n); b++) {
        // the block: its ConvTile's channel blocks, its first column, its columns
        const char *c1 = contiguous ? "tl_vk / (tl_kh * tl_kw) / " : "1";
        const char *phys =
            contiguous
                ? pto_fmt(e, "(%s) * %" PRId64 " + %s", matx, FR * C, inx)
                : pto_fmt(e, "((%s) + %" PRId64 ") * %" PRId64 " + %" PRId64, matx,
                          (in0 * C + in1 + b * c[2] * c[3] * c0n) / (R * C), FR * C,
                          (in0 * C + in1 + b * c[2] * c[3] * c0n) % (R * C));
        int64_t col = contiguous ? 0 : b * khkw * c0n;
        const char *cols = contiguous ? "tl_vk" : pto_fmt(e, "%" PRId64, khkw * c0n);
        pto_line(e, "{");
        e->indent++;
        pto_line(e,
                 "pto::ConvTile<pto::TileType::Mat, %s, %" PRId64
                 ", pto::Layout::NC1HWC0, pto::ConvTileShape<1, -1, -1, -1, %" PRId64
                 ">> tl_f((int64_t)(%s%s), (int64_t)tl_hi, (int64_t)tl_wi);",
                 ct, nmat * FR * C * size, c0n, c1, contiguous ? pto_fmt(e, "%" PRId64, c0n) : "");
        pto_line(e, "pto::TASSIGN(tl_f, (uintptr_t)(%" PRId64 " + (%s) * %d));", sb->addr, phys, size);
        pto_line(e, "tl_f.SetFmapH((uint16_t)tl_hi);");
        pto_line(e, "tl_f.SetFmapW((uint16_t)tl_wi);");
        pto_line(e, "tl_f.SetFilterH((uint16_t)tl_kh);");
        pto_line(e, "tl_f.SetFilterW((uint16_t)tl_kw);");
        pto_line(e, "tl_f.SetStrideH((uint8_t)tl_sh);");
        pto_line(e, "tl_f.SetStrideW((uint8_t)tl_sw);");
        pto_line(e, "tl_f.SetDilationH((uint8_t)tl_dh);");
        pto_line(e, "tl_f.SetDilationW((uint8_t)tl_dw);");
        pto_line(e, "const uint8_t tl_pads[4] = {(uint8_t)tl_pl, (uint8_t)tl_pr, (uint8_t)tl_pt, "
                    "(uint8_t)tl_pb};");
        pto_line(e, "tl_f.SetPadListArray(tl_pads);");
        pto_line(e, "tl_f.SetPadValue((%s)0);", ct);
        pto_line(e, "tl_f.SetChannelSize((uint16_t)(%s));",
                 contiguous ? "tl_vk / (tl_kh * tl_kw)" : pto_fmt(e, "%" PRId64, c0n));
        if (contiguous) { // the NPU: one TIMG2COL into the whole zZ tile
            pto_line(e, "#if !defined(__CPU_SIM)");
            pto_l0_tile(e, "tl_x", TL_SCOPE_L0A, dst->buf->dtype, m.frows, m.cols, m.addr,
                        "tl_rows", "tl_vk");
            pto_line(e,
                     "pto::TIMG2COL<decltype(tl_x), decltype(tl_f), "
                     "pto::SetFmatrixMode::FMATRIX_A_AUTO>(tl_x, tl_f, (uint16_t)tl_pm, "
                     "(uint16_t)tl_pk);");
            pto_line(e, "#else");
        }
        // one TIMG2COL per 16-row band: nZ on the CPU, zZ on the NPU (the same bytes)
        pto_line(e, "for (int64_t tl_b = 0; tl_b * 16 < tl_rows; tl_b++) {");
        e->indent++;
        for (int npu = 0; npu < 2; npu++) {
            if (!contiguous) pto_line(e, npu ? "#else" : "#if defined(__CPU_SIM)");
            if (npu && contiguous) break;
            pto_line(e,
                     "pto::Tile<pto::TileType::Left, %s, 16, %" PRId64
                     ", pto::BLayout::%s, -1, -1, pto::SLayout::RowMajor, 512> "
                     "tl_x((size_t)tilec_min(tl_rows - tl_b * 16, (int64_t)16), (size_t)(%s));",
                     ct, contiguous ? m.cols : khkw * c0n, npu ? "RowMajor" : "ColMajor", cols);
        }
        if (!contiguous) pto_line(e, "#endif");
        pto_line(e,
                 "pto::TASSIGN(tl_x, (uintptr_t)(%s + (tl_b * %" PRId64 " + %" PRId64 ") * %d));",
                 m.addr, 16 * m.cols, col * 16, size);
        pto_line(e,
                 "pto::TIMG2COL<decltype(tl_x), decltype(tl_f), "
                 "pto::SetFmatrixMode::FMATRIX_A_AUTO>(tl_x, tl_f, (uint16_t)(tl_pm + tl_b * "
                 "16), (uint16_t)%s);",
                 contiguous ? "tl_pk" : "0");
        e->indent--;
        pto_line(e, "}");
        if (contiguous) pto_line(e, "#endif");
        e->indent--;
        pto_line(e, "}");
    }
    e->indent--;
    pto_line(e, "}");
    e->indent--;
    pto_line(e, "}");
}
