// Golden reference implementations: the independent judges that kernels are
// checked against. Plain C on raw row-major float arrays, double accumulation,
// no cleverness. The DeepSeek-V4 operators follow research/dsv4_ops.md §2-§5
// exactly; the generic ones cover the example kernels.
//
// Conventions shared by every function here:
// - inputs are already decoded to float (bf16/fp16 callers use dtype.h);
// - sizes are int64_t; a negative size, a product that does not fit in memory,
//   a NULL tensor with a non-zero element count or a bad option returns
//   TL_ERR_ARG with a message in `d` (which may be NULL);
// - a tl_ref_prec_t option rounds a value once, to nearest even, from the
//   double it was computed in (TL_REF_EXACT: no extra rounding; a float output
//   is then rounded to float on store, which is the same as TL_REF_F32);
// - option fields left at zero mean the plain behaviour (no extra rounding, the
//   kernel's scale order, no amax floor); `*_defaults` functions give the
//   DeepSeek-V4 settings (hc_split_sinkhorn needs them: hc and iters >= 1).
#ifndef TL_REF_REF_H
#define TL_REF_REF_H

#include "base/common.h"
#include "base/diag.h"
#include "base/dtype.h"

typedef enum { TL_REF_EXACT, TL_REF_F32, TL_REF_BF16, TL_REF_F16, TL_REF_PREC_COUNT } tl_ref_prec_t;

// --- sparse attention with attention sink (dsv4_ops §2) --------------------------
// q [b,m,h,d], kv [b,n,d] (one row is both K and V), sink [h] or NULL (no sink),
// idx [b,m,k] int32, out [b,m,h,d]. A slot whose index is outside [0, n) (-1
// included) is masked and its row never read; duplicates count separately. The
// sink is an extra logit with a zero value vector; the softmax stabiliser
// includes it. No valid slot, or sink = +inf, gives out = 0.
typedef struct {
    int64_t b, m, h, d, n, k;
    float scale;            // softmax scale (model: d^-0.5)
    tl_ref_prec_t qk_prec;  // rounding of q.k before scaling (CANN-TL's old golden: bf16)
    tl_ref_prec_t p_prec;   // rounding of exp(x - M) before the P.V product (kernels: bf16)
    tl_ref_prec_t out_prec; // rounding of the output (DS-OFF, FMLA: bf16; CANN-TL: fp32)
} tl_sparse_attn_params_t;

tl_status_t tl_sparse_attn_ref(const tl_sparse_attn_params_t *p, const float *q, const float *kv,
                               const float *sink, const int32_t *idx, float *out, tl_diag_t *d);

// --- hc_split_sinkhorn (dsv4_ops §3) -----------------------------------------------
// mixes [n, (2+hc)*hc], hc_scale [3], hc_base [(2+hc)*hc] -> pre [n,hc],
// post [n,hc], comb [n,hc,hc]. Computed in double, stored as float.
typedef struct {
    int64_t n;       // tokens
    int64_t hc;      // hc_mult (V4: 4)
    int64_t iters;   // Sinkhorn iterations, >= 1 (V4: 20, TileKernels default: 10)
    float eps;       // comb eps (V4: 1e-6)
    float pre_eps;   // added to sigmoid for pre (V4: same as eps)
    float post_mult; // post = post_mult * sigmoid (V4: 2)
} tl_hc_sinkhorn_params_t;

tl_hc_sinkhorn_params_t tl_hc_sinkhorn_defaults(int64_t n);
tl_status_t tl_hc_sinkhorn_ref(const tl_hc_sinkhorn_params_t *p, const float *mixes,
                               const float *hc_scale, const float *hc_base, float *pre, float *post,
                               float *comb, tl_diag_t *d);

// --- int8 GEMM with per-row scales (dsv4_ops §4) -----------------------------------
// a int8 [m,k], b int8 [n,k] (out = a.b^T), scale_a [m], scale_b [n] fp32.
// acc is exact (int64), converted once to fp32 with RNE, then scaled in fp32 in
// the chosen order, then cast to the output type with RNE. out is float [m,n]
// for TL_REF_EXACT/F32, or the uint16_t bit patterns for TL_REF_BF16/F16.
typedef enum {
    TL_INT8_GEMM_SCALE_SEQ,   // (float(acc) * sa) * sb: the kernel's two multiplies
    TL_INT8_GEMM_SCALE_OUTER, // float(acc) * (sa * sb): the torch golden's order
} tl_int8_gemm_order_t;

typedef struct {
    int64_t m, n, k;
    tl_int8_gemm_order_t order;
    tl_ref_prec_t out_prec;
} tl_int8_gemm_params_t;

tl_status_t tl_int8_gemm_ref(const tl_int8_gemm_params_t *p, const int8_t *a, const int8_t *b,
                             const float *scale_a, const float *scale_b, void *out, tl_diag_t *d);

// --- act_quant (dsv4_ops §5) -------------------------------------------------------
// x [m,n] -> y [m,n] (int8_t for INT8, float8_e4m3fn bit patterns as uint8_t for
// E4M3) and scale [m, ceil(n/block)] fp32 (block 0 = one scale per row; the last
// block of a row may be shorter). Per group: a = max|x|, a = max(a, amax_floor),
// s = a / qmax (qmax 127 or 448), optionally s = 2^ceil(log2 s) by the exponent
// bit formula, q = clamp(x / s, -qmax, qmax), y = round(q). All fp32.
// A zero group with amax_floor 0 gives s = 0 and y = 0 (NaN x gives y = 0).
typedef enum { TL_ACT_QUANT_INT8, TL_ACT_QUANT_E4M3 } tl_act_quant_target_t;

