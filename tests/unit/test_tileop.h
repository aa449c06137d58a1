// Helpers shared by the tile-op library tests (tests/unit/test_tileop_*.c):
// views over test arrays, operands, one-call execution with a diagnostics
// context, and narrow-float bit patterns.
#ifndef TL_TESTS_TEST_TILEOP_H
#define TL_TESTS_TEST_TILEOP_H

#include "../test.h"

#include "base/dtype.h"
#include "exec/tileop.h"

typedef struct {
    tl_diag_t diag;
    tl_tileop_ctx_t ctx;
} fx_t;

static inline void fx_init(fx_t *f)
{
    tl_diag_init(&f->diag);
    memset(&f->ctx, 0, sizeof f->ctx);
    f->ctx.diag = &f->diag;
    f->ctx.deq_scale = 1.0f;
}

static inline void fx_free(fx_t *f)
{
    tl_diag_free(&f->diag);
}

// The first error message, or "" when there was none.
static inline const char *fx_err(const fx_t *f)
{
    return f->diag.first_error ? f->diag.first_error : "";
}

// A whole-buffer view of `bytes` bytes at data.
static inline tl_view_t tv(void *data, size_t bytes, tl_dtype_t t, tl_scope_t scope,
                           const char *name, int nd, const int64_t *shape)
{
    tl_view_t v;
    memset(&v, 0, sizeof v);
    v.data = data;
    v.bytes = bytes;
    v.dtype = t;
    v.scope = scope;
    v.ndim = nd;
    v.name = name;
    v.form = TL_REGION_WHOLE;
    for (int i = 0; i < nd; i++) v.shape[i] = v.extent[i] = shape[i];
    return v;
}

// A slice of v: start and extent per dimension.
static inline tl_view_t tv_sub(tl_view_t v, const int64_t *start, const int64_t *extent)
{
    v.form = TL_REGION_SLICE;
    for (int i = 0; i < v.ndim; i++) v.start[i] = start[i], v.extent[i] = extent[i];
    return v;
}

// A start point `buf[i, j, ...]` (extents inferred by copies, 1 elsewhere).
static inline tl_view_t tv_at(tl_view_t v, const int64_t *start)
{
    v.form = TL_REGION_POINT;
    for (int i = 0; i < v.ndim; i++) v.start[i] = start[i], v.extent[i] = 1;
    return v;
}

#define DIMS(...) ((const int64_t[]){__VA_ARGS__})
// Views over a local array `a` (its sizeof is the mapped size).
#define VIEW(a, t, scope, ...)                                                                     \
    tv((a), sizeof(a), (t), (scope), #a, (int)(sizeof(DIMS(__VA_ARGS__)) / sizeof(int64_t)),       \
       DIMS(__VA_ARGS__))
#define UB(a, t, ...) VIEW(a, t, TL_SCOPE_UB, __VA_ARGS__)
#define GM(a, t, ...) VIEW(a, t, TL_SCOPE_GM, __VA_ARGS__)

static inline tl_operand_t OV(tl_view_t v)
{
    tl_operand_t o;
    memset(&o, 0, sizeof o);
    o.is_view = true;
    o.view = v;
    return o;
}

static inline tl_operand_t OF(double f)
{
    tl_operand_t o;
    memset(&o, 0, sizeof o);
    o.scalar.is_float = true;
    o.scalar.f = f;
    return o;
}

static inline tl_operand_t OI(int64_t i)
{
    tl_operand_t o;
    memset(&o, 0, sizeof o);
    o.scalar.i = i;
    return o;
}

// An op with the attributes' defaults (reductions clear, broadcast axis inferred).
static inline tl_op_t top(tl_opcode_t code)
{
    tl_op_t o;
    memset(&o, 0, sizeof o);
    o.code = code;
    o.dim = -1;
    o.clear = true;
    o.round = TL_CAST_RINT;
    return o;
}

static inline tl_opcall_t tcall(const tl_op_t *op, int n, const tl_operand_t *args)
{
    tl_opcall_t c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.nargs = n;
    for (int i = 0; i < n; i++) c.args[i] = args[i];
    return c;
}

static inline tl_status_t trun(fx_t *f, const tl_op_t *op, int n, const tl_operand_t *args)
{
    tl_opcall_t c = tcall(op, n, args);
    return tl_tileop_run(&f->ctx, &c);
}

// RUN(fx, op, operands...): runs one op and returns its status.
#define RUN(f, op, ...)                                                                            \
    trun((f), &(op), (int)(sizeof((tl_operand_t[]){__VA_ARGS__}) / sizeof(tl_operand_t)),          \
         (tl_operand_t[]){__VA_ARGS__})

// Narrow-float bit patterns (RNE) and back.
static inline uint16_t bf(float x)
{
    return tl_f32_to_bf16_rint(x);
}

static inline uint16_t hf(float x)
{
    return tl_f32_to_f16_rint(x);
}

static inline float bf2f(uint16_t h)
{
    return tl_bf16_to_f32_fast(h);
}

static inline float hf2f(uint16_t h)
{
    return tl_f16_to_f32_fast(h);
}

#endif
