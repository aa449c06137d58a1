// x86 GEMM micro-kernels (see tileop_gemm_x86.h).
//
// int8, AVX-512 VNNI: B is packed into 16-column panels, each k-group of 4
// bytes of a column in one 32-bit lane, offset to unsigned (b + 128); rows
// of A are broadcast 4 bytes at a time as the signed operand of vpdpbusd.
// Each sum then carries 128 * sum_k a[m, k], subtracted at the end. The
// register block is up to 6 rows x 4 panels (24 accumulators). With B as
// [N,K] and M <= 16 (decode, small batches) B is read in place instead: dot
// products along k with A as the unsigned operand (gemm_i8_dot).
// int8, AVX2: the same blocking on int16 pairs with vpmaddwd (exact).
// float32, AVX-512: broadcast A[m, k], 16 columns of B per register, up to
// 6 x 4 blocks; one multiply and one add per product (or one FMA when the
// inputs are 16-bit or narrower, whose products are exact in float32).
#include "exec/tileop_gemm_x86.h"

#include <stdlib.h>
#include <string.h>

#include "exec/tileop_gemm_scratch.h"

static void transpose_portable(const uint32_t *src, int64_t rows, int64_t cols, uint32_t *dst)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) dst[c * rows + r] = src[r * cols + c];
}

#if TL_X86_64
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx512dq,fma,avx2")))
#define AVX2   __attribute__((target("avx2,fma")))
#define INLINE inline __attribute__((always_inline))
// GCC 12's partial redundancy elimination makes the dot-product kernels keep
// their accumulators on the stack; without it they stay in registers.
#if defined(__clang__)
#define NO_PRE
#else
#define NO_PRE __attribute__((optimize("no-tree-pre")))
#endif

static int isa_cached = -1;

static tl_gemm_isa_t detect(void)
{
    __builtin_cpu_init();
    tl_gemm_isa_t best = TL_GEMM_PORTABLE;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = TL_GEMM_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vnni"))
        best = TL_GEMM_AVX512;
    if (best == TL_GEMM_AVX512 && __builtin_cpu_supports("avx512bf16")) best = TL_GEMM_AVX512_BF16;
    const char *e = getenv("TILEC_GEMM_ISA");
    if (e && !strcmp(e, "portable")) best = TL_GEMM_PORTABLE;
    if (e && !strcmp(e, "avx2") && best > TL_GEMM_AVX2) best = TL_GEMM_AVX2;
    if (e && !strcmp(e, "avx512") && best > TL_GEMM_AVX512) best = TL_GEMM_AVX512;
    return best;
}

tl_gemm_isa_t tl_gemm_x86_isa(void)
{
    int v = __atomic_load_n(&isa_cached, __ATOMIC_RELAXED);
    if (v < 0) {
        v = (int)detect();
        __atomic_store_n(&isa_cached, v, __ATOMIC_RELAXED);
    }
    return (tl_gemm_isa_t)v;
}

tl_gemm_isa_t tl_gemm_x86_set_isa(tl_gemm_isa_t isa)
{
    tl_gemm_isa_t best = detect();
    if (isa > best) isa = best;
    __atomic_store_n(&isa_cached, (int)isa, __ATOMIC_RELAXED);
    return isa;
}

// --- int8, AVX-512 VNNI ------------------------------------------------------------------

// 16 x 16 transpose of 32-bit elements.
static AVX512 INLINE void transpose16(__m512i r[16])
{
    __m512i t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
        r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
        r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
        r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int h = 0; h < 16; h += 8)
        for (int i = 0; i < 4; i++) {
            t[h + i] = _mm512_shuffle_i32x4(r[h + i], r[h + i + 4], 0x88);
            t[h + i + 4] = _mm512_shuffle_i32x4(r[h + i], r[h + i + 4], 0xdd);
        }
    for (int i = 0; i < 8; i++) {
        r[i] = _mm512_shuffle_i32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_i32x4(t[i], t[i + 8], 0xdd);
    }
}

