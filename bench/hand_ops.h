// Hand-written AVX-512 C of the two memory-bound DeepSeek-V4 operators, for
// bench_bandwidth: what the machine gives code written for it by hand, next
// to what tilec gives the TileLang-Ascend kernels. They use the same pool
// threads as the kernel and memcpy.
//
// act_quant: the kernel's results bit for bit (bench_bandwidth checks it):
//   amax = max |x| over the bfloat16 row (on the 16-bit patterns: |x| orders
//   as the bits without the sign, NaN above infinity), floored at 1e-4;
//   s = amax / 127; y = round_half_even(clamp(x / s, -127, 127)) (NaN -> 0).
//   Two passes over each 8 KB row, the second from L1; int8 rows streamed.
// hc_split_sinkhorn: 16 tokens a vector (a lane per token, a register per
//   matrix entry), all 20 Sinkhorn iterations in registers, the exps through
//   tilec's vector exp (tl_fexp_avx512). Float32 throughout, with a
//   reciprocal per row or column sum as the kernel: within the golden's
//   tolerance, not the kernel's bits.
#ifndef TL_BENCH_HAND_OPS_H
#define TL_BENCH_HAND_OPS_H

#include <stdint.h>
#include <string.h>

#include "base/common.h"
#include "cpu/fexp_avx512.h"

#if TL_X86_64 && !defined(__clang__)
#include <immintrin.h>
#define HAND_OPS 1
#define HAND     __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma")))

static int hand_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

typedef struct {
    const uint16_t *x; // bfloat16 [m, n]
    int8_t *y;         // [m, n]
    float *s;          // [m]
    int64_t m, n, parts;
} hand_aq_t;

HAND static void hand_aq_part(void *arg, int64_t part, int thread)
{
    (void)thread;
    const hand_aq_t *a = arg;
    int64_t r0 = a->m * part / a->parts, r1 = a->m * (part + 1) / a->parts, n = a->n;
    const __m512 lo = _mm512_set1_ps(-127.0f), hi = _mm512_set1_ps(127.0f);
    for (int64_t r = r0; r < r1; r++) {
        const uint16_t *x = a->x + r * n;
        int8_t *y = a->y + r * n;
        if (r + 1 < r1) // the next row into L2 while this one is worked on
            for (int64_t j = 0; j < n * 2; j += 64)
                _mm_prefetch((const char *)(x + n) + j, _MM_HINT_T1);
        __m512i mx = _mm512_setzero_si512();
        int64_t j = 0;
        for (; j + 32 <= n; j += 32)
            mx = _mm512_max_epu16(
                mx, _mm512_and_si512(_mm512_loadu_si512(x + j), _mm512_set1_epi16(0x7fff)));
        uint32_t top = (uint32_t)_mm512_reduce_max_epu32(_mm512_max_epu32(
            _mm512_and_si512(mx, _mm512_set1_epi32(0xffff)), _mm512_srli_epi32(mx, 16)));
        for (; j < n; j++) top = TL_MAX(top, (uint32_t)(x[j] & 0x7fff));
        uint32_t bits = top << 16;
        float amax;
        memcpy(&amax, &bits, 4);
        if (!(amax > 1e-4f) && amax == amax) amax = 1e-4f;
        const float s = amax / 127.0f;
        a->s[r] = s;
        const __m512 vs = _mm512_set1_ps(s);
        int stream = ((uintptr_t)y & 15) == 0;
        for (j = 0; j + 16 <= n; j += 16) {
            __m512i w = _mm512_slli_epi32(
                _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(x + j))), 16);
            __m512 q = _mm512_div_ps(_mm512_castsi512_ps(w), vs);
            q = _mm512_min_ps(hi, _mm512_max_ps(lo, q)); // NaN stays NaN: -> 0x80000000 -> 0
            __m128i b = _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(q));
            if (stream)
                _mm_stream_si128((__m128i *)(y + j), b);
            else
                _mm_storeu_si128((__m128i *)(y + j), b);
        }
        for (; j < n; j++) {
            uint32_t u = (uint32_t)x[j] << 16;
            float v;
            memcpy(&v, &u, 4);
            v /= s;
            y[j] = v != v ? 0
                          : (int8_t)__builtin_rintf(v < -127.0f  ? -127.0f
                                                    : v > 127.0f ? 127.0f
                                                                 : v);
        }
    }
    _mm_sfence();
}

typedef struct {
    const float *mix, *scale, *base; // [n, 24], [3], [24]
    float *pre, *post, *comb;        // [n, 4], [n, 4], [n, 4, 4]
    int64_t n, parts;
    int iters;
    float eps;
} hand_hc_t;

HAND static __m512 hand_rcp(__m512 x)
{
    return _mm512_div_ps(_mm512_set1_ps(1.0f), x);
}

