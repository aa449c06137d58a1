// T.gemm_v0 (A, B in L1) and T.mma (A in L0A, B in L0B): C (+)= op(A) @ op(B)
// with C in L0C (surface §2.4).
//
// Operands are 2-D regions (leading unit dimensions dropped) addressed with
// their buffer's row pitch, so sub-tiles of a larger buffer work. M and N come
// from C, K from A (A's rows when transpose_a), checked against B; `init`
// overwrites C, otherwise the products accumulate onto it.
//
// Numerics: int8 x int8 (or uint8 x uint8, or packed int4 x int4: mad_s4)
// accumulate exactly into int32 (the sum is formed in 64 bits and added to C
// modulo 2^32). Float inputs (float32,
// float16, bfloat16, fp8) accumulate in float32: for every C element the
// products are added in increasing k, each product and each addition rounded
// to float32 (products of 16-bit or narrower inputs are exact). Upstream's
// gemm_v0 miscomputes some transposed-A and K-tail cases; we compute the
// logical product for every shape. k_actual / n_actual (mma; gemm_v0
// n_actual) narrow K and N to their first k / n: C's columns from n on are
// not written, products from k on not added (the device works in whole
// fractals; kernels keep the invalid part zero or give multiples of 16).
#include "exec/tileop_impl.h"

#include <stdlib.h>

#include "exec/tileop_gemm_scratch.h"
#include "exec/tileop_gemm_x86.h"

typedef struct {
    const tl_view_t *v;
    int64_t rows, cols, ld; // ld: element stride between rows
    uint8_t *p;             // element [0, 0] of the region
    bool s4;                // packed int4 (the view's int4): element e of the rows is
                            // nibble e % 2 (low first) of byte p[e / 2], sign-extended
} mat_t;

static tl_status_t matrix(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i, const char *role,
                          tl_scope_t scope, mat_t *m)
{
    char a[128], b[128], c[128];
    const tl_view_t *v;
    tl_status_t st = tl_tileop_view(ctx, call, i, &v);
    if (st != TL_OK) return st;
    if (v->scope != scope)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "operand %s ('%s') must be in %s, not %s",
                              role, v->name, tl_scope_name(scope), tl_scope_name(v->scope));
    int nd = v->ndim;
    for (int d = 0; d < nd; d++) {
        if (v->start[d] + v->extent[d] > v->shape[d])
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "operand %s: region at %s with extents %s is outside '%s' %s",
                                  role, tl_tileop_dims(a, sizeof a, v->start, nd),
                                  tl_tileop_dims(b, sizeof b, v->extent, nd), v->name,
                                  tl_tileop_dims(c, sizeof c, v->shape, nd));
        if (d < nd - 2 && v->extent[d] != 1)
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "operand %s ('%s') must be a 2-D region, got extents %s", role,
                                  v->name, tl_tileop_dims(a, sizeof a, v->extent, nd));
    }
    m->v = v;
    m->rows = nd >= 2 ? v->extent[nd - 2] : 1;
    m->cols = v->extent[nd - 1];
    m->ld = v->shape[nd - 1];
    int64_t off = 0;
    for (int d = 0; d < nd; d++) off = off * v->shape[d] + v->start[d];
    m->p = v->data + off * tl_dtype_size(v->dtype);
    m->s4 = v->int4; // the last dimension counts bytes: two elements each
    if (m->s4) m->cols *= 2, m->ld *= 2;
    return TL_OK;
}

// op(X) as a dense float32 [rows x cols] matrix (rows/cols of op(X)).
static void load_row(tl_dtype_t t, const uint8_t *p, int64_t n, float *out)
{
    if (!tl_gemm_x86_widen(t, p, n, out)) tl_tileop_load_f32(t, p, n, out);
}