// pack_b_i8 for B as [K,N]: 4 rows of 64 columns at a time, their bytes
// interleaved (8-bit, then 16-bit unpacks: 4-byte k-groups of 4 columns per
// 128-bit lane), then the lanes regrouped so that each register holds one
// 16-column panel.
static AVX512 void pack_b_i8_kn(int64_t N, int64_t K, const int8_t *B, int64_t ldb, uint8_t *out,
                                int64_t G)
{
    int64_t P = (N + 15) / 16;
    const __m512i x80 = _mm512_set1_epi8((char)0x80);
    for (int64_t g = 0; g < G; g++)
        for (int64_t c = 0; c < N; c += 64) {
            int64_t nc = TL_MIN(64, N - c);
            __mmask64 cm = nc >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << nc) - 1);
            __m512i r[4];
            for (int i = 0; i < 4; i++) {
                int64_t k = 4 * g + i;
                __mmask64 m = k < K ? cm : 0; // padding stays 0 (no offset)
                r[i] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, B + k * ldb + c),
                                        _mm512_maskz_mov_epi8(m, x80));
            }
            __m512i lo01 = _mm512_unpacklo_epi8(r[0], r[1]),
                    hi01 = _mm512_unpackhi_epi8(r[0], r[1]);
            __m512i lo23 = _mm512_unpacklo_epi8(r[2], r[3]),
                    hi23 = _mm512_unpackhi_epi8(r[2], r[3]);
            // u[q], lane L: the k-groups of columns 16L + 4q .. 16L + 4q + 3
            __m512i u0 = _mm512_unpacklo_epi16(lo01, lo23), u1 = _mm512_unpackhi_epi16(lo01, lo23);
            __m512i u2 = _mm512_unpacklo_epi16(hi01, hi23), u3 = _mm512_unpackhi_epi16(hi01, hi23);
            __m512i v0 = _mm512_shuffle_i32x4(u0, u1, 0x44),
                    v1 = _mm512_shuffle_i32x4(u2, u3, 0x44);
            __m512i v2 = _mm512_shuffle_i32x4(u0, u1, 0xee),
                    v3 = _mm512_shuffle_i32x4(u2, u3, 0xee);
            __m512i w[4] = {_mm512_shuffle_i32x4(v0, v1, 0x88), _mm512_shuffle_i32x4(v0, v1, 0xdd),
                            _mm512_shuffle_i32x4(v2, v3, 0x88), _mm512_shuffle_i32x4(v2, v3, 0xdd)};
            for (int l = 0; l < 4; l++) {
                int64_t p = c / 16 + l;
                if (p < P) _mm512_storeu_si512(out + (p * G + g) * 64, w[l]);
            }
        }
}

// Packs B (int8, [N,K] rows ldb apart when tb, else [K,N]) into G = ceil(K/4)
// groups per 16-column panel: out[(p * G + g) * 64 + 4 * l + i] =
// B(k = 4g + i, n = 16p + l) + 128, zero past K and N.
static AVX512 void pack_b_i8(int64_t N, int64_t K, const int8_t *B, int64_t ldb, bool tb,
                             uint8_t *out, int64_t G)
{
    int64_t P = (N + 15) / 16;
    const __m512i x80 = _mm512_set1_epi8((char)0x80);
    if (!tb) {
        pack_b_i8_kn(N, K, B, ldb, out, G);
        return;
    }
    for (int64_t p = 0; p < P; p++) {
        uint8_t *panel = out + p * G * 64;
        for (int64_t g0 = 0; g0 < G; g0 += 16) {
            int64_t k0 = 4 * g0, kb = TL_MIN(64, K - k0);
            __mmask64 km = kb >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << kb) - 1);
            __m512i r[16];
            for (int l = 0; l < 16; l++) {
                int64_t n = 16 * p + l;
                r[l] = n < N ? _mm512_xor_si512(_mm512_maskz_loadu_epi8(km, B + n * ldb + k0),
                                                _mm512_maskz_mov_epi8(km, x80))
                             : _mm512_setzero_si512();
            }
            transpose16(r);
            for (int j = 0; j < 16; j++) {
                int64_t g = g0 + j;
                if (g < G) _mm512_storeu_si512(panel + g * 64, r[j]);
            }
        }
    }
}