// r[i][j] <-> r[j][i] for 16 x 16 floats (4 rounds of in-register shuffles,
// as tileop_gemm_x86.c's transpose16 on integers).
HAND static void hand_transpose16(__m512 r[16])
{
    __m512 t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4)
        for (int j = 0; j < 2; j++) {
            __m512d a = _mm512_castps_pd(t[i + j]), b = _mm512_castps_pd(t[i + j + 2]);
            r[i + 2 * j] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
            r[i + 2 * j + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
        }
    for (int i = 0; i < 16; i += 8)
        for (int j = 0; j < 4; j++) {
            t[i + j] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0x88);
            t[i + j + 4] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0xdd);
        }
    for (int j = 0; j < 8; j++) {
        r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
        r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xdd);
    }
}

// Tokens t0 .. t0 + 15, a lane each: e[c] holds entry c of their mixes rows.
HAND static void hand_hc_16(const hand_hc_t *h, int64_t t0)
{
    float e[24][16] __attribute__((aligned(64)));
    const __m512 eps = _mm512_set1_ps(h->eps);
    __m512 a[16], b[16];
    for (int t = 0; t < 16; t++) {
        a[t] = _mm512_loadu_ps(h->mix + (t0 + t) * 24);
        b[t] = _mm512_castps256_ps512(_mm256_loadu_ps(h->mix + (t0 + t) * 24 + 16));
    }
    hand_transpose16(a);
    hand_transpose16(b);
    for (int c = 0; c < 24; c++) {
        float k = h->scale[c < 4 ? 0 : c < 8 ? 1 : 2];
        _mm512_store_ps(e[c], _mm512_fmadd_ps(c < 16 ? a[c] : b[c - 16], _mm512_set1_ps(k),
                                              _mm512_set1_ps(h->base[c])));
    }
    tl_fexp_avx512(TL_OP_SIGMOID, e[0], e[0], 8 * 16);
    __m512 m[4][4];
    for (int r = 0; r < 4; r++) { // row softmax: subtract the row max, then exp
        __m512 mx = _mm512_load_ps(e[8 + r * 4]);
        for (int c = 1; c < 4; c++) mx = _mm512_max_ps(mx, _mm512_load_ps(e[8 + r * 4 + c]));
        for (int c = 0; c < 4; c++)
            _mm512_store_ps(e[8 + r * 4 + c], _mm512_sub_ps(_mm512_load_ps(e[8 + r * 4 + c]), mx));
    }
    tl_fexp_avx512(TL_OP_EXP, e[8], e[8], 16 * 16);
    for (int r = 0; r < 4; r++) {
        __m512 s = _mm512_load_ps(e[8 + r * 4]);
        for (int c = 1; c < 4; c++) s = _mm512_add_ps(s, _mm512_load_ps(e[8 + r * 4 + c]));
        __m512 q = hand_rcp(s);
        for (int c = 0; c < 4; c++)
            m[r][c] = _mm512_fmadd_ps(_mm512_load_ps(e[8 + r * 4 + c]), q, eps);
    }
    for (int it = 0; it < h->iters; it++) {
        if (it) // row step (the first is the softmax above)
            for (int r = 0; r < 4; r++) {
                __m512 q = hand_rcp(_mm512_add_ps(
                    _mm512_add_ps(_mm512_add_ps(m[r][0], m[r][1]), _mm512_add_ps(m[r][2], m[r][3])),
                    eps));
                for (int c = 0; c < 4; c++) m[r][c] = _mm512_mul_ps(m[r][c], q);
            }
        for (int c = 0; c < 4; c++) {
            __m512 q = hand_rcp(_mm512_add_ps(
                _mm512_add_ps(_mm512_add_ps(m[0][c], m[1][c]), _mm512_add_ps(m[2][c], m[3][c])),
                eps));
            for (int r = 0; r < 4; r++) m[r][c] = _mm512_mul_ps(m[r][c], q);
        }
    }
    __m512 o[16];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) o[r * 4 + c] = m[r][c];
    hand_transpose16(o);
    for (int t = 0; t < 16; t++) _mm512_storeu_ps(h->comb + (t0 + t) * 16, o[t]);
    for (int c = 0; c < 4; c++) {
        o[c] = _mm512_add_ps(_mm512_load_ps(e[c]), eps);
        o[4 + c] = _mm512_mul_ps(_mm512_load_ps(e[4 + c]), _mm512_set1_ps(2.0f));
    }
    for (int i = 8; i < 16; i++) o[i] = _mm512_setzero_ps();
    hand_transpose16(o);
    for (int t = 0; t < 16; t++) {
        _mm_storeu_ps(h->pre + (t0 + t) * 4, _mm512_castps512_ps128(o[t]));
        _mm_storeu_ps(h->post + (t0 + t) * 4, _mm512_extractf32x4_ps(o[t], 1));
    }
}

HAND static void hand_hc_part(void *arg, int64_t part, int thread)
{
    (void)thread;
    const hand_hc_t *h = arg;
    int64_t groups = h->n / 16;
    for (int64_t g = groups * part / h->parts; g < groups * (part + 1) / h->parts; g++)
        hand_hc_16(h, g * 16);
}

#else
#define HAND_OPS 0
#endif

#endif