static void load_float(const mat_t *m, bool trans, float *out)
{
    tl_dtype_t t = m->v->dtype;
    int sz = tl_dtype_size(t);
    if (!trans) {
        for (int64_t r = 0; r < m->rows; r++)
            load_row(t, m->p + r * m->ld * sz, m->cols, out + r * m->cols);
        return;
    }
    float *rows = tl_gemm_scratch(TL_GEMM_SCRATCH_TMP, (size_t)(m->rows * m->cols) * sizeof *rows);
    if (rows) { // convert the rows, then transpose in blocks
        for (int64_t r = 0; r < m->rows; r++)
            load_row(t, m->p + r * m->ld * sz, m->cols, rows + r * m->cols);
        tl_gemm_x86_transpose32((const uint32_t *)rows, m->rows, m->cols, (uint32_t *)out);
        return;
    }
    float row[TL_TILEOP_CHUNK];
    for (int64_t r = 0; r < m->rows; r++)
        for (int64_t c0 = 0; c0 < m->cols; c0 += TL_TILEOP_CHUNK) {
            int64_t n = TL_MIN(TL_TILEOP_CHUNK, m->cols - c0);
            tl_tileop_load_f32(t, m->p + (r * m->ld + c0) * sz, n, row);
            for (int64_t c = 0; c < n; c++) out[(c0 + c) * m->rows + r] = row[c];
        }
}

static void load_int(const mat_t *m, bool trans, int32_t *out)
{
    const uint8_t *p = m->p;
    bool sign = m->v->dtype == TL_I8;
    for (int64_t r = 0; r < m->rows; r++)
        for (int64_t c = 0; c < m->cols; c++) {
            int64_t e = r * m->ld + c;
            int32_t x;
            if (m->s4) // the nibble, sign-extended from bit 3
                x = (int32_t)((p[e >> 1] >> (4 * (e & 1))) & 15) - 16 * ((p[e >> 1] >> (4 * (e & 1) + 3)) & 1);
            else
                x = sign ? (int8_t)p[e] : p[e];
            if (trans)
                out[c * m->rows + r] = x;
            else
                out[r * m->cols + c] = x;
        }
}

// One C element: its products added in increasing k onto C (or onto 0).
static void dot_f32(int64_t N, int64_t K, const float *A, const float *B, float *c, bool init)
{
    float acc = init ? 0.0f : *c;
    for (int64_t k = 0; k < K; k++) acc += A[k] * B[k * N];
    *c = acc;
}

#if defined(__GNUC__)
typedef float v4f_t __attribute__((vector_size(16)));

static inline v4f_t ld4(const float *p)
{
    v4f_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void st4(float *p, v4f_t v)
{
    memcpy(p, &v, sizeof v);
}

// A 4x8 block of C accumulated in vector registers over all k: per element
// the same additions in the same order as dot_f32 (no fused multiply-add).
static void block_4x8(int64_t N, int64_t K, const float *A, const float *B, float *C, int64_t ldc,
                      bool init)
{
    v4f_t z = {0, 0, 0, 0};
    v4f_t c00 = init ? z : ld4(C), c01 = init ? z : ld4(C + 4);
    v4f_t c10 = init ? z : ld4(C + ldc), c11 = init ? z : ld4(C + ldc + 4);
    v4f_t c20 = init ? z : ld4(C + 2 * ldc), c21 = init ? z : ld4(C + 2 * ldc + 4);
    v4f_t c30 = init ? z : ld4(C + 3 * ldc), c31 = init ? z : ld4(C + 3 * ldc + 4);
    for (int64_t k = 0; k < K; k++) {
        v4f_t b0 = ld4(B + k * N), b1 = ld4(B + k * N + 4);
        float x0 = A[k], x1 = A[K + k], x2 = A[2 * K + k], x3 = A[3 * K + k];
        v4f_t a0 = {x0, x0, x0, x0}, a1 = {x1, x1, x1, x1};
        v4f_t a2 = {x2, x2, x2, x2}, a3 = {x3, x3, x3, x3};
        c00 += a0 * b0, c01 += a0 * b1, c10 += a1 * b0, c11 += a1 * b1;
        c20 += a2 * b0, c21 += a2 * b1, c30 += a3 * b0, c31 += a3 * b1;
    }
    st4(C, c00), st4(C + 4, c01), st4(C + ldc, c10), st4(C + ldc + 4, c11);
    st4(C + 2 * ldc, c20), st4(C + 2 * ldc + 4, c21);
    st4(C + 3 * ldc, c30), st4(C + 3 * ldc + 4, c31);
}
#define HAVE_BLOCK_4X8 1
#endif

// C[M,N] (+)= A[M,K] @ B[K,N] on dense float32 rows; C rows ldc apart.
static void gemm_f32(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C,
                     int64_t ldc, bool init)
{
    int64_t m4 = 0, n8 = 0;
#ifdef HAVE_BLOCK_4X8
    m4 = M / 4 * 4, n8 = N / 8 * 8;
    for (int64_t i = 0; i < m4; i += 4)
        for (int64_t j = 0; j < n8; j += 8)
            block_4x8(N, K, A + i * K, B + j, C + i * ldc + j, ldc, init);
#endif
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = i < m4 ? n8 : 0; j < N; j++)
            dot_f32(N, K, A + i * K, B + j, C + i * ldc + j, init);
}