#define I8_KERNEL(MR, NR)                                                                          \
    static AVX512 void i8k_##MR##_##NR(int64_t G, const int8_t *A, int64_t lda, const uint8_t *Bp, \
                                       int64_t pstride, int32_t *C, int64_t ldc, bool init,        \
                                       __mmask16 last, const int32_t *corr)                        \
    {                                                                                              \
        __m512i acc[MR][NR];                                                                       \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                       \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++)                                   \
        {                                                                                          \
            __mmask16 m = j == NR - 1 ? last : 0xffff;                                             \
            acc[i][j] =                                                                            \
                init ? _mm512_setzero_si512() : _mm512_maskz_loadu_epi32(m, C + i * ldc + 16 * j); \
        }                                                                                          \
        for (int64_t g = 0; g < G; g++) {                                                          \
            __m512i b[NR];                                                                         \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) b[j] =                            \
                _mm512_loadu_si512(Bp + j * pstride + g * 64);                                     \
            _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                   \
            {                                                                                      \
                int32_t w;                                                                         \
                memcpy(&w, A + i * lda + 4 * g, 4);                                                \
                __m512i a = _mm512_set1_epi32(w);                                                  \
                _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) acc[i][j] =                   \
                    _mm512_dpbusd_epi32(acc[i][j], b[j], a);                                       \
            }                                                                                      \
        }                                                                                          \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                       \
        {                                                                                          \
            __m512i c = _mm512_set1_epi32(corr[i]);                                                \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++)                                   \
            {                                                                                      \
                __mmask16 m = j == NR - 1 ? last : 0xffff;                                         \
                _mm512_mask_storeu_epi32(C + i * ldc + 16 * j, m, _mm512_sub_epi32(acc[i][j], c)); \
            }                                                                                      \
        }                                                                                          \
    }

#define I8_ROW(MR) I8_KERNEL(MR, 1) I8_KERNEL(MR, 2) I8_KERNEL(MR, 3) I8_KERNEL(MR, 4)
I8_ROW(1)
I8_ROW(2)
I8_ROW(3)
I8_ROW(4)
I8_ROW(5)
I8_ROW(6)

typedef void (*i8k_fn)(int64_t, const int8_t *, int64_t, const uint8_t *, int64_t, int32_t *,
                       int64_t, bool, __mmask16, const int32_t *);
#define I8_FNS(MR)                                                                                 \
    {                                                                                              \
        i8k_##MR##_1, i8k_##MR##_2, i8k_##MR##_3, i8k_##MR##_4                                     \
    }
static const i8k_fn i8k[6][4] = {I8_FNS(1), I8_FNS(2), I8_FNS(3), I8_FNS(4), I8_FNS(5), I8_FNS(6)};

// Small M with B as [N,K]: dot products along k, 64 bytes per vpdpbusd.
// A is copied once (into Ap, rows lda apart, zero-padded to whole 64-byte
// chunks) as the unsigned operand a + 128, and a last row of ones is added:
// its dot product with a row of B is that row's sum, so
// sum_k a * b = dot(a + 128, b) - 128 * dot(1, b). B is read as it is.
// Register block: up to 6 rows of Ap x 4 rows of B (24 accumulators); each
// 4 accumulators of a row are summed across lanes together (reduce4).

