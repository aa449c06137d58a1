// SIMD GEMM micro-kernels behind T.gemm_v0 / T.mma (tileop_gemm.c), chosen at
// run time from what the CPU supports: AVX-512 (VNNI for int8) or AVX2, else
// the portable loops of tileop_gemm.c. They compute exactly what those loops
// compute: int8 products summed exactly and added to C modulo 2^32; float
// products added to C (or 0) in increasing k, each product and each addition
// rounded to float32 (fused multiply-add only where products are exact).
#ifndef TL_EXEC_TILEOP_GEMM_X86_H
#define TL_EXEC_TILEOP_GEMM_X86_H

#include "base/dtype.h"

// AVX512_BF16 adds vdpbf16ps for bfloat16 inputs (tileop_gemm_bf16.c).
typedef enum { TL_GEMM_PORTABLE, TL_GEMM_AVX2, TL_GEMM_AVX512, TL_GEMM_AVX512_BF16 } tl_gemm_isa_t;

// The path in use: the best the CPU has, lowered by $TILEC_GEMM_ISA
// ("portable", "avx2", "avx512") or tl_gemm_x86_set_isa.
tl_gemm_isa_t tl_gemm_x86_isa(void);
// Forces a path (clamped to what the CPU supports); returns the one in use.
tl_gemm_isa_t tl_gemm_x86_set_isa(tl_gemm_isa_t isa);

// C[M,N] (+)= A[M,K] @ op(B), int8 inputs (A rows lda apart; B is [N,K] rows
// ldb apart when tb, else [K,N]); false when no SIMD path applies.
bool tl_gemm_x86_i8(int64_t M, int64_t N, int64_t K, const int8_t *A, int64_t lda, const int8_t *B,
                    int64_t ldb, bool tb, int32_t *C, int64_t ldc, bool init);
// C[M,N] (+)= A @ B on float32: element (m, k) of A at A[m * sam + k * sak],
// B dense [K,N]. exact_products allows fused multiply-add.
bool tl_gemm_x86_f32(int64_t M, int64_t N, int64_t K, const float *A, int64_t sam, int64_t sak,
                     const float *B, float *C, int64_t ldc, bool init, bool exact_products);

// C[M,N] (+)= A[M,K] @ B[K,N] on bfloat16 (rows lda, ldb apart) with the bits
// of tl_gemm_x86_f32 on the widened operands; false when the CPU lacks
// AVX512_BF16 or the operands' exponents could make a difference (then
// nothing is written).
bool tl_gemm_x86_bf16(int64_t M, int64_t N, int64_t K, const uint16_t *A, int64_t lda,
                      const uint16_t *B, int64_t ldb, float *C, int64_t ldc, bool init);

// n bfloat16 or float16 values as float32; false when there is no SIMD path.
bool tl_gemm_x86_widen(tl_dtype_t t, const void *src, int64_t n, float *dst);
// dst[c * rows + r] = src[r * cols + c] for 32-bit elements.
void tl_gemm_x86_transpose32(const uint32_t *src, int64_t rows, int64_t cols, uint32_t *dst);

#endif
