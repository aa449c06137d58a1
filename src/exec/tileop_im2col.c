// T.tile.im2col(dst, src, image_shape, kernel, stride=(1, 1), dilation=(1, 1),
// padding=(0, 0, 0, 0), pos_m=0, pos_k=0, valid_m=None, valid_k=None):
// upstream's convolution tile load L1 -> L0A (tilelang/language/ascend_tile.py
// im2col, lowered to AscendC's LoadData with LoadData3DParamsV2). Semantics
// from asc-devkit's LoadData_3D.md and its pseudo-code load3d.py (read, not
// copied); the binder (front/tapi_ops.c) passes the tuples as scalars:
// operands dst, src, hi, wi, kh, kw, stride_h, stride_w, dilation_h,
// dilation_w, pad_left, pad_right, pad_top, pad_bottom, pos_m, pos_k,
// valid_m, valid_k.
// - src is an NC1HWC0 feature map [C1, hi, wi, C0] (C0 = 32 bytes of the
//   dtype), read from the region's origin; channelSize is valid_k / (kh kw)
//   (upstream's rule), C1 = channelSize / C0;
// - the im2col matrix has one row per output position m = oh * Wo + ow
//   (Wo = (wi + pad_left + pad_right - dilation_w (kw - 1) - 1) / stride_w + 1)
//   and one column per k = ((c1 * kh + i) * kw + j) * C0 + c0 (load3d.py's
//   [C1, kh*kw, M, C0] order); its element is src[c1, ih, iw, c0] with
//   ih = oh * stride_h - pad_top + i * dilation_h, iw likewise, 0 (the pad
//   value) where (ih, iw) is outside the image;
// - dst[m, k] = im2col[pos_m + m, pos_k + k] for k < valid_k and m below
//   valid_m rounded up to the 16-row fractal (at most dst's rows; 1- and
//   2-byte types: LoadData moves whole fractals, an mExtension that is not a
//   multiple of 16 is allowed only where it covers the last one), the rows
//   past valid_m the positions after it; a position past the Ho x Wo outputs
//   is the pad value (pto-isa's CPU TIMG2COL: the next image of the batch,
//   which the source does not have); the last two dimensions of dst's region;
//   the rest of dst is not written.
// tilec checks what it needs: channelSize a whole number of C0 blocks, the
// columns inside the K of channelSize, src's last dimension C0 (so its
// logical rows are the NC1HWC0 bytes; upstream's note: with N == C0 the zN
// tile is plain row-major), the feature map inside src's buffer.
#include "exec/tileop_impl.h"

#include <string.h>

enum { HI = 2, WI, KH, KW, SH, SW, DH, DW, PL, PR, PT, PB, POS_M, POS_K, VALID_M, VALID_K, NARGS };

typedef struct {
    int64_t v[NARGS];
    int64_t c0, cs, c1, ho, wo;
    int64_t rows; // dst rows written
} im2col_t;