// Lane sums of four vectors as the four int32 of a 128-bit vector.
static AVX512 INLINE __m128i reduce4(__m512i a0, __m512i a1, __m512i a2, __m512i a3)
{
    __m512i t0 = _mm512_add_epi32(_mm512_unpacklo_epi32(a0, a1), _mm512_unpackhi_epi32(a0, a1));
    __m512i t1 = _mm512_add_epi32(_mm512_unpacklo_epi32(a2, a3), _mm512_unpackhi_epi32(a2, a3));
    __m512i u = _mm512_add_epi32(_mm512_unpacklo_epi64(t0, t1), _mm512_unpackhi_epi64(t0, t1));
    __m256i v = _mm256_add_epi32(_mm512_castsi512_si256(u), _mm512_extracti64x4_epi64(u, 1));
    return _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

// T[i, j] = dot(Ap row i, B row j) over nk whole 64-byte chunks and, when
// tail != 0, one more chunk of B masked by tail (Ap is zero there).
#define I8_DOT(MR, NR)                                                                             \
    static AVX512 NO_PRE void i8d_##MR##_##NR(int64_t nk, __mmask64 tail, const uint8_t *Ap,       \
                                              int64_t lda, const int8_t *B, int64_t ldb,           \
                                              int32_t *T, int64_t ldt)                             \
    {                                                                                              \
        __m512i acc[MR][4];                                                                        \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                       \
            _Pragma("GCC unroll 8") for (int j = 0; j < 4; j++) acc[i][j] =                        \
                _mm512_setzero_si512();                                                            \
        for (int64_t k = 0, end = nk + (tail != 0); k < end; k++) {                                \
            __mmask64 km = k < nk ? ~(__mmask64)0 : tail;                                          \
            __m512i b[NR];                                                                         \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) b[j] =                            \
                _mm512_maskz_loadu_epi8(km, B + j * ldb + 64 * k);                                 \
            _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                   \
            {                                                                                      \
                __m512i a = _mm512_loadu_si512(Ap + i * lda + 64 * k);                             \
                _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) acc[i][j] =                   \
                    _mm512_dpbusd_epi32(acc[i][j], a, b[j]);                                       \
            }                                                                                      \
        }                                                                                          \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                       \
        {                                                                                          \
            __m128i r = reduce4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);                       \
            _mm_mask_storeu_epi32(T + i * ldt, (__mmask8)((1u << NR) - 1), r);                     \
        }                                                                                          \
    }

#define I8_DOT_ROW(MR) I8_DOT(MR, 1) I8_DOT(MR, 2) I8_DOT(MR, 3) I8_DOT(MR, 4)
I8_DOT_ROW(1)
I8_DOT_ROW(2)
I8_DOT_ROW(3)
I8_DOT_ROW(4)
I8_DOT_ROW(5)
I8_DOT_ROW(6)

typedef void (*i8d_fn)(int64_t, __mmask64, const uint8_t *, int64_t, const int8_t *, int64_t,
                       int32_t *, int64_t);
#define I8_DOT_FNS(MR)                                                                             \
    {                                                                                              \
        i8d_##MR##_1, i8d_##MR##_2, i8d_##MR##_3, i8d_##MR##_4                                     \
    }
static const i8d_fn i8d[6][4] = {I8_DOT_FNS(1), I8_DOT_FNS(2), I8_DOT_FNS(3),
                                 I8_DOT_FNS(4), I8_DOT_FNS(5), I8_DOT_FNS(6)};

// Bytes of scratch gemm_i8_dot needs: Ap, then T ((M + 1) x N int32).
static size_t dot_scratch(int64_t M, int64_t N, int64_t K)
{
    size_t lda = (size_t)TL_ALIGN_UP(K, 64);
    return (size_t)(M + 1) * lda + (size_t)((M + 1) * N) * sizeof(int32_t);
}