static void gemm_i32(int64_t M, int64_t N, int64_t K, const int32_t *A, const int32_t *B,
                     int32_t *C, int64_t ldc, bool init, int64_t *acc)
{
    for (int64_t i = 0; i < M; i++) {
        memset(acc, 0, (size_t)N * sizeof *acc);
        for (int64_t k = 0; k < K; k++) {
            int64_t a = A[i * K + k];
            const int32_t *b = B + k * N;
            TL_VLOOP(int64_t, N, acc, j, acc[j] + a * b[j]);
        }
        int32_t *c = C + i * ldc;
        for (int64_t j = 0; j < N; j++)
            c[j] = (int32_t)(uint32_t)((uint64_t)(init ? 0 : (int64_t)c[j]) + (uint64_t)acc[j]);
    }
}

// int8 x int8 on the SIMD kernels; a transposed A is first copied row-major
// into scratch (room for M * K int32).
static bool simd_int8(const mat_t *a, bool ta, const mat_t *b, bool tb, const mat_t *c, int64_t M,
                      int64_t N, int64_t K, bool init, void *scratch)
{
    const int8_t *ap = (const int8_t *)a->p;
    int64_t lda = a->ld;
    if (ta) {
        int8_t *t = scratch;
        for (int64_t m = 0; m < M; m++)
            for (int64_t k = 0; k < K; k++) t[m * K + k] = ap[k * a->ld + m];
        ap = t;
        lda = K;
    }
    return tl_gemm_x86_i8(M, N, K, ap, lda, (const int8_t *)b->p, b->ld, tb, (int32_t *)c->p, c->ld,
                          init);
}

static tl_status_t check_types(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const mat_t *a,
                               const mat_t *b, const mat_t *c, bool *is_int)
{
    tl_dtype_t ta = a->v->dtype, tb = b->v->dtype, tc = c->v->dtype;
    if (ta != tb)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "A '%s' is %s but B '%s' is %s; both need the same dtype", a->v->name,
                              tl_dtype_name(ta), b->v->name, tl_dtype_name(tb));
    if (a->s4 != b->s4)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "A '%s' and B '%s' must both be int4",
                              a->v->name, b->v->name);
    *is_int = ta == TL_I8 || ta == TL_U8;
    bool ok = *is_int ? tc == TL_I32 : tl_tileop_is_vfloat(ta) && tc == TL_F32;
    if (!ok)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "%s inputs cannot accumulate into %s C '%s' (int8 needs int32, "
                              "float inputs need float32)",
                              tl_dtype_name(ta), tl_dtype_name(tc), c->v->name);
    return TL_OK;
}

// A gemm with its operands checked: C (+)= op(A) @ op(B), [M, K] x [K, N].
typedef struct {
    mat_t a, b, c;
    bool ta, tb, init, is_int;
    int64_t M, N, K;
} gemm_t;

// The part of g that makes C rows [m0, m0 + mn) and columns [n0, n0 + nn):
// op(A)'s rows and op(B)'s columns of it.
static gemm_t sub_gemm(const gemm_t *g, int64_t m0, int64_t mn, int64_t n0, int64_t nn)
{
    gemm_t s = *g;
    int64_t asz = tl_dtype_size(g->a.v->dtype), bsz = tl_dtype_size(g->b.v->dtype);
    if (g->ta)
        s.a.p += m0 * asz, s.a.cols = mn;
    else
        s.a.p += m0 * g->a.ld * asz, s.a.rows = mn;
    if (g->tb)
        s.b.p += n0 * g->b.ld * bsz, s.b.rows = nn;
    else
        s.b.p += n0 * bsz, s.b.cols = nn;
    s.c.p += (m0 * g->c.ld + n0) * tl_dtype_size(g->c.v->dtype);
    s.c.rows = s.M = mn;
    s.c.cols = s.N = nn;
    return s;
}