static tl_status_t params(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, im2col_t *p,
                          const tl_view_t **dst, const tl_view_t **src)
{
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, dst)) || (st = tl_tileop_view(ctx, call, 1, src)) ||
        (st = tl_tileop_check_view(ctx, call, *dst)) ||
        (st = tl_tileop_check_view(ctx, call, *src)) ||
        (st = tl_tileop_same_dtype(ctx, call, *dst, *src)))
        return st;
    for (int i = HI; i < NARGS; i++) {
        if (i >= call->nargs || call->args[i].is_view)
            return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "operand %d must be a scalar", i + 1);
        p->v[i] = tl_tileop_scalar_int(&call->args[i].scalar);
    }
    const tl_view_t *d = *dst, *s = *src;
    int64_t *v = p->v;
    p->c0 = 32 / tl_dtype_size(d->dtype);
    int nd = d->ndim;
    const char *bad = NULL;
    for (int i = HI; i < NARGS && !bad; i++)
        if (v[i] < 0) bad = "its sizes, strides, pads and positions must be non-negative";
    if (bad) {
    } else if (v[HI] == 0 || v[WI] == 0 || v[KH] == 0 || v[KW] == 0 || v[SH] == 0 || v[SW] == 0 ||
               v[DH] == 0 || v[DW] == 0)
        bad = "image_shape, kernel, stride and dilation must be positive";
    else if (nd < 2)
        bad = "the destination must be a tile of rows and columns";
    else if (v[VALID_M] > d->extent[nd - 2] || v[VALID_K] > d->extent[nd - 1])
        bad = "valid_m / valid_k must be within the destination region's rows / columns";
    else if (v[VALID_K] % (v[KH] * v[KW]) || (v[VALID_K] / (v[KH] * v[KW])) % p->c0)
        bad = "valid_k / (kh * kw) (channelSize) must be a whole number of 32-byte C0 blocks";
    else if (v[POS_K] % p->c0 || v[POS_K] + v[VALID_K] > v[VALID_K])
        bad = "pos_k + valid_k must stay inside the K of channelSize = valid_k / (kh * kw) "
              "(so pos_k is 0 when valid_k is given)";
    else if (s->shape[s->ndim - 1] != p->c0)
        bad = "the source must be an NC1HWC0 feature map: its last dimension C0 = 32 bytes";
    if (bad)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "%s (image %lldx%lld, kernel %lldx%lld, "
                              "valid_m %lld, valid_k %lld, pos_m %lld, pos_k %lld, C0 %lld)",
                              bad, (long long)v[HI], (long long)v[WI], (long long)v[KH],
                              (long long)v[KW], (long long)v[VALID_M], (long long)v[VALID_K],
                              (long long)v[POS_M], (long long)v[POS_K], (long long)p->c0);
    for (int i = 0; i < nd - 2; i++)
        if (d->extent[i] != 1)
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                  "the destination region of '%s' must be one [rows, columns] tile",
                                  d->name);
    p->rows = tl_dtype_size(d->dtype) == 4 ? v[VALID_M]
                                           : TL_MIN((v[VALID_M] + 15) / 16 * 16, d->extent[nd - 2]);
    p->cs = v[VALID_K] / (v[KH] * v[KW]);
    p->c1 = p->cs / p->c0;
    p->wo = (v[WI] + v[PL] + v[PR] - v[DW] * (v[KW] - 1) - 1) / v[SW] + 1;
    p->ho = (v[HI] + v[PT] + v[PB] - v[DH] * (v[KH] - 1) - 1) / v[SH] + 1;
    if (p->wo <= 0 || p->ho <= 0) p->wo = 1, p->ho = 0; // no output position: all padding
    int64_t need = p->c1 * v[HI] * v[WI] * p->c0, have = 1;
    for (int i = 0; i < s->ndim; i++) have *= s->shape[i];
    if (v[VALID_M] > 0 && v[VALID_K] > 0 && tl_view_offset(s) + need > have)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "the feature map [%lld, %lld, %lld, %lld] runs past the end of '%s' "
                              "(%lld elements from element %lld, %lld in the buffer)",
                              (long long)p->c1, (long long)v[HI], (long long)v[WI],
                              (long long)p->c0, s->name, (long long)need,
                              (long long)tl_view_offset(s), (long long)have);
    return TL_OK;
}

// The source element (from the region's origin) of im2col[m, k], -1 for padding.
static int64_t source_of(const im2col_t *p, int64_t m, int64_t k)
{
    const int64_t *v = p->v;
    int64_t khkw = v[KH] * v[KW];
    int64_t c1 = k / (khkw * p->c0), r = k % (khkw * p->c0), f = r / p->c0, c0 = r % p->c0;
    if (m >= p->ho * p->wo) return -1;
    int64_t oh = m / p->wo, ow = m % p->wo;
    int64_t ih = oh * v[SH] - v[PT] + (f / v[KW]) * v[DH];
    int64_t iw = ow * v[SW] - v[PL] + (f % v[KW]) * v[DW];
    if (ih < 0 || ih >= v[HI] || iw < 0 || iw >= v[WI]) return -1;
    return ((c1 * v[HI] + ih) * v[WI] + iw) * p->c0 + c0;
}

tl_status_t tl_tileop_im2col_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    im2col_t p;
    const tl_view_t *d, *s;
    tl_status_t st = params(ctx, call, &p, &d, &s);
    if (st) return st;
    int size = tl_dtype_size(d->dtype);
    int64_t pitch = d->shape[d->ndim - 1], d0 = tl_view_offset(d), s0 = tl_view_offset(s);
    // the first region index of each of dst's last two dimensions
    int64_t r0 = d->start[d->ndim - 2], c0 = d->start[d->ndim - 1];
    d0 -= r0 * pitch + c0; // the matrix's origin; rows and columns added below
    for (int64_t m = 0; m < p.rows; m++)
        for (int64_t k = 0; k < p.v[VALID_K]; k++) {
            uint8_t *out = d->data + (d0 + (r0 + m) * pitch + c0 + k) * size;
            int64_t e = source_of(&p, p.v[POS_M] + m, p.v[POS_K] + k);
            if (e < 0)
                memset(out, 0, (size_t)size);
            else
                memcpy(out, s->data + (s0 + e) * size, (size_t)size);
        }
    return TL_OK;
}

void tl_tileop_im2col_accesses(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg)
{
    im2col_t p;
    const tl_view_t *d, *s;
    tl_tileop_ctx_t quiet = {0};
    if (params(&quiet, call, &p, &d, &s) || p.v[VALID_M] <= 0 || p.v[VALID_K] <= 0) return;
    int size = tl_dtype_size(d->dtype);
    // the feature map it may read (one run), and the rows of dst it writes
    fn(arg, 1, false, tl_view_offset(s) * size, p.c1 * p.v[HI] * p.v[WI] * p.c0 * size);
    int64_t pitch = d->shape[d->ndim - 1], d0 = tl_view_offset(d);
    for (int64_t m = 0; m < p.rows; m++)
        fn(arg, 0, true, (d0 + m * pitch) * size, p.v[VALID_K] * size);
}