static AVX512 void gemm_i8_dot(int64_t M, int64_t N, int64_t K, const int8_t *A, int64_t lda,
                               const int8_t *B, int64_t ldb, int32_t *C, int64_t ldc, bool init,
                               uint8_t *scratch)
{
    int64_t nk = K / 64, ldp = TL_ALIGN_UP(K, 64), R = M + 1;
    __mmask64 tail = K % 64 ? (((__mmask64)1 << (K % 64)) - 1) : 0;
    uint8_t *Ap = scratch;
    int32_t *T = (int32_t *)(scratch + R * ldp);
    const __m512i x80 = _mm512_set1_epi8((char)0x80), ones = _mm512_set1_epi8(1);
    for (int64_t m = 0; m < R; m++)
        for (int64_t k = 0; k < ldp; k += 64) {
            __mmask64 km = K - k >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (K - k)) - 1);
            __m512i v =
                m < M ? _mm512_xor_si512(_mm512_maskz_loadu_epi8(km, A + m * lda + k), x80) : ones;
            _mm512_storeu_si512(Ap + m * ldp + k, _mm512_maskz_mov_epi8(km, v));
        }
    // rows in groups of at most 6, as even as possible
    int64_t groups = (R + 5) / 6;
    for (int64_t n0 = 0; n0 < N; n0 += 4) {
        int nr = (int)TL_MIN(4, N - n0);
        for (int64_t g = 0, m0 = 0; g < groups; g++) {
            int mr = (int)((R - m0) / (groups - g));
            mr += (R - m0) % (groups - g) != 0;
            i8d[mr - 1][nr - 1](nk, tail, Ap + m0 * ldp, ldp, B + n0 * ldb, ldb, T + m0 * N + n0,
                                N);
            m0 += mr;
        }
    }
    const int32_t *sum = T + M * N;
    for (int64_t m = 0; m < M; m++) {
        int32_t *c = C + m * ldc;
        const int32_t *t = T + m * N;
        for (int64_t n = 0; n < N; n++)
            c[n] =
                (int32_t)((init ? 0u : (uint32_t)c[n]) + (uint32_t)t[n] - 128u * (uint32_t)sum[n]);
    }
}

static AVX512 void gemm_i8_avx512(int64_t M, int64_t N, int64_t K, const int8_t *A, int64_t lda,
                                  const int8_t *B, int64_t ldb, bool tb, int32_t *C, int64_t ldc,
                                  bool init, uint8_t *Bp, int32_t *corr)
{
    int64_t G = (K + 3) / 4, P = (N + 15) / 16;
    const __m512i ones = _mm512_set1_epi8(1);
    for (int64_t m = 0; m < M; m++) { // 128 * sum_k a[m, k], exact in int32
        __m512i acc = _mm512_setzero_si512();
        for (int64_t k = 0; k < K; k += 64) {
            __mmask64 km = K - k >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (K - k)) - 1);
            acc = _mm512_dpbusd_epi32(acc, ones, _mm512_maskz_loadu_epi8(km, A + m * lda + k));
        }
        corr[m] = (int32_t)((uint32_t)_mm512_reduce_add_epi32(acc) * 128u);
    }
    pack_b_i8(N, K, B, ldb, tb, Bp, G);
    for (int64_t p0 = 0; p0 < P; p0 += 4) {
        int nr = (int)TL_MIN(4, P - p0);
        int64_t ncols = TL_MIN(16 * (p0 + nr), N) - 16 * (p0 + nr - 1);
        __mmask16 last = (__mmask16)(ncols >= 16 ? 0xffff : (1u << ncols) - 1);
        for (int64_t m0 = 0; m0 < M; m0 += 6) {
            int mr = (int)TL_MIN(6, M - m0);
            i8k[mr - 1][nr - 1](G, A + m0 * lda, lda, Bp + p0 * G * 64, G * 64,
                                C + m0 * ldc + 16 * p0, ldc, init, last, corr + m0);
        }
    }
}

// --- int8, AVX2 (vpmaddwd on int16 pairs) -------------------------------------------------

// B as int16 pairs: out[(p * G2 + g) * 16 + 2 * l + i] = B(2g + i, 8p + l).
static void pack_b_i16(int64_t N, int64_t K, const int8_t *B, int64_t ldb, bool tb, int16_t *out,
                       int64_t G2)
{
    int64_t P = (N + 7) / 8;
    for (int64_t p = 0; p < P; p++)
        for (int64_t g = 0; g < G2; g++)
            for (int l = 0; l < 8; l++)
                for (int i = 0; i < 2; i++) {
                    int64_t k = 2 * g + i, n = 8 * p + l;
                    out[(p * G2 + g) * 16 + 2 * l + i] =
                        k < K && n < N ? (tb ? B[n * ldb + k] : B[k * ldb + n]) : 0;
                }
}