// Computes g on the calling thread; false when out of memory.
static bool gemm_compute(const gemm_t *g)
{
    const mat_t *a = &g->a, *b = &g->b, *c = &g->c;
    int64_t M = g->M, N = g->N, K = g->K;
    // per-thread buffers kept from call to call (tileop_gemm_scratch.h)
    size_t esz = g->is_int ? sizeof(int32_t) : sizeof(float);
    bool simd = g->is_int && a->v->dtype == TL_I8;
    void *abuf = tl_gemm_scratch(TL_GEMM_SCRATCH_A, (size_t)(M * K) * esz);
    if (abuf && simd && simd_int8(a, g->ta, b, g->tb, c, M, N, K, g->init, abuf)) return true;
    void *bbuf = tl_gemm_scratch(TL_GEMM_SCRATCH_B, (size_t)(K * N) * esz);
    int64_t *acc = g->is_int ? tl_gemm_scratch(TL_GEMM_SCRATCH_TMP, (size_t)N * sizeof *acc) : NULL;
    if (!abuf || !bbuf || (g->is_int && !acc)) return false;
    if (g->is_int) {
        load_int(a, g->ta, abuf);
        load_int(b, g->tb, bbuf);
        gemm_i32(M, N, K, abuf, bbuf, (int32_t *)c->p, c->ld, g->init, acc);
    } else {
        if (a->v->dtype == TL_BF16 && !g->ta && !g->tb &&
            tl_gemm_x86_bf16(M, N, K, (const uint16_t *)a->p, a->ld, (const uint16_t *)b->p, b->ld,
                             (float *)c->p, c->ld, g->init))
            return true;
        load_float(a, g->ta, abuf);
        load_float(b, g->tb, bbuf);
        bool exact = tl_dtype_size(a->v->dtype) <= 2; // products of 16-bit floats are exact
        if (!tl_gemm_x86_f32(M, N, K, abuf, K, 1, bbuf, (float *)c->p, c->ld, g->init, exact))
            gemm_f32(M, N, K, abuf, bbuf, (float *)c->p, c->ld, g->init);
    }
    return true;
}

// Splitting a gemm over threads (ctx->share): parts are ranges of C's rows or
// columns, in units of the SIMD kernels' register blocks. Every C element is
// still computed by the same sequence of operations (its k loop does not
// depend on the block it is in), so the bits do not depend on the split.
enum {
    // per part: below this the hand-off costs more than it saves. On the Zen 5
    // VM of 2026-12-04 a cache line goes from one vCPU to the other and back
    // in about 1 us, 16 KB in about 4 us: bfloat16 gemms split in two came
    // out 1.2x slower at 0.5 M multiply-adds (64 x 128 x 64), even at 2 M
    // and 1.9x faster at 4 M (64 x 512 x 128)
    SPLIT_MIN_MACS = 1 << 21,
    SPLIT_MAX_PARTS = 16,
    SPLIT_ROWS = 6,  // rows of a register block
    SPLIT_COLS = 16, // columns of a panel
    SPLIT_WIDE = 64, // columns of a float register block (4 panels)
};

typedef struct {
    const gemm_t *g;
    bool by_cols;
    int64_t unit, units, nparts;
    bool ok[SPLIT_MAX_PARTS];
} gemm_split_t;

static void gemm_part(void *arg, int64_t i, int thread)
{
    (void)thread;
    gemm_split_t *s = arg;
    const gemm_t *g = s->g;
    int64_t dim = s->by_cols ? g->N : g->M;
    int64_t lo = TL_MIN(s->units * i / s->nparts * s->unit, dim);
    int64_t hi = TL_MIN(s->units * (i + 1) / s->nparts * s->unit, dim);
    gemm_t sub = s->by_cols ? sub_gemm(g, 0, g->M, lo, hi - lo) : sub_gemm(g, lo, hi - lo, 0, g->N);
    s->ok[i] = hi == lo || gemm_compute(&sub);
}

