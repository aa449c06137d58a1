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
