// bfloat16 x bfloat16 -> float32 GEMM with AVX512_BF16 vdpbf16ps (see
// tileop_gemm_x86.h), giving the bits of the float32 path: for every C element
// the products added to C (or 0) in increasing k, each addition rounded.
//
// vdpbf16ps adds two products per 32-bit lane to the accumulator: the odd
// (high) element's product first, then the even one's, each addition rounded
// to nearest even (Intel's pseudo-code; measured on AMD Zen 5: 0 differences
// in 2 M random cases from odd-first, 3.5% from even-first). So k goes into
// the high half of a pair and k + 1 into the low half, in A and in B; an odd
// K gets a last pair whose low product is -0 (A -0, B +0), which leaves
// every accumulator as it is. Products of bfloat16 values are exact in
// float32 unless they under- or overflow.
//
// The instruction also treats subnormal inputs and results as zero (DAZ,
// FTZ), where the float32 path keeps them. The operands are scanned for
// their exponent range first, and the path is used only when nothing can be
// subnormal, infinite or NaN: no such inputs, and every value formed (a
// product, a partial sum, C) a nonzero multiple of 2^-126 or zero - the
// products of bfloat16 values with biased exponents ea, eb are multiples of
// 2^(ea - 134) * 2^(eb - 134), C's values of 2^(ec - 150), and a rounded sum
// of multiples of a power of two at least 2^-126 is one too. Products stay
// below 2^128 when ea + eb <= 380 (no overflow before the addition, as in
// the float32 path's exact products); sums that overflow do so the same way
// in both paths.
#include "exec/tileop_gemm_x86.h"

#include "exec/tileop_gemm_scratch.h"

#if TL_X86_64
#include <immintrin.h>

#define BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

// Exponent ranges: the smallest biased exponent of a nonzero value (255 when
// none), the largest of any value, and whether a nonzero value has exponent
// field 0 (subnormal).
typedef struct {
    int min, max;
    bool sub;
} erange_t;

static BF16 erange_t erange_of(__m512i emin, __m512i emax, __mmask32 sub)
{
    int lo = 255, hi = 0;
    uint16_t a[32], b[32];
    _mm512_storeu_si512(a, emin);
    _mm512_storeu_si512(b, emax);
    for (int i = 0; i < 32; i++) lo = TL_MIN(lo, a[i]), hi = TL_MAX(hi, b[i]);
    return (erange_t){lo, hi, sub != 0};
}

// Folds 32 bfloat16 values x (lanes m) into the running ranges.
static BF16 inline void scan16(__m512i x, __mmask32 m, __m512i *emin, __m512i *emax, __mmask32 *sub)
{
    const __m512i mag = _mm512_set1_epi16(0x7fff);
    __m512i e = _mm512_srli_epi16(_mm512_and_si512(x, mag), 7);
    __mmask32 nz = _mm512_mask_test_epi16_mask(m, x, mag);
    *emin = _mm512_mask_min_epu16(*emin, nz, *emin, e);
    *emax = _mm512_mask_max_epu16(*emax, m, *emax, e);
    *sub |= _mm512_mask_cmpeq_epi16_mask(nz, e, _mm512_setzero_si512());
}

// A [M,K] rows lda apart as pairs: Ap[m * KP + p] = a[m, 2p] << 16 | a[m, 2p + 1]
// (a[m, K] = -0 for odd K); returns A's exponent range.
static BF16 erange_t pack_a(int64_t M, int64_t K, const uint16_t *A, int64_t lda, uint32_t *Ap)
{
    int64_t KP = (K + 1) / 2;
    __m512i emin = _mm512_set1_epi16(255), emax = _mm512_setzero_si512();
    __mmask32 sub = 0;
    for (int64_t m = 0; m < M; m++)
        for (int64_t k = 0; k < K; k += 32) {
            int64_t n = TL_MIN(32, K - k);
            __mmask32 km = n >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << n) - 1);
            __m512i x = _mm512_maskz_loadu_epi16(km, A + m * lda + k);
            scan16(x, km, &emin, &emax, &sub);
            if (n < 32 && n % 2) // the pad: -0
                x = _mm512_mask_mov_epi16(x, (__mmask32)1 << n, _mm512_set1_epi16((short)0x8000));
            int64_t np = (n + 1) / 2;
            __mmask16 pm = (__mmask16)(np >= 16 ? 0xffff : (1u << np) - 1);
            _mm512_mask_storeu_epi32(Ap + m * KP + k / 2, pm, _mm512_ror_epi32(x, 16));
        }
    return erange_of(emin, emax, sub);
}

