// Internals shared by the files of the tile-op library (tileop*.c): operand
// access, flat spans, error reporting, scalar conversion and chunked element
// loads/stores. Not part of the library's interface (that is tileop.h).
#ifndef TL_EXEC_TILEOP_IMPL_H
#define TL_EXEC_TILEOP_IMPL_H

#include "exec/tileop.h"

// Elements processed per chunk when narrow types are widened to float/int64.
enum { TL_TILEOP_CHUNK = 512 };

// `dst[i] = expr` for i in [0, n), written in blocks of 8 through a local array
// so that GCC's -O2 (very cheap cost model) vectorizes it even when dst may
// alias the operands.
#define TL_VLOOP(T, n, dst, i, expr)                                                               \
    do {                                                                                           \
        int64_t vlb_ = 0, vln_ = (n);                                                              \
        for (; vlb_ + 8 <= vln_; vlb_ += 8) {                                                      \
            T vlt_[8];                                                                             \
            for (int vlj_ = 0; vlj_ < 8; vlj_++) {                                                 \
                int64_t i = vlb_ + vlj_;                                                           \
                vlt_[vlj_] = (expr);                                                               \
                (void)i;                                                                           \
            }                                                                                      \
            for (int vlj_ = 0; vlj_ < 8; vlj_++) (dst)[vlb_ + vlj_] = vlt_[vlj_];                  \
        }                                                                                          \
        for (int64_t i = vlb_; i < vln_; i++) (dst)[i] = (expr), (void)i;                          \
    } while (0)

// A contiguous run of elements of one operand.
typedef struct {
    uint8_t *p; // first element
    int64_t n;  // number of elements
    tl_dtype_t t;
    const tl_view_t *v;
} tl_span_t;

// The op as kernels spell it ("T.copy", "T.tile.add", "T.reduce_sum").
const char *tl_tileop_name(const tl_opcall_t *call, char *buf, size_t size);
// Reports an error at the call's location, prefixed with the op name.
tl_status_t tl_tileop_fail(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, tl_status_t code,
                           const char *fmt, ...) TL_PRINTF(4, 5);
// "[a, b, c]" into buf; returns buf.
const char *tl_tileop_dims(char *buf, size_t size, const int64_t *d, int nd);

// Operand i as a view (error if it is missing or a scalar).
tl_status_t tl_tileop_view(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i,
                           const tl_view_t **out);
// Operand i as a scalar (error if it is missing or a region).
tl_status_t tl_tileop_scalar(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i,
                             tl_scalar_t *out);
// Optional element count at operand i: *out = -1 when absent; error if negative.
tl_status_t tl_tileop_count(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i, int64_t *out);

// The flat span of a view: count < 0 means the region's own elements (which
// must be contiguous in the buffer); otherwise `count` elements from the
// region origin. Errors when the span leaves the buffer.
tl_status_t tl_tileop_span(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v,
                           int64_t count, tl_span_t *out);
// Checks that the view's shape fits its memory and its region is well formed
// (non-negative starts and extents).
tl_status_t tl_tileop_check_view(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *v);
// Operands di (destination) and si (source) as spans of `count` elements
// (count < 0: their regions), with equal element counts and, if same_dtype,
// equal dtypes.
tl_status_t tl_tileop_pair(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int di, int si,
                           int64_t count, bool same_dtype, tl_span_t *d, tl_span_t *s);
// Error unless a and b have the same dtype.
tl_status_t tl_tileop_same_dtype(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *a,
                                 const tl_view_t *b);
// Error unless the two spans have the same number of elements.
tl_status_t tl_tileop_same_count(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_span_t *a,
                                 const tl_span_t *b);

// Float dtypes the vector unit computes on (through float32): f32, f16, bf16, fp8.
bool tl_tileop_is_vfloat(tl_dtype_t t);
// Integer dtypes the vector unit computes on (through int64, two's complement):
// every integer type but uint64.
bool tl_tileop_is_vint(tl_dtype_t t);

// Chunk conversions: float dtypes to/from float32 (store rounds RNE), integer
// dtypes to/from int64 (store wraps).
void tl_tileop_load_f32(tl_dtype_t t, const uint8_t *p, int64_t n, float *out);
void tl_tileop_store_f32(tl_dtype_t t, uint8_t *p, int64_t n, const float *in);
// tl_convert with the vectorized float32 <-> bf16/f16 loops above.
void tl_tileop_convert(tl_dtype_t dt, void *dst, tl_dtype_t st, const void *src, int64_t n,
                       tl_round_t mode);
void tl_tileop_load_i64(tl_dtype_t t, const uint8_t *p, int64_t n, int64_t *out);
void tl_tileop_store_i64(tl_dtype_t t, uint8_t *p, int64_t n, const int64_t *in);

// Op families (one file each), named by the op table's `run` column (ir/ops.h).
tl_status_t tl_tileop_copy_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_copy_atomic_add(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_copy_pa_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call); // tileop_pa.c
// copy_pa's reads and writes (tl_tileop_accesses): the block-table entries, each
// page run's KV rows and the destination rows they fill.
void tl_tileop_copy_pa_accesses(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg);
tl_status_t tl_tileop_im2col_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call); // tileop_im2col.c
// im2col's reads (the feature map, one run) and writes (dst's valid rows).
void tl_tileop_im2col_accesses(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg);
tl_status_t tl_tileop_gemm_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_vec_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_unary_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_misc_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_rows_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_reduce_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_cumsum_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_sort_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_repeat_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
tl_status_t tl_tileop_bilinear_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);
// gatherb's and bilinear_interpolation's check of n uint32 byte offsets (operand
// ov's, at `offsets`): each a 32-byte block inside the total bytes of sv from its origin.
tl_status_t tl_tileop_block_offsets(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                                    const uint8_t *offsets, int64_t n, const tl_view_t *ov,
                                    const tl_view_t *sv, int64_t total);
tl_status_t tl_tileop_deq_scale_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call); // tileop.c

#endif
