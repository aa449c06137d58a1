// T.tile.bilinear_interpolation(dst, src0, src0_offset, src1, mask, h_repeat,
// repeat_mode, dst_blk_stride, v_r_offset, v_repeat[, tmp]): AscendC's
// BilinearInterpolation (upstream's codegen prints it with these arguments;
// upstream deprecates the API: tilelang/language/ascend_tile.py wraps it in
// @deprecated(), a DeprecationWarning). Semantics from asc-devkit's
// BilinearInterpolation(ISASI).md and its A2/A3 implementation (dav_c220
// kernel_operator_vec_bilinearinterpolation_impl.h), float16 only (the doc's
// one dtype). With N = h_repeat * v_repeat repeats of 128 lanes (8 blocks of
// 16 elements):
// - gather: repeat n's block j is the 32-byte block of src0 at byte offset
//   src0_offset[8n + j] (uint32, a multiple of 32 inside src0);
// - weights (Brcb of src1, floor(size / 8) * 8 of its elements, its size the
//   elements from its origin to its buffer's end, as AscendC's GetSize): with
//   repeat_mode False every lane of repeat n is multiplied by src1[n], with True
//   block j of repeat n by src1[8n + j]; all 128 lanes (counter mode: the mask
//   does not apply), each product rounded to float16;
// - horizontal sum: for each vertical repeat i, the first `mask` lanes of
//   repeat i*h_repeat accumulate repeats i*h_repeat + 1 .. in order (each
//   addition rounded); the other lanes keep the first repeat's product;
// - output (Adds of 0): lane l < mask of vertical repeat i goes to
//   dst[i * v_r_offset + (l / 16) * dst_blk_stride * 16 + l % 16].
// tilec keeps the products itself: the tmp arena (upstream's sharedTmpBuffer,
// which the library overwrites with them) is accepted and not written.
// Checked: h_repeat and v_repeat in 1..255 with N <= 255 (the library keeps N
// in a uint8), mask in 1..128, v_r_offset in 128..65534 and a multiple of 16,
// dst_blk_stride in 0..65535, the offsets' blocks inside src0 and the weights
// inside the Brcb'd part of src1.
#include "exec/tileop_impl.h"

#include <string.h>

enum { LANES = 128, PER = 16 }; // float16 lanes of a repeat, of a 32-byte block

typedef struct {
    int64_t mask, h, mode, blk, voff, v, n;
} bl_params_t;

static void params_of(const tl_opcall_t *call, bl_params_t *p)
{
    p->mask = tl_tileop_scalar_int(&call->args[4].scalar);
    p->h = tl_tileop_scalar_int(&call->args[5].scalar);
    p->mode = tl_tileop_scalar_int(&call->args[6].scalar);
    p->blk = tl_tileop_scalar_int(&call->args[7].scalar);
    p->voff = tl_tileop_scalar_int(&call->args[8].scalar);
    p->v = tl_tileop_scalar_int(&call->args[9].scalar);
    p->n = p->h * p->v;
}

// Elements from a view's origin to the end of its buffer (AscendC's GetSize of
// the tensor the codegen passes, buf[offset]).
static int64_t to_end(const tl_view_t *v)
{
    int64_t total = 1;
    for (int k = 0; k < v->ndim; k++) total *= v->shape[k];
    return total - tl_view_offset(v);
}

// The dst element lane l of vertical repeat i goes to.
static int64_t dst_at(const bl_params_t *p, int64_t i, int64_t l)
{
    return i * p->voff + (l / PER) * p->blk * PER + l % PER;
}

// src1's elements the weights read: N (repeat_mode False) or 8 N.
static int64_t weights(const bl_params_t *p)
{
    return p->mode ? 8 * p->n : p->n;
}

int tl_tileop_bilinear_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2],
                              int64_t count[2])
{
    bl_params_t p;
    params_of(call, &p);
    first[0] = 0;
    if (p.n <= 0 || p.mask <= 0 || (i == 0) != write || i > 3) return 0;
    if (i == 0) { // from the lowest to the highest element written
        int64_t hi = 0, lo = INT64_MAX;
        for (int64_t r = 0; r < p.v; r++) {
            lo = TL_MIN(lo, dst_at(&p, r, 0));
            hi = TL_MAX(hi, dst_at(&p, r, p.mask - 1) + 1); // the last lane
            if (p.mask >= PER) // the last whole block (dst_blk_stride 0: the first)
                hi = TL_MAX(hi, dst_at(&p, r, (p.mask / PER - 1) * PER) + PER);
        }
        first[0] = lo;
        return (count[0] = TL_MAX(0, hi - lo)) > 0;
    }
    if (i == 2) return (count[0] = 8 * p.n) > 0;
    if (i == 3) return (count[0] = to_end(&call->args[3].view) / 8 * 8) > 0;
    // src0: from the lowest to the end of the highest block the offsets name
    const tl_view_t *ov = &call->args[2].view;
    const uint8_t *o = ov->data + tl_view_offset(ov) * 4;
    int64_t lo = INT64_MAX, hi = 0;
    for (int64_t k = 0; k < 8 * p.n; k++) {
        uint32_t b;
        memcpy(&b, o + 4 * k, 4);
        lo = TL_MIN(lo, (int64_t)b);
        hi = TL_MAX(hi, (int64_t)b + 32);
    }
    first[0] = lo / 2;
    return (count[0] = (hi - lo) / 2) > 0;
}