// B [K,N] rows ldb apart in 16-column panels of pairs:
// Bp[(p * KP + q) * 16 + l] = b[2q, 16p + l] << 16 | b[2q + 1, 16p + l]
// (zero past N and K); returns B's exponent range.
static BF16 erange_t pack_b(int64_t N, int64_t K, const uint16_t *B, int64_t ldb, uint32_t *Bp)
{
    int64_t KP = (K + 1) / 2, P = (N + 15) / 16;
    __m512i emin = _mm512_set1_epi16(255), emax = _mm512_setzero_si512();
    __mmask32 sub = 0;
    for (int64_t q = 0; q < KP; q++)
        for (int64_t p = 0; p < P; p++) {
            int64_t n = TL_MIN(16, N - 16 * p);
            __mmask16 cm = (__mmask16)(n >= 16 ? 0xffff : (1u << n) - 1);
            __m256i hi = _mm256_maskz_loadu_epi16(cm, B + 2 * q * ldb + 16 * p);
            __m256i lo = 2 * q + 1 < K
                             ? _mm256_maskz_loadu_epi16(cm, B + (2 * q + 1) * ldb + 16 * p)
                             : _mm256_setzero_si256();
            __mmask32 both = (__mmask32)cm | (2 * q + 1 < K ? (__mmask32)cm << 16 : 0);
            scan16(_mm512_inserti64x4(_mm512_castsi256_si512(hi), lo, 1), both, &emin, &emax, &sub);
            __m512i w = _mm512_or_si512(_mm512_slli_epi32(_mm512_cvtepu16_epi32(hi), 16),
                                        _mm512_cvtepu16_epi32(lo));
            _mm512_storeu_si512(Bp + (p * KP + q) * 16, w);
        }
    return erange_of(emin, emax, sub);
}

// C's float32 exponent range (M x N, rows ldc apart).
static BF16 erange_t scan_c(int64_t M, int64_t N, const float *C, int64_t ldc)
{
    const __m512i mag = _mm512_set1_epi32(0x7fffffff);
    __m512i emin = _mm512_set1_epi32(255), emax = _mm512_setzero_si512();
    __mmask16 sub = 0;
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n += 16) {
            __mmask16 k = (__mmask16)(N - n >= 16 ? 0xffff : (1u << (N - n)) - 1);
            __m512i x = _mm512_maskz_loadu_epi32(k, C + m * ldc + n);
            __m512i e = _mm512_srli_epi32(_mm512_and_si512(x, mag), 23);
            __mmask16 nz = _mm512_mask_test_epi32_mask(k, x, mag);
            emin = _mm512_mask_min_epu32(emin, nz, emin, e);
            emax = _mm512_mask_max_epu32(emax, k, emax, e);
            sub |= _mm512_mask_cmpeq_epi32_mask(nz, e, _mm512_setzero_si512());
        }
    return (erange_t){(int)_mm512_reduce_min_epu32(emin), (int)_mm512_reduce_max_epu32(emax),
                      sub != 0};
}

// See the top: true when vdpbf16ps gives the float32 path's bits.
static bool exact(erange_t a, erange_t b, const erange_t *c)
{
    if (a.sub || b.sub || a.max == 255 || b.max == 255) return false;
    if (a.min < 255 && b.min < 255 && (a.min + b.min < 142 || a.max + b.max > 380)) return false;
    return !c || (!c->sub && c->max < 255 && (c->min == 255 || c->min >= 24));
}