static AVX2 void gemm_i8_avx2(int64_t M, int64_t N, int64_t K, const int8_t *A, int64_t lda,
                              const int8_t *B, int64_t ldb, bool tb, int32_t *C, int64_t ldc,
                              bool init, int16_t *Bp, int16_t *Ap)
{
    int64_t G2 = (K + 1) / 2, P = (N + 7) / 8;
    pack_b_i16(N, K, B, ldb, tb, Bp, G2);
    for (int64_t m = 0; m < M; m++)
        for (int64_t k = 0; k < 2 * G2; k++) Ap[m * 2 * G2 + k] = k < K ? A[m * lda + k] : 0;
    for (int64_t p = 0; p < P; p++) {
        int64_t ncols = TL_MIN(8, N - 8 * p);
        for (int64_t m0 = 0; m0 < M; m0 += 4) {
            int mr = (int)TL_MIN(4, M - m0);
            __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(),
                              _mm256_setzero_si256(), _mm256_setzero_si256()};
            const int16_t *bp = Bp + p * G2 * 16;
            for (int64_t g = 0; g < G2; g++) {
                __m256i b = _mm256_loadu_si256((const __m256i *)(bp + g * 16));
                for (int i = 0; i < mr; i++) {
                    int32_t w;
                    memcpy(&w, Ap + (m0 + i) * 2 * G2 + 2 * g, 4);
                    acc[i] = _mm256_add_epi32(acc[i], _mm256_madd_epi16(b, _mm256_set1_epi32(w)));
                }
            }
            for (int i = 0; i < mr; i++) {
                int32_t r[8], *c = C + (m0 + i) * ldc + 8 * p;
                _mm256_storeu_si256((__m256i *)r, acc[i]);
                for (int64_t j = 0; j < ncols; j++)
                    c[j] = (int32_t)((uint32_t)(init ? 0 : c[j]) + (uint32_t)r[j]);
            }
        }
    }
}

bool tl_gemm_x86_i8(int64_t M, int64_t N, int64_t K, const int8_t *A, int64_t lda, const int8_t *B,
                    int64_t ldb, bool tb, int32_t *C, int64_t ldc, bool init)
{
    tl_gemm_isa_t isa = tl_gemm_x86_isa();
    if (isa == TL_GEMM_PORTABLE || K % 4 || M <= 0 || N <= 0) return false;
    if (isa >= TL_GEMM_AVX512 && tb && M <= 16) {
        uint8_t *p = tl_gemm_scratch(TL_GEMM_SCRATCH_PACK, dot_scratch(M, N, K));
        if (!p) return false;
        gemm_i8_dot(M, N, K, A, lda, B, ldb, C, ldc, init, p);
        return true;
    }
    if (isa >= TL_GEMM_AVX512) {
        int64_t G = (K + 3) / 4, P = (N + 15) / 16;
        size_t pb = TL_ALIGN_UP((size_t)(P * G * 64), 64);
        uint8_t *Bp = tl_gemm_scratch(TL_GEMM_SCRATCH_PACK, pb + (size_t)M * sizeof(int32_t));
        if (!Bp) return false;
        gemm_i8_avx512(M, N, K, A, lda, B, ldb, tb, C, ldc, init, Bp, (int32_t *)(Bp + pb));
        return true;
    }
    int64_t G2 = (K + 1) / 2, P = (N + 7) / 8;
    size_t pb = TL_ALIGN_UP((size_t)(P * G2 * 16) * sizeof(int16_t), 64);
    int16_t *Bp =
        tl_gemm_scratch(TL_GEMM_SCRATCH_PACK, pb + (size_t)(M * 2 * G2) * sizeof(int16_t));
    if (!Bp) return false;
    gemm_i8_avx2(M, N, K, A, lda, B, ldb, tb, C, ldc, init, Bp, (int16_t *)((uint8_t *)Bp + pb));
    return true;
}