// Splits g when threads are idle and it is big enough; false: not split.
static bool gemm_split(tl_tileop_ctx_t *ctx, const gemm_t *g, bool *ok)
{
    if (!ctx->share || g->a.s4) return false; // int4 parts could start mid-byte
    int64_t macs = g->M * g->N * g->K;
    int64_t n =
        TL_MIN(TL_MIN((int64_t)ctx->share->idle() + 1, SPLIT_MAX_PARTS), macs / SPLIT_MIN_MACS);
    if (n < 2) return false;
    gemm_split_t s = {.g = g, .nparts = n};
    // int8 packs B per call (cheaper split over columns); float keeps 4-panel
    // blocks when each part still has 64 columns, else splits the rows
    bool cols =
        g->is_int ? g->N >= SPLIT_COLS * n : g->N >= SPLIT_WIDE * n || g->M < SPLIT_ROWS * n;
    if (cols ? g->N < SPLIT_COLS * n : g->M < SPLIT_ROWS * n) return false;
    s.by_cols = cols;
    s.unit = cols ? SPLIT_COLS : SPLIT_ROWS;
    s.units = ((cols ? g->N : g->M) + s.unit - 1) / s.unit;
    ctx->share->run(n, gemm_part, &s);
    *ok = true;
    for (int64_t i = 0; i < n; i++) *ok &= s.ok[i];
    return true;
}

tl_status_t tl_tileop_gemm_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    bool mma = call->op->code == TL_OP_MMA;
    bool ta = !mma && call->op->transpose_a, tb = !mma && call->op->transpose_b;
    mat_t a, b, c;
    tl_status_t st;
    if ((st = matrix(ctx, call, 0, "A", mma ? TL_SCOPE_L0A : TL_SCOPE_L1, &a)) != TL_OK ||
        (st = matrix(ctx, call, 1, "B", mma ? TL_SCOPE_L0B : TL_SCOPE_L1, &b)) != TL_OK ||
        (st = matrix(ctx, call, 2, "C", TL_SCOPE_L0C, &c)) != TL_OK)
        return st;
    int64_t M = ta ? a.cols : a.rows, K = ta ? a.rows : a.cols;
    int64_t KB = tb ? b.cols : b.rows, N = tb ? b.rows : b.cols;
    if (K != KB || M != c.rows || N != c.cols)
        return tl_tileop_fail(
            ctx, call, TL_ERR_RUNTIME,
            "shapes do not match: A '%s' [%lld, %lld]%s, B '%s' [%lld, %lld]%s, C '%s' [%lld, "
            "%lld]",
            a.v->name, (long long)a.rows, (long long)a.cols, ta ? " (transposed)" : "", b.v->name,
            (long long)b.rows, (long long)b.cols, tb ? " (transposed)" : "", c.v->name,
            (long long)c.rows, (long long)c.cols);
    // k_actual / n_actual: the multiply uses the first K rows of op(B) and
    // columns of op(A), and writes the first N columns of C
    if ((call->has_k_valid && call->k_valid > K) || (call->has_n_valid && call->n_valid > N))
        return tl_tileop_fail(
            ctx, call, TL_ERR_RUNTIME, "%s %lld is larger than the operands' %lld",
            call->has_k_valid && call->k_valid > K ? "k_actual" : "n_actual",
            (long long)(call->has_k_valid && call->k_valid > K ? call->k_valid : call->n_valid),
            (long long)(call->has_k_valid && call->k_valid > K ? K : N));
    if (call->has_k_valid) {
        K = call->k_valid;
        *(ta ? &a.rows : &a.cols) = K;
        *(tb ? &b.cols : &b.rows) = K;
    }
    if (call->has_n_valid) {
        N = c.cols = call->n_valid;
        *(tb ? &b.rows : &b.cols) = N;
    }
    bool is_int = false;
    if ((st = check_types(ctx, call, &a, &b, &c, &is_int)) != TL_OK) return st;
    bool init = call->init.is_float ? call->init.f != 0 : call->init.i != 0;
    if (M == 0 || N == 0) return TL_OK;
    gemm_t g = {a, b, c, ta, tb, init, is_int, M, N, K};
    bool ok;
    if (!gemm_split(ctx, &g, &ok)) ok = gemm_compute(&g);
    if (!ok)
        return tl_tileop_fail(ctx, call, TL_ERR_NOMEM, "out of memory for a %lldx%lldx%lld gemm",
                              (long long)M, (long long)N, (long long)K);
    return TL_OK;
}