#define BF16_KERNEL(MR, NR)                                                                        \
    static BF16 void bk_##MR##_##NR(int64_t KP, const uint32_t *Ap, int64_t lda,                   \
                                    const uint32_t *Bp, int64_t pstride, float *C, int64_t ldc,    \
                                    bool init, __mmask16 last)                                     \
    {                                                                                              \
        __m512 acc[MR][NR];                                                                        \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                       \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++)                                   \
        {                                                                                          \
            __mmask16 m = j == NR - 1 ? last : 0xffff;                                             \
            acc[i][j] =                                                                            \
                init ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(m, C + i * ldc + 16 * j);       \
        }                                                                                          \
        for (int64_t q = 0; q < KP; q++) {                                                         \
            __m512bh b[NR];                                                                        \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) b[j] =                            \
                (__m512bh)_mm512_loadu_si512(Bp + j * pstride + q * 16);                           \
            _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                   \
            {                                                                                      \
                __m512bh a = (__m512bh)_mm512_set1_epi32((int)Ap[i * lda + q]);                    \
                _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) acc[i][j] =                   \
                    _mm512_dpbf16_ps(acc[i][j], a, b[j]);                                          \
            }                                                                                      \
        }                                                                                          \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR;                                            \
                                     i++) _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++)     \
            _mm512_mask_storeu_ps(C + i * ldc + 16 * j, j == NR - 1 ? last : 0xffff, acc[i][j]);   \
    }

#define BF16_ROW(MR) BF16_KERNEL(MR, 1) BF16_KERNEL(MR, 2) BF16_KERNEL(MR, 3) BF16_KERNEL(MR, 4)
BF16_ROW(1)
BF16_ROW(2)
BF16_ROW(3)
BF16_ROW(4)
BF16_ROW(5)
BF16_ROW(6)

typedef void (*bk_fn)(int64_t, const uint32_t *, int64_t, const uint32_t *, int64_t, float *,
                      int64_t, bool, __mmask16);
#define BF16_FNS(MR)                                                                               \
    {                                                                                              \
        bk_##MR##_1, bk_##MR##_2, bk_##MR##_3, bk_##MR##_4                                         \
    }
static const bk_fn bk[6][4] = {BF16_FNS(1), BF16_FNS(2), BF16_FNS(3),
                               BF16_FNS(4), BF16_FNS(5), BF16_FNS(6)};

bool tl_gemm_x86_bf16(int64_t M, int64_t N, int64_t K, const uint16_t *A, int64_t lda,
                      const uint16_t *B, int64_t ldb, float *C, int64_t ldc, bool init)
{
    if (tl_gemm_x86_isa() < TL_GEMM_AVX512_BF16 || M <= 0 || N <= 0 || K <= 0) return false;
    int64_t KP = (K + 1) / 2, P = (N + 15) / 16;
    size_t bsize = TL_ALIGN_UP((size_t)(P * KP * 16) * 4, 64);
    uint32_t *Bp = tl_gemm_scratch(TL_GEMM_SCRATCH_PACK, bsize + (size_t)(M * KP) * 4);
    if (!Bp) return false;
    uint32_t *Ap = (uint32_t *)((uint8_t *)Bp + bsize);
    erange_t ea = pack_a(M, K, A, lda, Ap), eb = pack_b(N, K, B, ldb, Bp), ec;
    if (!init) ec = scan_c(M, N, C, ldc);
    if (!exact(ea, eb, init ? NULL : &ec)) return false;
    for (int64_t p0 = 0; p0 < P; p0 += 4) {
        int nr = (int)TL_MIN(4, P - p0);
        int64_t ncols = TL_MIN(16 * (p0 + nr), N) - 16 * (p0 + nr - 1);
        __mmask16 last = (__mmask16)(ncols >= 16 ? 0xffff : (1u << ncols) - 1);
        for (int64_t m0 = 0; m0 < M; m0 += 6) {
            int mr = (int)TL_MIN(6, M - m0);
            bk[mr - 1][nr - 1](KP, Ap + m0 * KP, KP, Bp + p0 * KP * 16, KP * 16,
                               C + m0 * ldc + 16 * p0, ldc, init, last);
        }
    }
    return true;
}

#else

bool tl_gemm_x86_bf16(int64_t M, int64_t N, int64_t K, const uint16_t *A, int64_t lda,
                      const uint16_t *B, int64_t ldb, float *C, int64_t ldc, bool init)
{
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)C, (void)ldc;
    (void)init;
    return false;
}

#endif