typedef struct {
    int64_t m, n;
    int64_t block;                // elements per scale along a row; 0 = whole row
    tl_act_quant_target_t target; // int8 (qmax 127) or float8_e4m3fn (qmax 448)
    float amax_floor;             // golden clamp of amax (1e-4); 0 = none (the kernel)
    bool round_scale;             // power-of-two scale
    bool recip_scale;             // s = a * fp32(1/qmax) (DS-OFF fp8) instead of a / qmax
    tl_round_t round;             // final cast; 0 (CAST_NONE) is RNE; CAST_ROUND = half away
} tl_act_quant_params_t;

tl_act_quant_params_t tl_act_quant_defaults(int64_t m, int64_t n);
tl_status_t tl_act_quant_ref(const tl_act_quant_params_t *p, const float *x, void *y, float *scale,
                             tl_diag_t *d);
// 2^ceil(log2 v) for a positive finite fp32 v, by the exponent bit formula of §5.2
// (exact powers of two are unchanged); 0, Inf, NaN and negatives are returned as is.
float tl_act_quant_pow2_scale(float v);

// --- generic references for the example kernels (generic.c) --------------------------
// out[i] = a[i] + b[i].
tl_status_t tl_generic_add(const float *a, const float *b, float *out, int64_t n,
                           tl_ref_prec_t out_prec, tl_diag_t *d);

// c [m,n] = A.B (+ bias[j]) (+ addend[i][j]). A is [m,k] ([k,m] if trans_a), B is
// [k,n] ([n,k] if trans_b). The product is accumulated in double and rounded to
// acc_prec, then bias and addend (either may be NULL) are added and the sum is
// rounded to out_prec.
typedef struct {
    int64_t m, n, k;
    bool trans_a, trans_b;
    tl_ref_prec_t acc_prec; // kernels accumulate in fp32 (L0C): TL_REF_F32
    tl_ref_prec_t out_prec;
} tl_generic_gemm_params_t;

tl_status_t tl_generic_gemm(const tl_generic_gemm_params_t *p, const float *a, const float *b,
                            const float *bias, const float *addend, float *c, tl_diag_t *d);

// Softmax over each row of x [rows, cols] (max-stabilised; online/blocked
// softmax has the same result). A row of all -inf gives NaN, as in torch.
tl_status_t tl_generic_softmax(const float *x, float *out, int64_t rows, int64_t cols,
                               tl_ref_prec_t out_prec, tl_diag_t *d);

// Layer norm over each row: (x - mean) / sqrt(var + eps) * gamma + beta with the
// biased (population) variance; gamma/beta may be NULL (1 and 0).
tl_status_t tl_generic_layer_norm(const float *x, const float *gamma, const float *beta, float *out,
                                  int64_t rows, int64_t cols, float eps, tl_ref_prec_t out_prec,
                                  tl_diag_t *d);

// RMS norm over each row: x / sqrt(mean(x^2) + eps) * gamma (gamma may be NULL).
tl_status_t tl_generic_rms_norm(const float *x, const float *gamma, float *out, int64_t rows,
                                int64_t cols, float eps, tl_ref_prec_t out_prec, tl_diag_t *d);

// Dense attention: q [b,h,sq,d], k and v [b,h,skv,d], out [b,h,sq,d];
// out = softmax(scale * q.k^T) . v. Causal keeps key j <= query i (aligned at the
// top left, as torch's is_causal). skv = 0 gives out = 0.
typedef struct {
    int64_t b, h, sq, skv, d;
    float scale;
    bool causal;
    tl_ref_prec_t p_prec;   // rounding of exp(x - max) before the P.V product
    tl_ref_prec_t out_prec; // rounding of the output
} tl_generic_attn_params_t;

tl_status_t tl_generic_attn(const tl_generic_attn_params_t *p, const float *q, const float *k,
                            const float *v, float *out, tl_diag_t *d);

// --- int4 (int4.c): nibble-packed, two elements a byte, the even one low ----------
// Element i of a packed array (sign-extended) and its store.
int tl_ref_int4_get(const uint8_t *packed, int64_t i);
void tl_ref_int4_set(uint8_t *packed, int64_t i, int v);
// c [m,n] int32 = a [m,k] . b, b [k,n] (or [n,k] when b_nk), all int4 packed
// row-major; the sum is exact and wraps modulo 2^32.
tl_status_t tl_ref_int4_gemm(int64_t m, int64_t n, int64_t k, const uint8_t *a, const uint8_t *b,
                             bool b_nk, int32_t *c, tl_diag_t *d);
// count floats rounded to nearest (ties to even; NaN 0), saturated to [-8, 7], packed.
void tl_ref_int4_quant(const float *x, int64_t count, uint8_t *packed);

// --- helpers shared by the goldens (ref.c) -----------------------------------------
// Rounds v to the precision (once, nearest even); TL_REF_EXACT returns v.
double tl_ref_round(double v, tl_ref_prec_t p);
bool tl_ref_prec_valid(tl_ref_prec_t p);
// Reports "<op>: <message>" as an error to d (if not NULL); returns TL_ERR_ARG.
tl_status_t tl_ref_error(tl_diag_t *d, const char *op, const char *fmt, ...) TL_PRINTF(3, 4);
// Reports "<op>: out of memory"; returns TL_ERR_NOMEM.
tl_status_t tl_ref_nomem(tl_diag_t *d, const char *op);
// Checks a tensor argument: every dim >= 0, the element count fits in memory,
// and ptr is not NULL when the count is non-zero (when `optional`, NULL is
// accepted). Stores the element count in *count.
tl_status_t tl_ref_tensor(tl_diag_t *d, const char *op, const char *name, const void *ptr,
                          bool optional, int ndims, const int64_t *dims, size_t *count);
// malloc(n * size) (at least one byte); NULL on overflow or failure.
void *tl_ref_alloc(size_t n, size_t size);

#endif