static tl_status_t check_params(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    static const struct {
        int arg;
        const char *name;
        int64_t lo, hi;
    } range[] = {{4, "mask", 1, LANES},         {5, "h_repeat", 1, 255},
                 {6, "repeat_mode", 0, 1},      {7, "dst_blk_stride", 0, 65535},
                 {8, "v_r_offset", 128, 65534}, {9, "v_repeat", 1, 255}};
    for (size_t k = 0; k < TL_ARRAY_LEN(range); k++) {
        tl_scalar_t sc;
        tl_status_t st = tl_tileop_scalar(ctx, call, range[k].arg, &sc);
        if (st) return st;
        if (sc.is_float || sc.i < range[k].lo || sc.i > range[k].hi)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s must be an integer in %lld..%lld",
                                  range[k].name, (long long)range[k].lo, (long long)range[k].hi);
    }
    bl_params_t p;
    params_of(call, &p);
    if (p.n > 255)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "h_repeat * v_repeat is %lld; AscendC's implementation keeps it in a "
                              "uint8 (at most 255)",
                              (long long)p.n);
    if (p.voff % PER)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "v_r_offset %lld elements is not a multiple of 32 bytes",
                              (long long)p.voff);
    return TL_OK;
}

tl_status_t tl_tileop_bilinear_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv, *ov, *wv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) || (st = tl_tileop_view(ctx, call, 1, &sv)) ||
        (st = tl_tileop_view(ctx, call, 2, &ov)) || (st = tl_tileop_view(ctx, call, 3, &wv)))
        return st;
    if (dv->dtype != TL_F16 || sv->dtype != TL_F16 || wv->dtype != TL_F16 || ov->dtype != TL_U32)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "takes float16 dst, src0 and src1 and uint32 src0_offset (AscendC's "
                              "one dtype), got %s, %s, %s and %s",
                              tl_dtype_name(dv->dtype), tl_dtype_name(sv->dtype),
                              tl_dtype_name(wv->dtype), tl_dtype_name(ov->dtype));
    if ((st = check_params(ctx, call))) return st;
    bl_params_t p;
    params_of(call, &p);
    int64_t brcb = to_end(wv) / 8 * 8, first[2], count[2];
    if (weights(&p) > brcb)
        return tl_tileop_fail(
            ctx, call, TL_ERR_RUNTIME,
            "reads %lld weights of '%s' (%s), which has %lld from its origin (the "
            "library Brcbs floor(size / 8) * 8 = %lld of them)",
            (long long)weights(&p), wv->name,
            p.mode ? "8 per repeat: repeat_mode True" : "one per repeat", (long long)to_end(wv),
            (long long)brcb);
    tl_span_t o, w, s, d;
    if ((st = tl_tileop_span(ctx, call, ov, 8 * p.n, &o)) ||
        (st = tl_tileop_span(ctx, call, wv, weights(&p), &w)) ||
        (st = tl_tileop_span(ctx, call, sv, 0, &s)))
        return st;
    tl_tileop_bilinear_ranges(call, 0, true, first, count);
    if ((st = tl_tileop_span(ctx, call, dv, first[0] + count[0], &d))) return st;
    if ((st = tl_tileop_block_offsets(ctx, call, o.p, 8 * p.n, ov, sv, to_end(sv) * 2))) return st;
    float acc[LANES], x[LANES], wt[8];
    for (int64_t i = 0; i < p.v; i++) {
        for (int64_t r = 0; r < p.h; r++) {
            int64_t n = i * p.h + r;
            for (int j = 0; j < 8; j++) {
                uint32_t b;
                memcpy(&b, o.p + 4 * (8 * n + j), 4);
                tl_tileop_load_f32(TL_F16, s.p + b, PER, x + j * PER);
                tl_tileop_load_f32(TL_F16, w.p + 2 * (p.mode ? 8 * n + j : n), 1, &wt[j]);
            }
            for (int l = 0; l < LANES; l++) x[l] *= wt[l / PER];
            // each product rounded to float16 (a store and a load)
            uint8_t h16[2 * LANES];
            tl_tileop_store_f32(TL_F16, h16, LANES, x);
            tl_tileop_load_f32(TL_F16, h16, LANES, x);
            if (r == 0) {
                memcpy(acc, x, sizeof acc);
                continue;
            }
            for (int64_t l = 0; l < p.mask; l++) acc[l] = x[l] + acc[l];
            tl_tileop_store_f32(TL_F16, h16, LANES, acc);
            tl_tileop_load_f32(TL_F16, h16, LANES, acc);
        }
        for (int64_t l = 0; l < p.mask; l++) {
            float y = acc[l] + 0.0f;
            tl_tileop_store_f32(TL_F16, d.p + 2 * dst_at(&p, i, l), 1, &y);
        }
    }
    return TL_OK;
}
