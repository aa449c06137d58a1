// Golden for DeepSeek-V4 int8 GEMM with a per-row activation scale and a
// per-output-channel weight scale, dsv4_ops.md §4.2:
//   acc[i][j] = sum_k a[i][k] * b[j][k]            exact (int64)
//   y[i][j]   = (fp32(acc) * sa[i]) * sb[j]         fp32(acc) rounds to nearest even
//   out       = cast(y)                             fp32 -> bf16/fp16 with RNE
// The alternative order fp32(acc) * (sa[i] * sb[j]) is the torch golden's. So a
// bf16/fp16 output is rounded twice, first to fp32 and then to the output type,
// exactly like the kernel's vector epilogue.
#include "ref/ref.h"

#include "base/dtype.h"

static const char *OP = "int8_gemm";

tl_status_t tl_int8_gemm_ref(const tl_int8_gemm_params_t *p, const int8_t *a, const int8_t *b,
                             const float *scale_a, const float *scale_b, void *out, tl_diag_t *d)
{
    if (!p) return tl_ref_error(d, OP, "no parameters");
    size_t count;
    tl_status_t st;
    int64_t adims[] = {p->m, p->k}, bdims[] = {p->n, p->k}, odims[] = {p->m, p->n};
    if ((st = tl_ref_tensor(d, OP, "a", a, false, 2, adims, &count)) ||
        (st = tl_ref_tensor(d, OP, "b", b, false, 2, bdims, &count)) ||
        (st = tl_ref_tensor(d, OP, "scale_a", scale_a, false, 1, &p->m, &count)) ||
        (st = tl_ref_tensor(d, OP, "scale_b", scale_b, false, 1, &p->n, &count)) ||
        (st = tl_ref_tensor(d, OP, "out", out, false, 2, odims, &count)))
        return st;
    if (p->order != TL_INT8_GEMM_SCALE_SEQ && p->order != TL_INT8_GEMM_SCALE_OUTER)
        return tl_ref_error(d, OP, "invalid scale order");
    if (!tl_ref_prec_valid(p->out_prec)) return tl_ref_error(d, OP, "invalid output precision");
    // |acc| <= k * 2^14 must stay exact in int64 and in the double it is converted from.
    if (p->k > ((int64_t)1 << 38))
        return tl_ref_error(d, OP, "k = %lld is too large", (long long)p->k);

    for (int64_t i = 0; i < p->m; i++) {
        const int8_t *ar = a + (size_t)(i * p->k);
        for (int64_t j = 0; j < p->n; j++) {
            const int8_t *br = b + (size_t)(j * p->k);
            // exact in int32 over runs of 2^16 products (each at most 2^14), which
            // compilers vectorise (prefill sizes: 2.7e11 products)
            int64_t acc = 0;
            for (int64_t k0 = 0; k0 < p->k; k0 += 65536) {
                int64_t k1 = p->k - k0 < 65536 ? p->k : k0 + 65536;
                int32_t part = 0;
                for (int64_t kk = k0; kk < k1; kk++) part += (int32_t)ar[kk] * (int32_t)br[kk];
                acc += part;
            }
            float f = tl_f64_to_f32((double)acc, TL_CAST_RINT);
            float y;
            if (p->order == TL_INT8_GEMM_SCALE_SEQ) {
                float t = f * scale_a[i];
                y = t * scale_b[j];
            } else {
                float s = scale_a[i] * scale_b[j];
                y = f * s;
            }
            size_t o = (size_t)(i * p->n + j);
            switch (p->out_prec) {
            case TL_REF_BF16: ((uint16_t *)out)[o] = tl_f32_to_bf16(y, TL_CAST_RINT); break;
            case TL_REF_F16: ((uint16_t *)out)[o] = tl_f32_to_f16(y, TL_CAST_RINT); break;
            default: ((float *)out)[o] = y; break;
            }
        }
    }
    return TL_OK;
}
