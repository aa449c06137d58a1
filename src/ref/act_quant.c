// Golden for DeepSeek-V4 dynamic activation quantization, dsv4_ops.md §5.2/§5.3,
// per group (a row, or a block of `block` elements of a row), all in fp32:
//   a = max |x|;  a = max(a, amax_floor)
//   s = a / qmax                       (recip_scale: a * fp32(1 / qmax))
//   s = 2^ceil(log2 s)                 if round_scale, by the exponent bit formula
//   q = clamp(x / s, -qmax, qmax)      clamp before rounding: -128 never appears
//   y = round(q) -> int8, or the saturating cast to float8_e4m3fn
// Zero groups: with the floor (the golden's choice, recommended in §5.2)
// s = floor / qmax and y = 0; without it s = 0 and y = 0 (the kernel's 0/0 is
// undefined; here a zero x stays zero). A NaN x gives int8 0 (the NaN -> int
// rule of dtype.h) and an e4m3 NaN.
#include <math.h>

#include "ref/ref.h"

#include "base/dtype.h"

static const char *OP = "act_quant";

tl_act_quant_params_t tl_act_quant_defaults(int64_t m, int64_t n)
{
    tl_act_quant_params_t p = {.m = m, .n = n, .amax_floor = 1e-4f};
    return p;
}

float tl_act_quant_pow2_scale(float v)
{
    if (!(v > 0) || isinf(v)) return v;
    uint32_t bits = tl_f32_bits(v);
    int e = (int)((bits >> 23) & 0xFF) - 127 + ((bits & 0x7FFFFF) != 0 ? 1 : 0);
    return ldexpf(1.0f, e);
}

static float group_scale(const tl_act_quant_params_t *p, const float *x, int64_t len, float qmax)
{
    float a = 0.0f;
    for (int64_t j = 0; j < len; j++) {
        float v = fabsf(x[j]);
        if (isnan(v) || v > a) a = v;
        if (isnan(a)) break;
    }
    if (a < p->amax_floor) a = p->amax_floor;
    float s = p->recip_scale ? a * (1.0f / qmax) : a / qmax;
    return p->round_scale ? tl_act_quant_pow2_scale(s) : s;
}

tl_status_t tl_act_quant_ref(const tl_act_quant_params_t *p, const float *x, void *y, float *scale,
                             tl_diag_t *d)
{
    if (!p) return tl_ref_error(d, OP, "no parameters");
    if (p->block < 0) return tl_ref_error(d, OP, "block must be >= 0 (0 = one scale per row)");
    if (p->target != TL_ACT_QUANT_INT8 && p->target != TL_ACT_QUANT_E4M3)
        return tl_ref_error(d, OP, "invalid target");
    bool int8 = p->target == TL_ACT_QUANT_INT8;
    if ((unsigned)p->round >= TL_CAST_MODE_COUNT || (int8 && p->round == TL_CAST_ODD))
        return tl_ref_error(d, OP, "invalid rounding mode");
    if (!(p->amax_floor >= 0) || isinf(p->amax_floor))
        return tl_ref_error(d, OP, "amax_floor must be finite and >= 0");
    const int64_t block = p->block ? p->block : p->n;
    const int64_t nblocks = block ? (p->n + block - 1) / block : 0;
    size_t count;
    tl_status_t st;
    int64_t xdims[] = {p->m, p->n}, sdims[] = {p->m, nblocks};
    if ((st = tl_ref_tensor(d, OP, "x", x, false, 2, xdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "y", y, false, 2, xdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "scale", scale, false, 2, sdims, &count)))
        return st;

    const float qmax = int8 ? 127.0f : 448.0f;
    const tl_round_t mode = p->round == TL_CAST_NONE ? TL_CAST_RINT : p->round;
    for (int64_t i = 0; i < p->m; i++) {
        for (int64_t bj = 0; bj < nblocks; bj++) {
            int64_t j0 = bj * block, len = TL_MIN(block, p->n - j0);
            const float *xg = x + (size_t)(i * p->n + j0);
            float s = group_scale(p, xg, len, qmax);
            scale[i * nblocks + bj] = s;
            for (int64_t j = 0; j < len; j++) {
                float q = xg[j] == 0 ? xg[j] : xg[j] / s;
                if (q > qmax) q = qmax;
                if (q < -qmax) q = -qmax;
                size_t o = (size_t)(i * p->n + j0 + j);
                if (int8) {
                    double r = isnan(q) ? 0.0 : tl_round_integral((double)q, mode);
                    ((int8_t *)y)[o] = (int8_t)r;
                } else {
                    ((uint8_t *)y)[o] = tl_f32_to_f8e4m3(q, mode);
                }
            }
        }
    }
    return TL_OK;
}