// dst[c * rows + r] = src[r * cols + c] in 16 x 16 blocks.
static AVX512 void transpose_avx512(const uint32_t *src, int64_t rows, int64_t cols, uint32_t *dst)
{
    for (int64_t r0 = 0; r0 < rows; r0 += 16)
        for (int64_t c0 = 0; c0 < cols; c0 += 16) {
            int64_t nr = TL_MIN(16, rows - r0), nc = TL_MIN(16, cols - c0);
            __mmask16 cm = (__mmask16)(nc >= 16 ? 0xffff : (1u << nc) - 1);
            __mmask16 rm = (__mmask16)(nr >= 16 ? 0xffff : (1u << nr) - 1);
            __m512i v[16];
            for (int i = 0; i < 16; i++)
                v[i] = i < nr ? _mm512_maskz_loadu_epi32(cm, src + (r0 + i) * cols + c0)
                              : _mm512_setzero_si512();
            transpose16(v);
            for (int j = 0; j < nc; j++)
                _mm512_mask_storeu_epi32(dst + (c0 + j) * rows + r0, rm, v[j]);
        }
}

// --- float32 --------------------------------------------------------------------------------

#define F32_KERNEL(MR, NR, FUSED)                                                                  \
    static AVX512 void f32k_##MR##_##NR##_##FUSED(                                                 \
        int64_t K, const float *A, int64_t sam, int64_t sak, const float *B, int64_t ldb,          \
        float *C, int64_t ldc, bool init, __mmask16 last)                                          \
    {                                                                                              \
        __m512 acc[MR][NR];                                                                        \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                       \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++)                                   \
        {                                                                                          \
            __mmask16 m = j == NR - 1 ? last : 0xffff;                                             \
            acc[i][j] =                                                                            \
                init ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(m, C + i * ldc + 16 * j);       \
        }                                                                                          \
        for (int64_t k = 0; k < K; k++) {                                                          \
            __m512 b[NR];                                                                          \
            _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) b[j] =                            \
                _mm512_maskz_loadu_ps(j == NR - 1 ? last : 0xffff, B + k * ldb + 16 * j);          \
            _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                   \
            {                                                                                      \
                __m512 a = _mm512_set1_ps(A[i * sam + k * sak]);                                   \
                _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++) acc[i][j] =                   \
                    FUSED ? _mm512_fmadd_ps(a, b[j], acc[i][j])                                    \
                          : _mm512_add_ps(acc[i][j], _mm512_mul_ps(a, b[j]));                      \
            }                                                                                      \
        }                                                                                          \
        _Pragma("GCC unroll 8") for (int i = 0; i < MR;                                            \
                                     i++) _Pragma("GCC unroll 8") for (int j = 0; j < NR; j++)     \
            _mm512_mask_storeu_ps(C + i * ldc + 16 * j, j == NR - 1 ? last : 0xffff, acc[i][j]);   \
    }

#define F32_ROW(MR, F)                                                                             \
    F32_KERNEL(MR, 1, F) F32_KERNEL(MR, 2, F) F32_KERNEL(MR, 3, F) F32_KERNEL(MR, 4, F)
#define F32_ALL(F)                                                                                 \
    F32_ROW(1, F) F32_ROW(2, F) F32_ROW(3, F) F32_ROW(4, F) F32_ROW(5, F) F32_ROW(6, F)
F32_ALL(0)
F32_ALL(1)

typedef void (*f32k_fn)(int64_t, const float *, int64_t, int64_t, const float *, int64_t, float *,
                        int64_t, bool, __mmask16);
#define F32_FNS(MR, F)                                                                             \
    {                                                                                              \
        f32k_##MR##_1_##F, f32k_##MR##_2_##F, f32k_##MR##_3_##F, f32k_##MR##_4_##F                 \
    }
static const f32k_fn f32k[2][6][4] = {
    {F32_FNS(1, 0), F32_FNS(2, 0), F32_FNS(3, 0), F32_FNS(4, 0), F32_FNS(5, 0), F32_FNS(6, 0)},
    {F32_FNS(1, 1), F32_FNS(2, 1), F32_FNS(3, 1), F32_FNS(4, 1), F32_FNS(5, 1), F32_FNS(6, 1)},
};

