// AVX-512 tl_expf and the ops built on it (see fexp_avx512.h): each step is
// the scalar code's operation (base/fexp.c) on 8 doubles, no contraction.
#include "cpu/fexp_avx512.h"

#include "base/fexp.h"

#include "base/common.h"

#if TL_X86_64 && !defined(__clang__)
#include <immintrin.h>

#define FAST __attribute__((target("avx512f,avx512dq,fma"), optimize("O3")))

// e^x of 8 floats, computed in double as tl_expf.
static inline FAST __m256 exp8(__m256 x)
{
    const __m512d xd = _mm512_min_pd(_mm512_max_pd(_mm512_cvtps_pd(x), _mm512_set1_pd(TL_FEXP_LO)),
                                     _mm512_set1_pd(TL_FEXP_HI));
    const __m512d t = _mm512_add_pd(_mm512_mul_pd(xd, _mm512_set1_pd(TL_FEXP_INV_L)),
                                    _mm512_set1_pd(TL_FEXP_SHIFT));
    const __m512d kd = _mm512_sub_pd(t, _mm512_set1_pd(TL_FEXP_SHIFT));
    __m512d r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(TL_FEXP_L1), xd);
    r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(TL_FEXP_L2), r);
    __m512d p = _mm512_set1_pd(tl_fexp_poly[0]);
    for (int i = 1; i < 7; i++) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(tl_fexp_poly[i]));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0));
    p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0));
    const __m512i k =
        _mm512_sub_epi64(_mm512_castpd_si512(t), _mm512_set1_epi64(0x4338000000000000));
    const __m512d tab = _mm512_permutexvar_pd(k, _mm512_loadu_pd(tl_fexp_tab));
    const __m512i s =
        _mm512_add_epi64(_mm512_castpd_si512(tab), _mm512_slli_epi64(_mm512_srai_epi64(k, 3), 52));
    return _mm512_cvtpd_ps(_mm512_mul_pd(p, _mm512_castsi512_pd(s)));
}

// e^x of 16 floats; NaN lanes give x + x as tl_expf does.
static inline FAST __m512 exp16(__m512 x)
{
    const __m256 lo = exp8(_mm512_castps512_ps256(x));
    const __m256 hi = exp8(_mm512_extractf32x8_ps(x, 1));
    const __m512 e = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
    return _mm512_mask_add_ps(e, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), x, x);
}

static inline FAST __m512 op16(tl_opcode_t op, __m512 x)
{
    if (op == TL_OP_EXP) return exp16(x);
    const __m512 neg = _mm512_castsi512_ps(
        _mm512_xor_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u)));
    const __m512 den = _mm512_add_ps(_mm512_set1_ps(1.0f), exp16(neg));
    return _mm512_div_ps(op == TL_OP_SIGMOID ? _mm512_set1_ps(1.0f) : x, den);
}

FAST void tl_fexp_avx512(tl_opcode_t op, float *d, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(d + i, op16(op, _mm512_loadu_ps(a + i)));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1);
        _mm512_mask_storeu_ps(d + i, m, op16(op, _mm512_maskz_loadu_ps(m, a + i)));
    }
}

#else

void tl_fexp_avx512(tl_opcode_t op, float *d, const float *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        float x = a[i];
        d[i] =
            op == TL_OP_EXP ? tl_expf(x) : (op == TL_OP_SIGMOID ? 1.0f : x) / (1.0f + tl_expf(-x));
    }
}

#endif