// bfloat16 / float16 -> float32 (NaNs quieted, as tl_bf16_to_f32_fast does).
static AVX512 void widen_avx512(bool bf16, const uint16_t *s, int64_t n, float *d)
{
    const __m512i abs = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
    const __m512i quiet = _mm512_set1_epi32(0x400000);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 k = (__mmask16)(n - i >= 16 ? 0xffff : (1u << (n - i)) - 1);
        __m256i h = _mm256_maskz_loadu_epi16(k, s + i);
        __m512 f;
        if (bf16) {
            __m512i u = _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16);
            __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(u, abs), inf);
            f = _mm512_castsi512_ps(_mm512_mask_or_epi32(u, nan, u, quiet));
        } else {
            f = _mm512_cvtph_ps(h);
        }
        _mm512_mask_storeu_ps(d + i, k, f);
    }
}

bool tl_gemm_x86_widen(tl_dtype_t t, const void *src, int64_t n, float *dst)
{
    if (tl_gemm_x86_isa() < TL_GEMM_AVX512 || (t != TL_BF16 && t != TL_F16)) return false;
    widen_avx512(t == TL_BF16, src, n, dst);
    return true;
}

void tl_gemm_x86_transpose32(const uint32_t *src, int64_t rows, int64_t cols, uint32_t *dst)
{
    if (tl_gemm_x86_isa() >= TL_GEMM_AVX512)
        transpose_avx512(src, rows, cols, dst);
    else
        transpose_portable(src, rows, cols, dst);
}

bool tl_gemm_x86_f32(int64_t M, int64_t N, int64_t K, const float *A, int64_t sam, int64_t sak,
                     const float *B, float *C, int64_t ldc, bool init, bool exact_products)
{
    if (tl_gemm_x86_isa() < TL_GEMM_AVX512 || M <= 0 || N <= 0) return false;
    int64_t P = (N + 15) / 16;
    for (int64_t p0 = 0; p0 < P; p0 += 4) {
        int nr = (int)TL_MIN(4, P - p0);
        int64_t ncols = TL_MIN(16 * (p0 + nr), N) - 16 * (p0 + nr - 1);
        __mmask16 last = (__mmask16)(ncols >= 16 ? 0xffff : (1u << ncols) - 1);
        for (int64_t m0 = 0; m0 < M; m0 += 6) {
            int mr = (int)TL_MIN(6, M - m0);
            f32k[exact_products][mr - 1][nr - 1](K, A + m0 * sam, sam, sak, B + 16 * p0, N,
                                                 C + m0 * ldc + 16 * p0, ldc, init, last);
        }
    }
    return true;
}

#else

tl_gemm_isa_t tl_gemm_x86_isa(void)
{
    return TL_GEMM_PORTABLE;
}

tl_gemm_isa_t tl_gemm_x86_set_isa(tl_gemm_isa_t isa)
{
    (void)isa;
    return TL_GEMM_PORTABLE;
}

bool tl_gemm_x86_i8(int64_t M, int64_t N, int64_t K, const int8_t *A, int64_t lda, const int8_t *B,
                    int64_t ldb, bool tb, int32_t *C, int64_t ldc, bool init)
{
    (void)M, (void)N, (void)K, (void)A, (void)lda, (void)B, (void)ldb, (void)tb, (void)C;
    (void)ldc, (void)init;
    return false;
}

bool tl_gemm_x86_widen(tl_dtype_t t, const void *src, int64_t n, float *dst)
{
    (void)t, (void)src, (void)n, (void)dst;
    return false;
}

void tl_gemm_x86_transpose32(const uint32_t *src, int64_t rows, int64_t cols, uint32_t *dst)
{
    transpose_portable(src, rows, cols, dst);
}

bool tl_gemm_x86_f32(int64_t M, int64_t N, int64_t K, const float *A, int64_t sam, int64_t sak,
                     const float *B, float *C, int64_t ldc, bool init, bool exact_products)
{
    (void)M, (void)N, (void)K, (void)A, (void)sam, (void)sak, (void)B, (void)C, (void)ldc;
    (void)init, (void)exact_products;
    return false;
}

#endif
