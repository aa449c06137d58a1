// The check cases: every kernel under kernels/ with its golden reference and
// tolerances, at a small shape and a larger one (model-like for the DeepSeek-V4
// operators, scaled to run in seconds), plus tails and dtype variants for the
// examples. Goldens come from src/ref/ and never from the tile-op library.
#include "check/check.h"

#include "base/fexp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref.h"

// --- helpers -----------------------------------------------------------------------------

typedef struct {
    float *f[8];
    int n;
} floats_t;

static float *floats(floats_t *fs, tl_check_io_t *io, const char *name)
{
    tl_tensor_t *t = tl_check_tensor(io, name);
    float *f = t ? tl_check_floats(t) : NULL;
    if (f && fs->n < 8) fs->f[fs->n++] = f;
    return f;
}

static void floats_free(floats_t *fs)
{
    for (int i = 0; i < fs->n; i++) free(fs->f[i]);
}

// Stores float results into an expected tensor (rounded to its dtype with RNE).
static void store(tl_tensor_t *t, const float *v)
{
    size_t n = tl_tensor_numel(t);
    for (size_t i = 0; i < n; i++) tl_tensor_set_flat(t, i, v[i]);
}

static tl_status_t missing(tl_diag_t *d, const char *what)
{
    return tl_diag_fail(d, TL_ERR_ARG, "golden: %s", what);
}

// --- DeepSeek-V4 goldens --------------------------------------------------------------------

static tl_status_t golden_sparse_attn(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *q = tl_check_tensor(io, "q"), *kv = tl_check_tensor(io, "kv");
    tl_tensor_t *idx = tl_check_tensor(io, "topk_idxs");
    tl_tensor_t *want = tl_check_expected(io, "out", d);
    if (!q || !kv || !idx || !want) return missing(d, "sparse_attn needs q, kv, topk_idxs and out");
    tl_sparse_attn_params_t p = {q->shape[0],  q->shape[1],   q->shape[2], q->shape[3],
                                 kv->shape[1], idx->shape[2], 0,           TL_REF_EXACT,
                                 TL_REF_BF16,  TL_REF_F32};
    p.scale = (float)(1.0 / sqrt((double)p.d));
    floats_t fs = {0};
    float *fq = floats(&fs, io, "q"), *fkv = floats(&fs, io, "kv"),
          *fsink = floats(&fs, io, "attn_sink");
    float *out = malloc(sizeof(float) * tl_tensor_numel(want));
    tl_status_t st = fq && fkv && fsink && out ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK)
        st = tl_sparse_attn_ref(&p, fq, fkv, fsink, (const int32_t *)idx->data, out, d);
    if (st == TL_OK) store(want, out);
    free(out);
    floats_free(&fs);
    return st;
}

static tl_status_t golden_hc_sinkhorn(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *mixes = tl_check_tensor(io, "mixes");
    tl_tensor_t *pre = tl_check_expected(io, "pre", d), *post = tl_check_expected(io, "post", d);
    tl_tensor_t *comb = tl_check_expected(io, "comb", d);
    if (!mixes || !pre || !post || !comb)
        return missing(d, "hc_split_sinkhorn needs mixes, pre, post, comb");
    tl_hc_sinkhorn_params_t p = tl_hc_sinkhorn_defaults(mixes->shape[0]);
    p.hc = pre->shape[1];
    floats_t fs = {0};
    float *fm = floats(&fs, io, "mixes"), *fsc = floats(&fs, io, "hc_scale"),
          *fb = floats(&fs, io, "hc_base");
    float *o1 = malloc(sizeof(float) * tl_tensor_numel(pre)),
          *o2 = malloc(sizeof(float) * tl_tensor_numel(post));
    float *o3 = malloc(sizeof(float) * tl_tensor_numel(comb));
    tl_status_t st = fm && fsc && fb && o1 && o2 && o3 ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK) st = tl_hc_sinkhorn_ref(&p, fm, fsc, fb, o1, o2, o3, d);
    if (st == TL_OK) {
        store(pre, o1);
        store(post, o2);
        store(comb, o3);
    }
    free(o1);
    free(o2);
    free(o3);
    floats_free(&fs);
    return st;
}

static tl_status_t golden_int8_gemm(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, "B");
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    if (!a || !b || !want) return missing(d, "int8_gemm needs A, B and C");
    tl_int8_gemm_params_t p = {a->shape[0], b->shape[0], a->shape[1], TL_INT8_GEMM_SCALE_SEQ,
                               TL_REF_F32};
    if (want->dtype == TL_BF16)
        p.out_prec = TL_REF_BF16;
    else if (want->dtype == TL_F16)
        p.out_prec = TL_REF_F16;
    floats_t fs = {0};
    float *sa = floats(&fs, io, "scale_a"), *sb = floats(&fs, io, "scale_b");
    tl_status_t st = sa && sb ? TL_OK : TL_ERR_NOMEM;
    // float outputs are written as floats, bf16/f16 as their bit patterns: both
    // match the expected tensor's memory layout.
    if (st == TL_OK)
        st = tl_int8_gemm_ref(&p, (const int8_t *)a->data, (const int8_t *)b->data, sa, sb,
                              want->data, d);
    floats_free(&fs);
    return st;
}

static tl_status_t act_quant_common(tl_check_io_t *io, int64_t block, bool round_scale,
                                    tl_diag_t *d)
{
    tl_tensor_t *x = tl_check_tensor(io, "X");
    tl_tensor_t *y = tl_check_expected(io, "Y", d), *s = tl_check_expected(io, "S", d);
    if (!x || !y || !s) return missing(d, "act_quant needs X, Y and S");
    tl_act_quant_params_t p = tl_act_quant_defaults(x->shape[0], x->shape[1]);
    p.block = block;
    p.round_scale = round_scale;
    if (y->dtype == TL_F8E4M3) p.target = TL_ACT_QUANT_E4M3;
    floats_t fs = {0};
    float *fx = floats(&fs, io, "X");
    float *scale = malloc(sizeof(float) * tl_tensor_numel(s));
    tl_status_t st = fx && scale ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK) st = tl_act_quant_ref(&p, fx, y->data, scale, d);
    if (st == TL_OK) store(s, scale);
    free(scale);
    floats_free(&fs);
    return st;
}

// Whether the case passes NAME=True to the factory (default False).
static bool case_flag(const tl_check_case_t *c, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < TL_CHECK_MAX_ITEMS && c->args[i]; i++)
        if (!strncmp(c->args[i], name, n) && !strcmp(c->args[i] + n, "=True")) return true;
    return false;
}

static tl_status_t golden_act_quant(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    return act_quant_common(io, 0, case_flag(c, "round_scale"), d);
}

static tl_status_t golden_act_quant_block(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *x = tl_check_tensor(io, "X"), *s = tl_check_tensor(io, "S");
    if (!x || !s) return missing(d, "act_quant_block needs X and S");
    int64_t groups = s->shape[1];
    int64_t block = (x->shape[1] + groups - 1) / groups;
    return act_quant_common(io, block, true, d); // the case passes round_scale=True
}

// --- example goldens ------------------------------------------------------------------------

static tl_ref_prec_t prec_of(tl_dtype_t t)
{
    return t == TL_BF16 ? TL_REF_BF16 : t == TL_F16 ? TL_REF_F16 : TL_REF_F32;
}

// The factory argument NAME=VALUE of the case as a number, or `def` when absent.
static double arg_num(const tl_check_case_t *c, const char *name, double def)
{
    size_t n = strlen(name);
    for (int i = 0; i < TL_CHECK_MAX_ITEMS && c->args[i]; i++)
        if (!strncmp(c->args[i], name, n) && c->args[i][n] == '=') return atof(c->args[i] + n + 1);
    return def;
}

static tl_status_t golden_add(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    if (!want) return missing(d, "elementwise_add needs C");
    floats_t fs = {0};
    float *fa = floats(&fs, io, "A"), *fb = floats(&fs, io, "B");
    float *out = malloc(sizeof(float) * (tl_tensor_numel(want) + 1));
    tl_status_t st = fa && fb && out ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK)
        st = tl_generic_add(fa, fb, out, (int64_t)tl_tensor_numel(want), prec_of(want->dtype), d);
    if (st == TL_OK) store(want, out);
    free(out);
    floats_free(&fs);
    return st;
}

// T.tile.cast float32 -> float32 by mode: A / 4 rounded to an integral value
// with rint, floor, ceil, round (half away from zero) and trunc.
static tl_status_t golden_cast_round(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    static const char *outs[] = {"R", "F", "C", "D", "Z"};
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    tl_status_t st = a ? TL_OK : TL_ERR_NOMEM;
    for (int m = 0; m < 5 && st == TL_OK; m++) {
        tl_tensor_t *want = tl_check_expected(io, outs[m], d);
        if (!want) {
            st = missing(d, "cast_round needs R, F, C, D and Z");
            break;
        }
        for (size_t i = 0; i < tl_tensor_numel(want); i++) {
            float x = a[i] * 0.25f;
            float r = m == 0   ? rintf(x)
                      : m == 1 ? floorf(x)
                      : m == 2 ? ceilf(x)
                      : m == 3 ? roundf(x)
                               : truncf(x);
            tl_tensor_set_flat(want, i, r);
        }
    }
    floats_free(&fs);
    return st;
}

// cast_round into float16 / bfloat16: A * scale with each mode
// (O: ODD into float16, TRUNC into bfloat16), rounded by tilec's exact routine.
static tl_status_t golden_cast_narrow(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    static const char *outs[] = {"R", "F", "C", "D", "Z", "O"};
    tl_round_t modes[] = {TL_CAST_RINT,  TL_CAST_FLOOR, TL_CAST_CEIL,
                          TL_CAST_ROUND, TL_CAST_TRUNC, TL_CAST_ODD};
    float scale = (float)arg_num(c, "scale", 1.0);
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    tl_status_t st = a ? TL_OK : TL_ERR_NOMEM;
    for (int m = 0; m < 6 && st == TL_OK; m++) {
        tl_tensor_t *want = tl_check_expected(io, outs[m], d);
        if (!want) {
            st = missing(d, "cast_round needs R, F, C, D, Z and O");
            break;
        }
        bool bf = want->dtype == TL_BF16;
        tl_round_t mode = bf && m == 5 ? TL_CAST_TRUNC : modes[m];
        for (size_t i = 0; i < tl_tensor_numel(want); i++) {
            float x = a[i] * scale;
            tl_tensor_set_flat(want, i,
                               bf ? tl_bf16_to_f32(tl_f32_to_bf16(x, mode))
                                  : tl_f16_to_f32(tl_f32_to_f16(x, mode)));
        }
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/count_past.py: counts past the buffers leave the output
// tiles as the ops compute them from the right inputs: B = rint(A) (cast_past),
// B = A * 0.5 as float16 (int32 source), Y = clamp(X, -1.5, 2) (clamp_rows).
static tl_status_t golden_count_past(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    bool clamp = !strcmp(c->kernel, "clamp_rows"), deq = strstr(c->name, "deq") != NULL;
    floats_t fs = {0};
    float *a = floats(&fs, io, clamp ? "X" : "A");
    tl_tensor_t *want = tl_check_expected(io, clamp ? "Y" : "B", d);
    tl_status_t st = !a ? TL_ERR_NOMEM : !want ? missing(d, "count_past needs its output") : TL_OK;
    for (size_t i = 0; st == TL_OK && i < tl_tensor_numel(want); i++)
        tl_tensor_set_flat(want, i,
                           clamp ? fminf(fmaxf(a[i], -1.5f), 2.0f)
                           : deq ? a[i] * 0.5f
                                 : rintf(a[i]));
    floats_free(&fs);
    return st;
}

// tests/data/kernels/deq_store.py: C = float16(acc * scale) (relu: a negative
// product is 0), acc the exact int32 sum of A[i, :] * B[j, :], scale 1/3 as float32.
static tl_status_t golden_deq_store(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    bool relu = strstr(c->name, "relu") != NULL;
    tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, "B");
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    if (!a || !b || !want) return missing(d, "deq_store needs A, B and C");
    const int8_t *pa = (const int8_t *)a->data, *pb = (const int8_t *)b->data;
    int64_t M = a->shape[0], K = a->shape[1], N = b->shape[0];
    double scale = (float)(1.0 / 3.0);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            int64_t acc = 0;
            for (int64_t k = 0; k < K; k++) acc += pa[i * K + k] * pb[j * K + k];
            double v = (double)acc * scale;
            tl_tensor_set_flat(want, (size_t)(i * N + j), relu && v < 0 ? 0.0 : v);
        }
    return TL_OK;
}

// tests/data/kernels/argmax_rows.py: Out[r] = (first index of row r's maximum, 0, ..., 0).
static tl_status_t golden_argmax_rows(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    tl_tensor_t *in = tl_check_tensor(io, "A"), *want = tl_check_expected(io, "Out", d);
    tl_status_t st = !a || !in ? TL_ERR_NOMEM : !want ? missing(d, "argmax_rows needs Out") : TL_OK;
    for (int64_t r = 0; st == TL_OK && r < want->shape[0]; r++) {
        int64_t n = in->shape[1], best = 0;
        for (int64_t j = 1; j < n; j++)
            if (a[r * n + j] > a[r * n + best]) best = j;
        for (int64_t j = 0; j < 8; j++)
            tl_tensor_set_flat(want, (size_t)(r * 8 + j), j ? 0 : (double)best);
    }
    floats_free(&fs);
    return st;
}

// mma_unit_flag: per column tile t, C[:, t*NV + j] = sum over k < KV of
// A[:, k] B[k, t*N + j] (N the tile pitch in B), summed exactly and rounded
// once to float32; A and B's data past KV and NV must not count.
static tl_status_t golden_mma_valid(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, "B");
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    if (!a || !b || !want) return missing(d, "mma_unit_flag needs A, B and C");
    int64_t kv = (int64_t)arg_num(c, "KV", 100), nv = (int64_t)arg_num(c, "NV", 40);
    int64_t nt = want->shape[1] / nv, pitch = b->shape[1] / nt, k = a->shape[1];
    floats_t fs = {0};
    float *fa = floats(&fs, io, "A"), *fb = floats(&fs, io, "B");
    tl_status_t st = fa && fb ? TL_OK : TL_ERR_NOMEM;
    for (int64_t m = 0; st == TL_OK && m < want->shape[0]; m++)
        for (int64_t col = 0; col < want->shape[1]; col++) {
            double acc = 0;
            for (int64_t l = 0; l < kv; l++)
                acc += (double)fa[m * k + l] * fb[l * b->shape[1] + col / nv * pitch + col % nv];
            tl_tensor_set_flat(want, (size_t)(m * want->shape[1] + col), (float)acc);
        }
    floats_free(&fs);
    return st;
}

// T.tile.fill with a buffer's element as the value: B = A[3], C = A[5] everywhere.
static tl_status_t golden_fill_value(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    tl_tensor_t *b = tl_check_expected(io, "B", d), *cc = tl_check_expected(io, "C", d);
    tl_status_t st = !a ? TL_ERR_NOMEM : !b || !cc ? missing(d, "fill_value needs B and C") : TL_OK;
    for (size_t i = 0; st == TL_OK && i < tl_tensor_numel(b); i++) {
        tl_tensor_set_flat(b, i, a[3]);
        tl_tensor_set_flat(cc, i, a[5]);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_ops.py: upstream's npuir element-wise family, the
// formulas its header states (float32, each step rounded; the library's exp).
static tl_status_t golden_npuir_ops(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *o = tl_check_expected(io, "O", d), *r = tl_check_expected(io, "R", d);
    tl_tensor_t *f = tl_check_expected(io, "F", d), *g = tl_check_expected(io, "G", d);
    tl_tensor_t *h = tl_check_expected(io, "H", d);
    tl_status_t st = !a || !b ? TL_ERR_NOMEM : !o || !r || !f || !g || !h ? missing(d, "npuir_ops' outputs") : TL_OK;
    int64_t n = st == TL_OK ? o->shape[1] : 0, m = st == TL_OK ? r->shape[0] : 0;
    const float ln2 = (float)0.69314718055994530942, inv_ln2 = (float)(1.0 / 0.69314718055994530942);
    for (int64_t i = 0; i < n; i++) {
        float x = a[i], y = b[i], e = x * 0.125f;
        float v[19] = {x + y,          x - 2.0f,         x * y,        x / y,
                       fmaxf(x, y),    fminf(x, 0.5f),   fabsf(x),     x < 0 ? 0.0f : x,
                       sqrtf(fabsf(x)), 1.0f / y,        fminf(fmaxf(x, -3.0f), 5.0f),
                       tl_expf(e * ln2), logf(y) * inv_ln2, tl_expf(e), logf(y),
                       1.0f / sqrtf(y), 1.0f / (1.0f + tl_expf(-e)), tanhf(e), erff(e)};
        for (int k = 0; k < 19; k++) tl_tensor_set_flat(o, (size_t)(k * n + i), v[k]);
        for (int64_t row = 0; row < m; row++) {
            size_t at = (size_t)(row * n + i);
            tl_tensor_set_flat(r, at, x);
            tl_tensor_set_flat(f, at, row < 2 ? 1.5f : 0.0f);
            tl_tensor_set_flat(g, at, a[2]);
        }
        tl_tensor_set_flat(h, (size_t)i, x * 0.25f);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_copy.py: npuir's exact copies: Y = [X[0] | X[1]],
// P = X[0]'s groups of 4 in reverse order, C = X[1, :, 3], S = X[0] with X[1]'s rows 0..1.
static tl_status_t golden_npuir_copy(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *x = tl_check_tensor(io, "X"), *y = tl_check_expected(io, "Y", d);
    tl_tensor_t *p = tl_check_expected(io, "P", d), *col = tl_check_expected(io, "C", d);
    tl_tensor_t *sq = tl_check_expected(io, "S", d);
    if (!x || !y || !p || !col || !sq) return missing(d, "npuir_copy needs X, Y, P, C and S");
    int64_t rows = x->shape[1], w = x->shape[2], groups = rows * w / 4;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < 2 * w; j++)
            tl_tensor_set_flat(y, (size_t)(r * 2 * w + j),
                               tl_tensor_get_flat(x, (size_t)((j / w) * rows * w + r * w + j % w)));
    for (int64_t g = 0; g < groups; g++)
        for (int64_t i = 0; i < 4; i++)
            tl_tensor_set_flat(p, (size_t)((groups - 1 - g) * 4 + i), tl_tensor_get_flat(x, (size_t)(g * 4 + i)));
    for (int64_t r = 0; r < rows; r++)
        tl_tensor_set_flat(col, (size_t)r, tl_tensor_get_flat(x, (size_t)(rows * w + r * w + 3)));
    for (int64_t i = 0; i < rows * w; i++) // rows 0..1 from X[1], the rest X[0]'s
        tl_tensor_set_flat(sq, (size_t)i, tl_tensor_get_flat(x, (size_t)(i < 2 * w ? rows * w + i : i)));
    return TL_OK;
}

// tests/data/kernels/npuir_gemm.py: C = A x B, D = 2 (A[:, :K/2] x B[:K/2, :]) + A[:, K/2:] x
// B[K/2:, :], E = (A + A) x B (integer inputs: exact).
static tl_status_t golden_npuir_gemm(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *oc = tl_check_expected(io, "C", d), *od = tl_check_expected(io, "D", d);
    tl_tensor_t *oe = tl_check_expected(io, "E", d), *ta = tl_check_tensor(io, "A");
    tl_status_t st = !a || !b ? TL_ERR_NOMEM : !oc || !od || !oe || !ta ? missing(d, "npuir_gemm's outputs") : TL_OK;
    int64_t m = st == TL_OK ? oc->shape[0] : 0, n = st == TL_OK ? oc->shape[1] : 0;
    int64_t k = st == TL_OK ? ta->shape[1] : 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double lo = 0, hi = 0;
            for (int64_t q = 0; q < k; q++) *(q < k / 2 ? &lo : &hi) += (double)a[i * k + q] * b[q * n + j];
            size_t at = (size_t)(i * n + j);
            tl_tensor_set_flat(oc, at, lo + hi);
            tl_tensor_set_flat(od, at, 2 * lo + hi);
            tl_tensor_set_flat(oe, at, 2 * (lo + hi));
        }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_atomic.py: Y = Y0 + X (block tails of size=), Z's rows 4 X[0:bs].
static tl_status_t golden_npuir_atomic(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *x = floats(&fs, io, "X"), *y0 = floats(&fs, io, "Y0");
    tl_tensor_t *y = tl_check_expected(io, "Y", d), *z = tl_check_expected(io, "Z", d);
    tl_status_t st = !x || !y0 ? TL_ERR_NOMEM : !y || !z ? missing(d, "npuir_atomic's outputs") : TL_OK;
    int64_t n = st == TL_OK ? y->shape[0] : 0, rows = st == TL_OK ? z->shape[0] : 0;
    int64_t bs = st == TL_OK ? z->shape[1] : 0;
    for (int64_t i = 0; i < n; i++) tl_tensor_set_flat(y, (size_t)i, y0[i] + x[i]);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < bs; j++) tl_tensor_set_flat(z, (size_t)(r * bs + j), 4 * x[j]);
    floats_free(&fs);
    return st;
}

// o's first m x n elements = scale (a x b), a m x k and b k x n row-major, summed in
// double and rounded once (the npuir goldens' integer inputs make it exact).
static void store_matmul(tl_tensor_t *o, const float *a, const float *b, int64_t m, int64_t n, int64_t k,
                         double scale)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = 0;
            for (int64_t q = 0; q < k; q++) acc += (double)a[i * k + q] * b[q * n + j];
            tl_tensor_set_flat(o, (size_t)(i * n + j), scale * acc);
        }
}

// tests/data/kernels/npuir_expert.py: C = 3 (A x B) (integer inputs: exact).
static tl_status_t golden_npuir_expert(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *o = tl_check_expected(io, "C", d), *ta = tl_check_tensor(io, "A");
    tl_status_t st = !a || !b ? TL_ERR_NOMEM : !o || !ta ? missing(d, "npuir_expert needs A and C") : TL_OK;
    int64_t m = st == TL_OK ? o->shape[0] : 0, n = st == TL_OK ? o->shape[1] : 0;
    int64_t k = st == TL_OK ? ta->shape[1] : 0;
    store_matmul(o, a, b, m, n, k, 3);
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_sized.py: MX = row max of X[:, :N/2], SM = row sums of |X|,
// H = X[:, :16] as float16 and 0 after, XB = X as bfloat16, XH = X as float16.
static tl_status_t golden_npuir_sized(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *x = floats(&fs, io, "X");
    tl_tensor_t *mx = tl_check_expected(io, "MX", d), *sm = tl_check_expected(io, "SM", d);
    tl_tensor_t *h = tl_check_expected(io, "H", d), *xb = tl_check_expected(io, "XB", d);
    tl_tensor_t *xh = tl_check_expected(io, "XH", d);
    tl_status_t st = !x ? TL_ERR_NOMEM : !mx || !sm || !h || !xb || !xh ? missing(d, "npuir_sized's outputs") : TL_OK;
    int64_t m = st == TL_OK ? h->shape[0] : 0, n = st == TL_OK ? h->shape[1] : 0;
    for (int64_t r = 0; r < m; r++) {
        float top = x[r * n], s = 0;
        for (int64_t j = 0; j < n; j++) {
            if (j < n / 2) top = fmaxf(top, x[r * n + j]);
            s += fabsf(x[r * n + j]);
            tl_tensor_set_flat(h, (size_t)(r * n + j), j < 16 ? x[r * n + j] : 0.0f);
            tl_tensor_set_flat(xb, (size_t)(r * n + j), x[r * n + j]);
            tl_tensor_set_flat(xh, (size_t)(r * n + j), x[r * n + j]);
        }
        tl_tensor_set_flat(mx, (size_t)r, top);
        tl_tensor_set_flat(sm, (size_t)r, s);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_reshape.py: R = A x B as (1, M, N), G[i, j] = 3 + i + 4 j.
static tl_status_t golden_npuir_reshape(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *r = tl_check_expected(io, "R", d), *g = tl_check_expected(io, "G", d), *ta = tl_check_tensor(io, "A");
    tl_status_t st = !a || !b ? TL_ERR_NOMEM : !r || !g || !ta ? missing(d, "npuir_reshape's outputs") : TL_OK;
    int64_t m = st == TL_OK ? r->shape[1] : 0, n = st == TL_OK ? r->shape[2] : 0, k = st == TL_OK ? ta->shape[1] : 0;
    store_matmul(r, a, b, m, n, k, 1);
    for (int64_t i = 0; st == TL_OK && i < g->shape[0]; i++)
        for (int64_t j = 0; j < g->shape[1]; j++) tl_tensor_set_flat(g, (size_t)(i * g->shape[1] + j), (double)(3 + i + 4 * j));
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_broadcast.py: C = B[1, :] / ((A + B[0, :]) - B[:, 3]).
static tl_status_t golden_npuir_broadcast(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *o = tl_check_expected(io, "C", d);
    tl_status_t st = !a || !b ? TL_ERR_NOMEM : !o ? missing(d, "npuir_broadcast needs C") : TL_OK;
    int64_t m = st == TL_OK ? o->shape[0] : 0, n = st == TL_OK ? o->shape[1] : 0;
    for (int64_t r = 0; r < m; r++)
        for (int64_t j = 0; j < n; j++) {
            float x = (a[r * n + j] + b[j]) - b[r * n + 3];
            tl_tensor_set_flat(o, (size_t)(r * n + j), b[n + j] / x);
        }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_reduce.py: row max, column sums, row sums of |A|, and |A|.
static tl_status_t golden_npuir_reduce(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    tl_tensor_t *mx = tl_check_expected(io, "MX", d), *sm = tl_check_expected(io, "SM", d);
    tl_tensor_t *as = tl_check_expected(io, "AS", d), *ab = tl_check_expected(io, "AB", d);
    tl_status_t st = !a ? TL_ERR_NOMEM : !mx || !sm || !as || !ab ? missing(d, "npuir_reduce's outputs") : TL_OK;
    int64_t m = st == TL_OK ? ab->shape[0] : 0, n = st == TL_OK ? ab->shape[1] : 0;
    for (int64_t j = 0; j < n; j++) { // integer values: every sum exact
        float s = 0;
        for (int64_t r = 0; r < m; r++) s += a[r * n + j];
        tl_tensor_set_flat(sm, (size_t)j, s);
    }
    for (int64_t r = 0; r < m; r++) {
        float x = a[r * n], s = 0;
        for (int64_t j = 0; j < n; j++) {
            x = fmaxf(x, a[r * n + j]);
            s += fabsf(a[r * n + j]);
            tl_tensor_set_flat(ab, (size_t)(r * n + j), fabsf(a[r * n + j]));
        }
        tl_tensor_set_flat(mx, (size_t)r, x);
        tl_tensor_set_flat(as, (size_t)r, s);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/npuir_select.py: C = A > B, M = C ? A : B, L = (A <= 0) ? A : -1.5.
static tl_status_t golden_npuir_select(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *cm = tl_check_expected(io, "C", d), *m = tl_check_expected(io, "M", d);
    tl_tensor_t *l = tl_check_expected(io, "L", d);
    tl_status_t st = !a || !b ? TL_ERR_NOMEM : !cm || !m || !l ? missing(d, "npuir_select's outputs") : TL_OK;
    for (size_t i = 0; st == TL_OK && i < tl_tensor_numel(m); i++) {
        tl_tensor_set_flat(cm, i, a[i] > b[i]);
        tl_tensor_set_flat(m, i, a[i] > b[i] ? a[i] : b[i]);
        tl_tensor_set_flat(l, i, a[i] <= 0 ? a[i] : -1.5f);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/mask_ops.py: compare + select, createvecindex, xor, the
// shifts, silu, axpy (float32: the product and the sum each rounded),
// reinterpretcast, element by element; row sum and max with clear=False.
static tl_status_t golden_mask_ops(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    static const char *outs[] = {"MX", "TH", "IX", "XO", "SH", "SI", "AX", "RB", "XS", "PW", "PS"};
    tl_tensor_t *w[11];
    for (int i = 0; i < 11; i++)
        if (!(w[i] = tl_check_expected(io, outs[i], d))) return missing(d, "mask_ops: an output");
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_tensor_t *k = tl_check_tensor(io, "K");
    if (!a || !b || !k) {
        floats_free(&fs);
        return TL_ERR_NOMEM;
    }
    for (size_t i = 0; i < tl_tensor_numel(w[0]); i++) {
        int32_t ki = ((const int32_t *)k->data)[i], ix = 7 + (int32_t)i, bits;
        float p = 0.75f * a[i];
        memcpy(&bits, &a[i], sizeof bits);
        tl_tensor_set_flat(w[0], i, a[i] > b[i] ? a[i] : b[i]);
        tl_tensor_set_flat(w[1], i, a[i] <= 0.25f ? a[i] : -1.5f);
        tl_tensor_set_flat(w[2], i, ix);
        tl_tensor_set_flat(w[3], i, ki ^ ix);
        tl_tensor_set_flat(w[4], i, (int32_t)((uint32_t)ki << 3) >> 5);
        tl_tensor_set_flat(w[5], i, a[i] / (1.0f + tl_expf(-a[i])));
        tl_tensor_set_flat(w[6], i, b[i] + p);
        tl_tensor_set_flat(w[7], i, bits);
        tl_tensor_set_flat(w[8], i, ki ^ 21845);
        tl_tensor_set_flat(w[9], i, powf(fabsf(a[i]), b[i]));
        tl_tensor_set_flat(w[10], i, a[i] * a[i]);
    }
    float *a2 = floats(&fs, io, "A2");
    tl_tensor_t *rs = tl_check_expected(io, "RS", d), *rx = tl_check_expected(io, "RX", d);
    if (!a2 || !rs || !rx) {
        floats_free(&fs);
        return a2 ? missing(d, "mask_ops: RS, RX") : TL_ERR_NOMEM;
    }
    for (int i = 0; i < 8; i++) { // clear=False: 1.5 + the rounded sum, max(0.25, row max)
        double sum = 0;
        float mx = a2[i * 32];
        for (int j = 0; j < 32; j++) {
            sum += a2[i * 32 + j];
            mx = a2[i * 32 + j] > mx ? a2[i * 32 + j] : mx;
        }
        tl_tensor_set_flat(rs, (size_t)i, 1.5f + (float)sum);
        tl_tensor_set_flat(rx, (size_t)i, mx > 0.25f ? mx : 0.25f);
    }
    floats_free(&fs);
    return TL_OK;
}

// tests/data/kernels/old_names.py: the formulas its header states, on integer A and
// B > 0 (every value exact in float32 but E, a correctly rounded quotient).
static tl_status_t golden_old_names(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    static const char *outs[] = {"C", "D", "E", "R", "S", "F"};
    tl_tensor_t *o[6];
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *b = floats(&fs, io, "B");
    tl_status_t st = a && b ? TL_OK : TL_ERR_NOMEM;
    for (int i = 0; i < 6 && st == TL_OK; i++)
        if (!(o[i] = tl_check_expected(io, outs[i], d))) st = missing(d, "old_names' outputs");
    int64_t m = st == TL_OK ? o[0]->shape[0] : 0, n = st == TL_OK ? o[0]->shape[1] : 0;
    for (int64_t r = 0; r < m; r++) {
        float mx = a[r * n], sum = 0;
        for (int64_t j = 0; j < n; j++) {
            size_t k = (size_t)(r * n + j);
            mx = fmaxf(mx, a[k]);
            sum += a[k];
            tl_tensor_set_flat(o[0], k, fminf(fmaxf(a[k] + 2 * b[k], b[k]), 50.0f));
            tl_tensor_set_flat(o[1], k, fabsf(a[k]) + fmaxf(a[k], 0.0f));
            tl_tensor_set_flat(o[2], k, a[k] / b[k]);
        }
        tl_tensor_set_flat(o[3], (size_t)r, mx);
        tl_tensor_set_flat(o[4], (size_t)r, sum);
        for (int64_t j = 0; j < n; j++) tl_tensor_set_flat(o[5], (size_t)(r * n + j), mx);
    }
    floats_free(&fs);
    return st;
}

// The sum of n (a power of 2) floats as a binary tree: pairs of neighbours,
// then pairs of those, each addition rounded to float32.
static float tree_sum_f32(const float *x, int n)
{
    float v[64];
    memcpy(v, x, sizeof *v * (size_t)n);
    for (; n > 1; n /= 2)
        for (int k = 0; k < n / 2; k++) v[k] = v[2 * k] + v[2 * k + 1];
    return v[0];
}

// The repeat-form reductions of tests/data/kernels/repeat_reduce.py: two
// repeats of 64 lanes, A's halves; sums as binary trees (the reference's order,
// exec/tileop_repeat.c; any order on integer inputs).
static tl_status_t golden_repeat_reduce(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    static const char *outs[] = {"BS", "BM", "WS", "WM", "WN"};
    tl_tensor_t *o[5];
    tl_status_t st = a ? TL_OK : TL_ERR_NOMEM;
    for (int i = 0; i < 5 && st == TL_OK; i++)
        if (!(o[i] = tl_check_expected(io, outs[i], d))) st = missing(d, "repeat_reduce's outputs");
    for (int r = 0; st == TL_OK && r < 2; r++) {
        const float *x = a + 64 * r;
        float sum = tree_sum_f32(x, 64), mn = x[0];
        uint32_t at = 0;
        for (int j = 0; j < 64; j++) {
            mn = x[j] < mn ? x[j] : mn;
            at = x[j] > x[at] ? (uint32_t)j : at;
        }
        for (int b = 0; b < 8; b++) {
            float bs = tree_sum_f32(x + 8 * b, 8), bm = x[8 * b];
            for (int e = 0; e < 8; e++) bm = x[8 * b + e] > bm ? x[8 * b + e] : bm;
            tl_tensor_set_flat(o[0], (size_t)(8 * r + b), bs);
            tl_tensor_set_flat(o[1], (size_t)(8 * r + b), b < 5 ? bm : -1.0); // mask 40: 5 blocks
        }
        tl_tensor_set_flat(o[2], (size_t)r, sum);
        tl_tensor_set_flat(o[3], (size_t)(2 * r), x[at]);
        memcpy((float *)o[3]->data + 2 * r + 1, &at, 4); // the index's bits
        tl_tensor_set_flat(o[4], (size_t)r, mn);
    }
    for (int i = 2; st == TL_OK && i < 5; i++) // the rest of WS, WM and WN: the fills' 0
        for (size_t k = i == 3 ? 4 : 2; k < 8; k++) tl_tensor_set_flat(o[i], k, 0.0);
    floats_free(&fs);
    return st;
}

// tests/data/kernels/reduce_sum_x.py: AscendC's ReduceSum of n elements, each
// 256-byte repeat's lanes as a binary tree (pairs of neighbours, an odd one
// carried up) and the repeats' sums in order, float32 additions (H's small
// integers sum exactly in float16, in any order).
static float repeat_tree_sum(const float *x, int n, int lanes)
{
    float acc = 0, v[128];
    for (int at = 0; at < n; at += lanes) {
        int m = n - at < lanes ? n - at : lanes;
        memcpy(v, x + at, sizeof *v * (size_t)m);
        for (; m > 1; m = (m + 1) / 2) {
            for (int k = 0; k < m / 2; k++) v[k] = v[2 * k] + v[2 * k + 1];
            if (m % 2) v[m / 2] = v[m - 1];
        }
        acc = at ? acc + v[0] : v[0];
    }
    return acc;
}

static tl_status_t golden_reduce_sum_x(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *h = floats(&fs, io, "H");
    tl_tensor_t *s = tl_check_expected(io, "S", d), *sh = tl_check_expected(io, "SH", d);
    tl_status_t st = !a || !h ? TL_ERR_NOMEM : !s || !sh ? missing(d, "reduce_sum_x's outputs") : TL_OK;
    for (size_t i = 0; st == TL_OK && i < 16; i++) {
        float v = i == 0 ? repeat_tree_sum(a, 200, 64) : i == 8 ? repeat_tree_sum(a + 64, 130, 64) : -1;
        tl_tensor_set_flat(s, i, v);
        tl_tensor_set_flat(sh, i, i == 0 ? repeat_tree_sum(h, 300, 128) : -1.0);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/bilinear.py: BilinearInterpolation as asc-devkit's A2
// implementation computes it (gathered blocks times the weights, each product
// rounded to float16; the vertical repeat's first mask lanes accumulate its
// horizontal repeats in order), written as its test's reference does.
static void bilinear_ref(const float *x, const float *o, const float *w, bool mode, int mask,
                         int voff, tl_tensor_t *out)
{
    for (int k = 0; k < 2; k++) {
        float s[128];
        for (int i = 0; i < 2; i++) {
            int n = 2 * k + i;
            for (int l = 0; l < 128; l++) {
                int j = l / 16, blk = (int)o[8 * n + j];
                float p = x[16 * blk + l % 16] * w[mode ? 8 * n + j : n];
                p = tl_f16_to_f32(tl_f32_to_f16(p, TL_CAST_RINT));
                if (i > 0 && l < mask) p = tl_f16_to_f32(tl_f32_to_f16(p + s[l], TL_CAST_RINT));
                s[l] = i == 0 || l < mask ? p : s[l];
            }
        }
        for (int l = 0; l < mask; l++) tl_tensor_set_flat(out, (size_t)(k * voff + l), s[l]);
    }
}

static tl_status_t golden_bilinear(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *x = floats(&fs, io, "X"), *o = floats(&fs, io, "O"), *w = floats(&fs, io, "W");
    tl_tensor_t *d1 = tl_check_expected(io, "D1", d), *d2 = tl_check_expected(io, "D2", d);
    tl_status_t st = !x || !o || !w ? TL_ERR_NOMEM
                     : !d1 || !d2   ? missing(d, "bilinear's outputs")
                                    : TL_OK;
    if (st == TL_OK) {
        for (size_t i = 0; i < 512; i++) tl_tensor_set_flat(d2, i, -1.0);
        bilinear_ref(x, o, w, false, 128, 128, d1);
        bilinear_ref(x, o, w, true, 72, 256, d2);
    }
    floats_free(&fs);
    return st;
}

// tests/data/kernels/reduce_sum_mask_x.py: ReduceSum's high-dimension form on
// A2/A3, float32 additions (H's small integers sum exactly in float16): the
// repeats' tree sums (mask lanes from element r * stride), summed as trees of
// up to `lanes` of them, and those as one more tree.
static float tree_f32(float *v, int n)
{
    for (; n > 1; n = (n + 1) / 2) {
        for (int k = 0; k < n / 2; k++) v[k] = v[2 * k] + v[2 * k + 1];
        if (n % 2) v[n / 2] = v[n - 1];
    }
    return v[0];
}

static float masked_sum(const float *x, int mask, int repeats, int stride, int lanes)
{
    float sums[128], v[128];
    for (int r = 0; r < repeats; r++) {
        memcpy(v, x + r * stride, sizeof *v * (size_t)mask);
        sums[r] = tree_f32(v, mask);
    }
    int n = 0;
    for (int at = 0; at < repeats; at += lanes, n++)
        sums[n] = tree_f32(sums + at, repeats - at < lanes ? repeats - at : lanes);
    return tree_f32(sums, n);
}

static tl_status_t golden_reduce_sum_mask_x(const tl_check_case_t *c, tl_check_io_t *io,
                                            tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *h = floats(&fs, io, "H");
    tl_tensor_t *s = tl_check_expected(io, "S", d), *sh = tl_check_expected(io, "SH", d);
    tl_status_t st = !a || !h    ? TL_ERR_NOMEM
                     : !s || !sh ? missing(d, "reduce_sum_mask_x's outputs")
                                 : TL_OK;
    for (size_t i = 0; st == TL_OK && i < 16; i++) {
        float v = i == 0   ? masked_sum(a, 50, 4, 64, 64)
                  : i == 8 ? masked_sum(a, 64, 70, 8, 64)
                           : -1;
        tl_tensor_set_flat(s, i, v);
        tl_tensor_set_flat(sh, i, i == 0 ? masked_sum(h, 100, 3, 128, 128) : -1.0);
    }
    floats_free(&fs);
    return st;
}

// Whether the case was given the factory argument `arg` (exactly).
static bool has_arg(const tl_check_case_t *c, const char *arg)
{
    for (int i = 0; i < TL_CHECK_MAX_ITEMS && c->args[i]; i++)
        if (!strcmp(c->args[i], arg)) return true;
    return false;
}

// T.reduce_abssum / reduce_absmax of tests/data/cli/abs_reduce.py: O = the sum
// (in double) or the maximum of |A| per row (dim -1) or per column (dim=0).
static tl_status_t golden_abs_reduce(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    bool max = has_arg(c, "op=\"absmax\""), cols = has_arg(c, "dim=0");
    tl_tensor_t *o = tl_check_expected(io, "O", d);
    const tl_tensor_t *at = tl_check_tensor(io, "A");
    if (!o || !at) return missing(d, "abs_reduce needs A and O");
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    int64_t rows = at->shape[0], ncols = at->shape[1];
    int64_t n = cols ? ncols : rows, len = cols ? rows : ncols;
    for (int64_t i = 0; a && i < n; i++) {
        double acc = 0;
        for (int64_t j = 0; j < len; j++) {
            double x = fabs((double)a[cols ? j * ncols + i : i * ncols + j]);
            acc = max ? (x > acc ? x : acc) : acc + x;
        }
        tl_tensor_set_flat(o, (size_t)i, acc);
    }
    floats_free(&fs);
    return a ? TL_OK : TL_ERR_NOMEM;
}

// T.cumsum of tests/data/cli/cumsum.py: the float32 running sums of A along its
// rows (dim -1) or columns (dim=0), from the end with reverse=True.
static tl_status_t golden_cumsum(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    bool cols = has_arg(c, "dim=0"), rev = has_arg(c, "reverse=True");
    tl_tensor_t *o = tl_check_expected(io, "O", d);
    const tl_tensor_t *at = tl_check_tensor(io, "A");
    if (!o || !at) return missing(d, "cumsum needs A and O");
    floats_t fs = {0};
    float *a = floats(&fs, io, "A");
    int64_t rows = at->shape[0], ncols = at->shape[1];
    int64_t n = cols ? ncols : rows, len = cols ? rows : ncols;
    for (int64_t i = 0; a && i < n; i++) {
        float acc = 0;
        for (int64_t k = 0; k < len; k++) {
            int64_t j = rev ? len - 1 - k : k, e = cols ? j * ncols + i : i * ncols + j;
            acc = k ? acc + a[e] : a[e];
            tl_tensor_set_flat(o, (size_t)e, acc);
        }
    }
    floats_free(&fs);
    return a ? TL_OK : TL_ERR_NOMEM;
}

// Sort32 and Gatherb of tests/data/kernels/sort32_gatherb.py.
static tl_status_t golden_sort32_gatherb(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *g = floats(&fs, io, "G"), *idx = floats(&fs, io, "I"),
          *o = floats(&fs, io, "O");
    tl_tensor_t *sw = tl_check_expected(io, "S", d), *gw = tl_check_expected(io, "GB", d);
    tl_status_t st = !a || !g || !idx || !o ? TL_ERR_NOMEM
                     : !sw || !gw           ? missing(d, "sort32_gatherb needs S and GB")
                                            : TL_OK;
    for (int r = 0; st == TL_OK && r < 2; r++) {
        int order[32];
        for (int k = 0; k < 32; k++) order[k] = k;
        for (int k = 1; k < 32; k++) // stable: a later equal score stays after
            for (int j = k; j > 0 && a[32 * r + order[j - 1]] < a[32 * r + order[j]]; j--) {
                int t = order[j];
                order[j] = order[j - 1], order[j - 1] = t;
            }
        for (int k = 0; k < 32; k++) {
            uint32_t bits = (uint32_t)idx[32 * r + order[k]];
            ((float *)sw->data)[2 * (32 * r + k)] = a[32 * r + order[k]];
            memcpy((float *)sw->data + 2 * (32 * r + k) + 1, &bits, 4);
        }
    }
    for (int k = 0; st == TL_OK && k < 16; k++)
        for (int e = 0; e < 8; e++)
            tl_tensor_set_flat(gw, (size_t)(8 * k + e), g[8 * (int)o[k] + e]);
    floats_free(&fs);
    return st;
}

// copy_pa of tests/data/kernels/copy_pa.py at its defaults (N2 = 2 heads of
// BS = 16 rows a page, a window of 40 rows from logical row 5 of batch 1, head
// 1, columns 8 .. 56): the tile is Z with the window's rows gathered through
// the block table, O = I @ tile (small integers: exact in float32).
static tl_status_t golden_copy_pa(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    enum { N2 = 2, BS = 16, ROWS = 40, ACT = 48, B = 1, N2I = 1, S2 = 5, DI = 8 };
    floats_t fs = {0};
    float *kv = floats(&fs, io, "KV"), *bt = floats(&fs, io, "BT"), *z = floats(&fs, io, "Z"),
          *eye = floats(&fs, io, "I");
    tl_tensor_t *want = tl_check_expected(io, "O", d);
    tl_tensor_t *zt = tl_check_tensor(io, "Z"), *btt = tl_check_tensor(io, "BT");
    tl_status_t st = !kv || !bt || !z || !eye ? TL_ERR_NOMEM
                     : !want || !zt || !btt   ? missing(d, "copy_pa needs KV, BT, Z, I and O")
                                              : TL_OK;
    int64_t R = st ? 0 : zt->shape[0], D = st ? 0 : zt->shape[1];
    int64_t maxb = st ? 0 : btt->shape[0] / 2;
    float *k = st ? NULL : malloc(sizeof(float) * (size_t)(R * D));
    if (!st && !k) st = TL_ERR_NOMEM;
    if (k) memcpy(k, z, sizeof(float) * (size_t)(R * D));
    for (int64_t i = 0; !st && i < ROWS; i++) {
        int64_t row = S2 + i, id = (int64_t)bt[B * maxb + row / BS];
        const float *src = kv + (id * N2 + N2I) * BS * D + (row % BS) * D + DI;
        memcpy(k + i * D, src, sizeof(float) * ACT);
    }
    for (int64_t m = 0; !st && m < R; m++)
        for (int64_t n = 0; n < D; n++) {
            float acc = 0;
            for (int64_t j = 0; j < R; j++) acc += eye[m * R + j] * k[j * D + n];
            tl_tensor_set_flat(want, (size_t)(m * D + n), acc);
        }
    free(k);
    floats_free(&fs);
    return st;
}

// An integer parameter NAME=value of the case's kernel arguments, else def.
static int case_int(const tl_check_case_t *c, const char *name, int def)
{
    size_t n = strlen(name);
    for (int i = 0; i < TL_CHECK_MAX_ITEMS && c->args[i]; i++)
        if (!strncmp(c->args[i], name, n) && c->args[i][n] == '=') return atoi(c->args[i] + n + 1);
    return def;
}

// im2col of tests/data/kernels/im2col.py (defaults: the 16-row fractal from
// output position 3 of the 6 x 5 x (2 x 16) feature map, kernel 2 x 2, stride
// (2, 1), dilation (1, 2), pads left 1 right 0 top 2 bottom 1: 4 x 4 outputs,
// positions 16 .. 18 are zeros; the case's arguments change them); K ordered
// (c1, kh, kw, c0); every one of the M rows written (valid_m rounded up to
// 16 is M); O = X @ I (small integers: exact).
static tl_status_t golden_im2col(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    const int H = case_int(c, "H", 6), W = case_int(c, "W", 5), C1 = case_int(c, "C1", 2);
    const int KH = case_int(c, "KH", 2), KW = case_int(c, "KW", 2), SH = case_int(c, "SH", 2);
    const int SW = case_int(c, "SW", 1), DH = case_int(c, "DH", 1), DW = case_int(c, "DW", 2);
    const int PL = case_int(c, "PL", 1), PR = case_int(c, "PR", 0), PT = case_int(c, "PT", 2);
    const int PB = case_int(c, "PB", 1), M = case_int(c, "M", 16), POS = case_int(c, "POS", 3);
    enum { C0 = 16 };
    const int K = C1 * KH * KW * C0;
    floats_t fs = {0};
    float *f = floats(&fs, io, "F"), *eye = floats(&fs, io, "I");
    tl_tensor_t *want = tl_check_expected(io, "O", d);
    float *x = malloc(sizeof *x * (size_t)(M * K));
    tl_status_t st = !f || !eye || !x ? TL_ERR_NOMEM
                     : !want          ? missing(d, "im2col needs F, I and O")
                                      : TL_OK;
    const int wo = (W + PL + PR - DW * (KW - 1) - 1) / SW + 1;
    const int ho = (H + PT + PB - DH * (KH - 1) - 1) / SH + 1;
    for (int m = 0; !st && m < M; m++)
        for (int k = 0; k < K; k++) {
            int pos = POS + m, oh = pos / wo, ow = pos % wo;
            int c1 = k / (KH * KW * C0), i = k / C0 % (KH * KW) / KW, j = k / C0 % KW, c0 = k % C0;
            int ih = oh * SH - PT + i * DH, iw = ow * SW - PL + j * DW;
            bool in = pos < ho * wo && ih >= 0 && ih < H && iw >= 0 && iw < W;
            x[m * K + k] = in ? f[(c1 * H * W + ih * W + iw) * C0 + c0] : 0.0f;
        }
    for (int m = 0; !st && m < M; m++)
        for (int n = 0; n < K; n++) {
            float acc = 0;
            for (int k = 0; k < K; k++) acc += x[m * K + k] * eye[k * K + n];
            tl_tensor_set_flat(want, (size_t)(m * K + n), acc);
        }
    free(x);
    floats_free(&fs);
    return st;
}

// experiment_rows: the *_experiment ops on column slices (the kernel file
// states the formula); float32 steps as the device does them, exp by tl_expf.
static tl_status_t golden_experiment_rows(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *want = tl_check_expected(io, "C", d), *half = tl_check_expected(io, "H", d);
    if (!want || !half) return missing(d, "experiment_rows needs C and H");
    floats_t fs = {0};
    float *a = floats(&fs, io, "A"), *m = floats(&fs, io, "M"), *s = floats(&fs, io, "S"),
          *p = floats(&fs, io, "P");
    tl_status_t st = a && m && s && p ? TL_OK : TL_ERR_NOMEM;
    int64_t rows = want->shape[0], n = want->shape[1], hn = half->shape[1], blk = 8;
    for (int64_t r = 0; st == TL_OK && r < rows; r++)
        for (int64_t j = 0; j < n; j++) {
            float x = a[r * n + j] - m[r];
            x = j < 64 ? x * s[r] : tl_expf(x) / p[r * blk + j % blk];
            tl_tensor_set_flat(want, (size_t)(r * n + j), x);
            if (j < hn) tl_tensor_set_flat(half, (size_t)(r * hn + j), x);
        }
    floats_free(&fs);
    return st;
}

// Rows picked by indices read from UB: Out[c, i, :] = KV[Idx[c, i], :].
static tl_status_t golden_gather_rows(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    const tl_tensor_t *kv = tl_check_tensor(io, "KV"), *idx = tl_check_tensor(io, "Idx");
    tl_tensor_t *out = tl_check_expected(io, "Out", d);
    if (!kv || !idx || !out) return missing(d, "gather_rows needs KV, Idx and Out");
    int64_t width = kv->shape[1], picks = idx->shape[1];
    for (int64_t r = 0; r < idx->shape[0] * picks; r++) {
        int64_t row = (int64_t)tl_tensor_get_flat(idx, (size_t)r);
        for (int64_t j = 0; j < width; j++)
            tl_tensor_set_flat(out, (size_t)(r * width + j),
                               tl_tensor_get_flat(kv, (size_t)(row * width + j)));
    }
    return TL_OK;
}

// C = A @ B (relu: max(0, A @ B)), summed exactly and rounded once to float32.
static tl_status_t matmul_golden(tl_check_io_t *io, bool relu, tl_diag_t *d)
{
    tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, "B");
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    if (!a || !b || !want) return missing(d, "a matmul needs A, B and C");
    int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = 0;
            for (int64_t l = 0; l < k; l++)
                acc += tl_tensor_get_flat(a, (size_t)(i * k + l)) *
                       tl_tensor_get_flat(b, (size_t)(l * n + j));
            tl_tensor_set_flat(want, (size_t)(i * n + j), relu && !(acc > 0) ? 0.0 : (float)acc);
        }
    return TL_OK;
}

static tl_status_t golden_l1_rows_relu(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return matmul_golden(io, true, d);
}

// sync_all_blocks: C[row] = A[other], D[row] = 2 A[row], other the rows of the
// other block's same vector core (halves of M rows per block).
static tl_status_t golden_sync_all_blocks(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *a = tl_check_tensor(io, "A");
    tl_tensor_t *want_c = tl_check_expected(io, "C", d), *want_d = tl_check_expected(io, "D", d);
    if (!a || !want_c || !want_d) return missing(d, "sync_all_blocks needs A, C and D");
    int64_t rows = a->shape[0], n = a->shape[1], m = rows / 2;
    for (int64_t r = 0; r < rows; r++) {
        int64_t other = (r + m) % rows;
        for (int64_t j = 0; j < n; j++) {
            tl_tensor_set_flat(want_c, (size_t)(r * n + j),
                               tl_tensor_get_flat(a, (size_t)(other * n + j)));
            tl_tensor_set_flat(want_d, (size_t)(r * n + j),
                               2 * tl_tensor_get_flat(a, (size_t)(r * n + j)));
        }
    }
    return TL_OK;
}

// sort_merge: the two score lists sorted descending as (value, position)
// pairs, equal values in source order, positions from `actual` on sorted as
// -inf; merged (the first list on equal values); the merged values and
// positions apart; P = 0.5 + 0.25 i; Acc = P * P + C and Sel = P < 8 ? P :
// -inf, each operation rounded to float32.
static void sorted_pairs(const float *s, int64_t n, int64_t actual, float *v, float *pos)
{
    for (int64_t i = 0; i < n; i++) {
        float x = i < actual ? s[i] : -INFINITY;
        int64_t j = i;
        for (; j > 0 && v[j - 1] < x; j--) v[j] = v[j - 1], pos[j] = pos[j - 1];
        v[j] = x, pos[j] = (float)i;
    }
}

static tl_status_t golden_sort_merge(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    floats_t fs = {0};
    float *s = floats(&fs, io, "S"), *cin = floats(&fs, io, "C");
    tl_tensor_t *w[5] = {tl_check_expected(io, "Merged", d), tl_check_expected(io, "Vals", d),
                         tl_check_expected(io, "Pos", d), tl_check_expected(io, "Acc", d),
                         tl_check_expected(io, "Sel", d)};
    tl_status_t st = !s || !cin ? TL_ERR_NOMEM : TL_OK;
    for (int i = 0; i < 5 && st == TL_OK; i++)
        if (!w[i]) st = missing(d, "sort_merge needs S, C, Merged, Vals, Pos, Acc and Sel");
    if (st == TL_OK) {
        float v[2][64], pos[2][64];
        sorted_pairs(s, 64, (int64_t)arg_num(c, "actual", 50), v[0], pos[0]);
        sorted_pairs(s + 64, 64, 64, v[1], pos[1]);
        for (int a = 0, b = 0, o = 0; o < 128; o++) {
            int q = b >= 64 || (a < 64 && v[0][a] >= v[1][b]) ? 0 : 1, *k = q ? &b : &a;
            tl_tensor_set_flat(w[0], (size_t)(2 * o), v[q][*k]);
            tl_tensor_set_flat(w[0], (size_t)(2 * o + 1), pos[q][*k]);
            tl_tensor_set_flat(w[1], (size_t)o, v[q][*k]);
            tl_tensor_set_flat(w[2], (size_t)o, pos[q][(*k)++]);
        }
        for (int i = 0; i < 64; i++) {
            float p = 0.5f + 0.25f * (float)i, sq = p * p;
            tl_tensor_set_flat(w[3], (size_t)i, sq + cin[i]);
            tl_tensor_set_flat(w[4], (size_t)i, p < 8 ? p : -INFINITY);
        }
    }
    floats_free(&fs);
    return st;
}

// A copy of a runtime width n into a column slice: Out[r, c] = A[r, c] for
// c < n = Len[0], the pad value 0 elsewhere (the buffer's rows are filled).
static tl_status_t golden_copy_runtime_width(const tl_check_case_t *c, tl_check_io_t *io,
                                             tl_diag_t *d)
{
    const tl_tensor_t *a = tl_check_tensor(io, "A"), *len = tl_check_tensor(io, "Len");
    tl_tensor_t *out = tl_check_expected(io, "Out", d);
    if (!a || !len || !out) return missing(d, "copy_runtime_width needs A, Len and Out");
    int64_t rows = a->shape[0], width = a->shape[1], n = (int64_t)tl_tensor_get_flat(len, 0);
    bool store = case_flag(c, "store");
    int64_t m = store ? TL_MIN(n / 8 + 1, rows / 2) : rows / 2;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < width; j++) {
            bool in = j < n && r % (rows / 2) < m;
            tl_tensor_set_flat(out, (size_t)(r * width + j),
                               in      ? tl_tensor_get_flat(a, (size_t)(r * width + j))
                               : store ? -1.0
                                       : 0.0);
        }
    return TL_OK;
}

// copy_compact_rows: B = A in the first columns of 32-byte rows (-1 past
// them), C = 2 A (exact in the tensors' dtype).
static tl_status_t golden_copy_compact_rows(const tl_check_case_t *c, tl_check_io_t *io,
                                            tl_diag_t *d)
{
    (void)c;
    const tl_tensor_t *a = tl_check_tensor(io, "A");
    tl_tensor_t *b = tl_check_expected(io, "B", d), *cc = tl_check_expected(io, "C", d);
    if (!a || !b || !cc) return missing(d, "copy_compact_rows needs A, B and C");
    int64_t rows = a->shape[0], cols = a->shape[1], wide = b->shape[1];
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < wide; j++) {
            double v = j < cols ? tl_tensor_get_flat(a, (size_t)(r * cols + j)) : -1.0;
            tl_tensor_set_flat(b, (size_t)(r * wide + j), v);
            if (j < cols) tl_tensor_set_flat(cc, (size_t)(r * cols + j), 2 * v);
        }
    return TL_OK;
}

// copy_fold_rows: Out = A; copy_fold_unit: Out[i * heads + h, :] = A[i, h, 1, :].
static tl_status_t golden_copy_fold(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    const tl_tensor_t *a = tl_check_tensor(io, "A");
    tl_tensor_t *out = tl_check_expected(io, "Out", d);
    if (!a || !out) return missing(d, "copy_fold needs A and Out");
    bool unit = c->kernel && !strcmp(c->kernel, "copy_fold_unit");
    int64_t planes = unit ? a->shape[2] : 1, dim = a->shape[a->ndim - 1];
    for (size_t i = 0; i < tl_tensor_numel(out); i++) {
        int64_t row = (int64_t)i / dim, j = (int64_t)i % dim;
        size_t from = unit ? (size_t)((row * planes + 1) * dim + j) : i;
        tl_tensor_set_flat(out, i, tl_tensor_get_flat(a, from));
    }
    return TL_OK;
}

static tl_status_t golden_matmul(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return matmul_golden(io, false, d);
}

// tests/data/kernels/tail_narrow.py: tail_cmpsel gives C = where(A < B, A, B)
// and MaskOut, the bits of A < B packed little-endian a row (0 past its N
// columns); tail_bcast_col gives C[r, j] = S[r, j / 8].
static tl_status_t golden_tail_narrow(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    tl_tensor_t *out = tl_check_expected(io, "C", d);
    if (!strcmp(c->kernel, "tail_bcast_col")) {
        const tl_tensor_t *s = tl_check_tensor(io, "S");
        if (!s || !out) return missing(d, "tail_bcast_col needs S and C");
        int64_t rows = out->shape[0], cols = out->shape[1], n = s->shape[1];
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < cols; j++)
                tl_tensor_set_flat(out, (size_t)(r * cols + j),
                                   tl_tensor_get_flat(s, (size_t)(r * n + j / 8)));
        return TL_OK;
    }
    const tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, "B");
    tl_tensor_t *mask = tl_check_expected(io, "MaskOut", d);
    if (!a || !b || !out || !mask) return missing(d, "tail_cmpsel needs A, B, C and MaskOut");
    int64_t rows = a->shape[0], cols = a->shape[1], bytes = mask->shape[1];
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t k = 0; k < bytes; k++) tl_tensor_set_flat(mask, (size_t)(r * bytes + k), 0);
        for (int64_t j = 0; j < cols; j++) {
            size_t i = (size_t)(r * cols + j), m = (size_t)(r * bytes + j / 8);
            double x = tl_tensor_get_flat(a, i), y = tl_tensor_get_flat(b, i);
            tl_tensor_set_flat(out, i, x < y ? x : y);
            if (x < y) tl_tensor_set_flat(mask, m, tl_tensor_get_flat(mask, m) + (1 << (j % 8)));
        }
    }
    return TL_OK;
}

// tests/data/kernels/tail_mask.py with (kernel tail_on) and without the tail mask.
// Block b's [16, 64] tile holds vr = min(16, M - 16 b) valid rows of the N
// columns, 0 elsewhere; exp in place (without the mask the gap too: 1). Row sum
// and max over all 64 columns (sums in double, rounded once, as the reference's
// reduce). Columns: with the mask the valid rows only, row 0 then one float32
// step per row, into the first N columns (the rest keep 7); without it all 16.
static tl_status_t golden_tail_mask(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    bool on = !strcmp(c->kernel, "tail_on");
    const tl_tensor_t *at = tl_check_tensor(io, "A");
    tl_tensor_t *rs = tl_check_expected(io, "RS", d), *rm = tl_check_expected(io, "RM", d);
    tl_tensor_t *cs = tl_check_expected(io, "CS", d), *cm = tl_check_expected(io, "CM", d);
    if (!at || !rs || !rm || !cs || !cm) return missing(d, "tail_mask needs A, RS, RM, CS and CM");
    int64_t m = at->shape[0], n = at->shape[1];
    for (int64_t b = 0; b < 2; b++) {
        int64_t vr = m - 16 * b < 16 ? (m - 16 * b > 0 ? m - 16 * b : 0) : 16;
        float t[16][64], e[16][64];
        for (int r = 0; r < 16; r++)
            for (int j = 0; j < 64; j++) {
                bool valid = r < vr && j < n;
                t[r][j] = valid ? (float)tl_tensor_get_flat(at, (size_t)((16 * b + r) * n + j)) : 0;
                e[r][j] = on && !valid ? t[r][j] : tl_expf(t[r][j]);
            }
        for (int r = 0; r < vr; r++) {
            double sum = 0;
            float mx = t[r][0];
            for (int j = 0; j < 64; j++) sum += e[r][j], mx = fmaxf(mx, t[r][j]);
            tl_tensor_set_flat(rs, (size_t)(16 * b + r), (float)sum);
            tl_tensor_set_flat(rm, (size_t)(16 * b + r), mx);
        }
        for (int j = 0; j < 64; j++) {
            float sum = 7, mx = 7;
            if (!on) {
                double ds = 0;
                mx = t[0][j];
                for (int r = 0; r < 16; r++) ds += e[r][j], mx = fmaxf(mx, t[r][j]);
                sum = (float)ds;
            } else if (j < n && vr > 0) {
                sum = e[0][j], mx = t[0][j];
                for (int r = 1; r < vr; r++) sum += e[r][j], mx = fmaxf(mx, t[r][j]);
            }
            tl_tensor_set_flat(cs, (size_t)(64 * b + j), sum);
            tl_tensor_set_flat(cm, (size_t)(64 * b + j), mx);
        }
    }
    return TL_OK;
}

// A float32 transpose through float16: Out[v, j, i] = rint(A[v, i, j] / 4) * 2^-24
// (the inputs are integers times 2^-26: float16 subnormals, ties to even).
static tl_status_t golden_transpose_via_f16(const tl_check_case_t *c, tl_check_io_t *io,
                                            tl_diag_t *d)
{
    (void)c;
    const tl_tensor_t *a = tl_check_tensor(io, "A");
    tl_tensor_t *out = tl_check_expected(io, "Out", d);
    if (!a || !out) return missing(d, "transpose_via_f16 needs A and Out");
    int64_t n = a->shape[1];
    for (int64_t v = 0; v < a->shape[0]; v++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                double m = tl_tensor_get_flat(a, (size_t)((v * n + i) * n + j));
                tl_tensor_set_flat(out, (size_t)((v * n + j) * n + i),
                                   ldexp(nearbyint(m / 4), -24));
            }
    return TL_OK;
}

// B [K, N] as [N, K]: the golden then reads both operands contiguously (the
// same products summed in the same order, several times faster at K = 1024).
static float *transposed(const float *b, int64_t k, int64_t n)
{
    float *t = malloc(sizeof(float) * (size_t)(k * n + 1));
    if (t)
        for (int64_t l = 0; l < k; l++)
            for (int64_t j = 0; j < n; j++) t[j * k + l] = b[l * n + j];
    return t;
}

// C = A.B (B given as b_name, [N, K] when trans_b) plus an optional addend: the
// exact sum rounded to fp32 (L0C), then the addend, rounded to C's dtype.
static tl_status_t gemm_common(tl_check_io_t *io, const char *b_name, bool trans_b,
                               const char *addend, const char *out, tl_diag_t *d)
{
    tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, b_name);
    tl_tensor_t *want = tl_check_expected(io, out, d);
    if (!a || !b || !want || (addend && !tl_check_tensor(io, addend)))
        return missing(d, "gemm needs A, B (or W), the addend and the output");
    tl_generic_gemm_params_t p = {.m = a->shape[0],
                                  .n = want->shape[1],
                                  .k = a->shape[1],
                                  .trans_b = true,
                                  .acc_prec = TL_REF_F32,
                                  .out_prec = prec_of(want->dtype)};
    floats_t fs = {0};
    float *fa = floats(&fs, io, "A"), *fb = floats(&fs, io, b_name);
    float *fr = addend ? floats(&fs, io, addend) : NULL;
    float *bt = fb && !trans_b ? transposed(fb, p.k, p.n) : NULL;
    float *res = malloc(sizeof(float) * (tl_tensor_numel(want) + 1));
    tl_status_t st = fa && fb && (fr || !addend) && (bt || trans_b) && res ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK) st = tl_generic_gemm(&p, fa, trans_b ? fb : bt, NULL, fr, res, d);
    if (st == TL_OK) store(want, res);
    free(res);
    free(bt);
    floats_free(&fs);
    return st;
}

static tl_status_t golden_gemm(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return gemm_common(io, "B", false, NULL, "C", d);
}

static tl_status_t golden_gemm_tb(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return gemm_common(io, "B", true, NULL, "C", d);
}

static tl_status_t golden_gemm_w(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return gemm_common(io, "W", true, NULL, "C", d);
}

// tests/data/kernels/int4_gemm.py: int4 tensors are held as their packed bytes
// (uint8, the last dimension halved); C = A @ B (B [N, K] when transposed).
static tl_status_t int4_gemm_golden(tl_check_io_t *io, bool b_nk, tl_diag_t *d)
{
    tl_tensor_t *a = tl_check_tensor(io, "A"), *b = tl_check_tensor(io, "B");
    tl_tensor_t *want = tl_check_expected(io, "C", d);
    if (!a || !b || !want || a->ndim != 2 || want->ndim != 2)
        return missing(d, "int4_gemm needs 2-D A, B and C");
    return tl_ref_int4_gemm(want->shape[0], want->shape[1], 2 * a->shape[1], a->data, b->data, b_nk,
                            (int32_t *)want->data, d);
}

static tl_status_t golden_int4_gemm(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return int4_gemm_golden(io, false, d);
}

static tl_status_t golden_int4_gemm_tb(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return int4_gemm_golden(io, true, d);
}

// ... int4_cast: Q = int4(X) packed, Z = float16 of P's int4 elements.
static tl_status_t golden_int4_cast(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *p = tl_check_tensor(io, "P");
    tl_tensor_t *q = tl_check_expected(io, "Q", d), *z = tl_check_expected(io, "Z", d);
    floats_t fs = {0};
    float *x = floats(&fs, io, "X");
    float *zf = z ? malloc(sizeof(float) * (tl_tensor_numel(z) + 1)) : NULL;
    tl_status_t st = p && q && z ? (x && zf ? TL_OK : TL_ERR_NOMEM)
                                 : missing(d, "int4_cast needs X, P, Q and Z");
    if (st == TL_OK) {
        int64_t n = (int64_t)tl_tensor_numel(z);
        tl_ref_int4_quant(x, n, q->data);
        for (int64_t i = 0; i < n; i++) zf[i] = (float)tl_ref_int4_get(p->data, i);
        store(z, zf);
    }
    free(zf);
    floats_free(&fs);
    return st;
}

static tl_status_t golden_matmul_add(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return gemm_common(io, "B", false, "R", "D", d);
}

static tl_status_t golden_softmax(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *want = tl_check_expected(io, "Y", d);
    if (!want) return missing(d, "online_softmax needs X and Y");
    floats_t fs = {0};
    float *fx = floats(&fs, io, "X");
    float *out = malloc(sizeof(float) * (tl_tensor_numel(want) + 1));
    tl_status_t st = fx && out ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK)
        st = tl_generic_softmax(fx, out, want->shape[0], want->shape[1], prec_of(want->dtype), d);
    if (st == TL_OK) store(want, out);
    free(out);
    floats_free(&fs);
    return st;
}

static tl_status_t golden_layer_norm(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    tl_tensor_t *want = tl_check_expected(io, "Y", d);
    if (!want) return missing(d, "layer_norm needs X, gamma, beta and Y");
    floats_t fs = {0};
    float *fx = floats(&fs, io, "X"), *fg = floats(&fs, io, "gamma"), *fb = floats(&fs, io, "beta");
    float *out = malloc(sizeof(float) * (tl_tensor_numel(want) + 1));
    tl_status_t st = fx && fg && fb && out ? TL_OK : TL_ERR_NOMEM;
    float eps = (float)arg_num(c, "eps", 1e-5); // the factory's default
    if (st == TL_OK)
        st = tl_generic_layer_norm(fx, fg, fb, out, want->shape[0], want->shape[1], eps,
                                   prec_of(want->dtype), d);
    if (st == TL_OK) store(want, out);
    free(out);
    floats_free(&fs);
    return st;
}

static tl_status_t golden_attention(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    tl_tensor_t *k = tl_check_tensor(io, "K"), *want = tl_check_expected(io, "O", d);
    if (!k || !want) return missing(d, "flash_attention needs Q, K, V and O");
    tl_ref_prec_t prec = prec_of(want->dtype);
    tl_generic_attn_params_t p = {.b = want->shape[0],
                                  .h = want->shape[1],
                                  .sq = want->shape[2],
                                  .skv = k->shape[2],
                                  .d = want->shape[3],
                                  .p_prec = prec,
                                  .out_prec = prec};
    p.scale = (float)(1.0 / sqrt((double)p.d));
    floats_t fs = {0};
    float *fq = floats(&fs, io, "Q"), *fk = floats(&fs, io, "K"), *fv = floats(&fs, io, "V");
    float *out = malloc(sizeof(float) * (tl_tensor_numel(want) + 1));
    tl_status_t st = fq && fk && fv && out ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK) st = tl_generic_attn(&p, fq, fk, fv, out, d);
    if (st == TL_OK) store(want, out);
    free(out);
    floats_free(&fs);
    return st;
}

// --- the table ---------------------------------------------------------------------------------

#define SA_FLOPS(b, m, h, d, k)    (4.0 * (b) * (m) * (h) * (k) * (d))
#define FA_FLOPS(b, h, sq, skv, d) (4.0 * (b) * (h) * (sq) * (skv) * (d))
// Non-zero mean and non-unit scales, so that centring and gamma/beta matter.
#define LN_FILLS "X=normal:3:2", "gamma=normal:1:0.5", "beta=normal:0:0.5"

// Tolerances of the example cases. A result computed in fp32 and rounded to
// fp16 / bf16 can land one unit in the last place away from the golden's
// rounding of the exact value: rtol just above 2^-10 / 2^-7 allows that flip
// and nothing more. fp32 results carry a few ulps of the kernel's own fp32
// arithmetic.
#define RTOL_F16  1e-3 // > 2^-10
#define RTOL_BF16 8e-3 // > 2^-7
#define RTOL_F32  1e-5
// fp32 accumulation over K in another order than the golden's exact sum: the
// difference grows with K (measured at most K * 5e-8 for N(0, 1) inputs, room
// for other backends' orders).
#define GEMM_ATOL(k) ((k)*1e-7)
// The fp16 subnormal step 2^-24: an output that underflows can flip by one.
#define ATOL_F16_SUBNORMAL 6e-8
// fp32 softmax: exp, a row sum over N terms and a division, all relative errors
// (measured 1.2e-6 at N = 4096).
#define SOFTMAX_RTOL_F32 1e-5
// Layer norm: the fp32 statistics' error times gamma, where x * gamma + beta
// cancels to near zero (measured 1e-7).
#define LN_ATOL 1e-6
// Flash attention rounds P = exp(s - running max) to fp16 / bf16 before P.V,
// the golden rounds exp(s - final max): two different roundings of each weight
// (2^-11 / 2^-8 relative) whose effect on an output near zero is absolute
// (measured 7.6e-5 / 5.7e-4).
#define ATTN_ATOL_F16  2e-4
#define ATTN_ATOL_BF16 1.6e-3
// In fp32 (no rounding of P) only fp32 arithmetic differs (measured 9e-8).
#define ATTN_ATOL_F32 1e-6

// Several fields per line (clang-format would give each its own line).
// clang-format off
static const tl_check_case_t cases[] = {
    {.name = "sparse_attn/small", .op = "sparse_attn", .file = "kernels/ds_v4/sparse_attn.py",
     .args = {"h=16", "d=64"}, .dims = {"b=1", "m=2", "n=128", "topk=64"},
     .fills = {"topk_idxs=distinct:128"}, .outputs = {"out"}, .rtol = 5e-3, .atol = 5e-3,
     .golden = golden_sparse_attn, .shape = "b=1 m=2 h=16 d=64 topk=64 n=128",
     .flops = SA_FLOPS(1, 2, 16, 64, 64)},
    // the CPU benchmark's tiling: two blocks per token (kernels/bench/)
    {.name = "sparse_attn/tiled_heads", .op = "sparse_attn", .file = "kernels/bench/sparse_attn.py",
     .args = {"h=32", "d=64", "head_groups=2"}, .dims = {"b=1", "m=3", "n=150", "topk=100"},
     .fills = {"topk_idxs=int:-1:149"}, .outputs = {"out"}, .rtol = 5e-3, .atol = 5e-3,
     .golden = golden_sparse_attn, .shape = "b=1 m=3 h=32 d=64 topk=100 n=150 (2 blocks/token)",
     .flops = SA_FLOPS(1, 3, 32, 64, 100)},
    // Indices drawn with replacement from [-1, n): masked slots and duplicates.
    {.name = "sparse_attn/masked", .op = "sparse_attn", .file = "kernels/ds_v4/sparse_attn.py",
     .args = {"h=16", "d=64"}, .dims = {"b=2", "m=3", "n=40", "topk=100"},
     .fills = {"topk_idxs=int:-1:39"}, .outputs = {"out"}, .rtol = 5e-3, .atol = 5e-3,
     .golden = golden_sparse_attn, .shape = "b=2 m=3 h=16 d=64 topk=100 n=40 (-1 and duplicates)",
     .flops = SA_FLOPS(2, 3, 16, 64, 100)},
    {.name = "sparse_attn/model", .op = "sparse_attn", .file = "kernels/ds_v4/sparse_attn.py",
     .args = {"h=64", "d=512"}, .dims = {"b=1", "m=4", "n=2048", "topk=512"},
     .fills = {"topk_idxs=distinct:2048"}, .outputs = {"out"}, .rtol = 5e-3, .atol = 5e-3,
     .golden = golden_sparse_attn, .shape = "b=1 m=4 h=64 d=512 topk=512 n=2048",
     .flops = SA_FLOPS(1, 4, 64, 512, 512), .slow = true},
    {.name = "hc_split_sinkhorn/small", .op = "hc_split_sinkhorn",
     .file = "kernels/ds_v4/hc_split_sinkhorn.py", .dims = {"N=5"},
     .outputs = {"pre", "post", "comb"}, .rtol = 1e-5, .atol = 1e-5, .golden = golden_hc_sinkhorn,
     .shape = "N=5 hc=4 iters=20", .bytes = 5 * 192.0},
    {.name = "hc_split_sinkhorn/model", .op = "hc_split_sinkhorn",
     .file = "kernels/ds_v4/hc_split_sinkhorn.py", .dims = {"N=4096"},
     .outputs = {"pre", "post", "comb"}, .rtol = 1e-5, .atol = 1e-5, .golden = golden_hc_sinkhorn,
     .shape = "N=4096 hc=4 iters=20", .bytes = 4096 * 192.0},
    {.name = "int8_gemm/small", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=256", "K=256"}, .dims = {"M=96"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=96 N=256 K=256 bf16 out", .int_ops = true, .flops = 2.0 * 96 * 256 * 256},
    {.name = "int8_gemm/model", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=1024", "K=4096"}, .dims = {"M=128"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=128 N=1024 K=4096 bf16 out", .int_ops = true, .flops = 2.0 * 128 * 1024 * 4096, .slow = true},
    // More tiles per core than a cross-core flag counts (15): the cube may run
    // only a few tiles ahead of the vector cores. 20 tiles on one core; then
    // prefill sizes (22 tiles per core of 24), too large for the reference.
    {.name = "int8_gemm/run_ahead", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=512", "K=128", "cores=1", "out_dtype=\"float32\""}, .dims = {"M=640"},
     .outputs = {"C"}, .golden = golden_int8_gemm, .shape = "M=640 N=512 K=128 f32 out, 1 core",
     .int_ops = true, .flops = 2.0 * 640 * 512 * 128},
    {.name = "int8_gemm/prefill", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=512", "K=128"}, .dims = {"M=16384"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=16384 N=512 K=128 bf16 out", .int_ops = true, .flops = 2.0 * 16384 * 512 * 128,
     .cpu_only = true},
    // the CPU benchmark's tiling of the same op (kernels/bench/)
    {.name = "int8_gemm/tiled_decode", .op = "int8_gemm", .file = "kernels/bench/int8_gemm.py",
     .args = {"N=200", "K=320", "block_M=1", "block_N=64", "block_K=128"}, .dims = {"M=3"},
     .outputs = {"C"}, .golden = golden_int8_gemm, .shape = "M=3 N=200 K=320 bf16 out",
     .int_ops = true, .flops = 2.0 * 3 * 200 * 320},
    // 20-row tiles: on pto the L1 and L0C matrices take two whole 16-row fractals
    {.name = "int8_gemm/tiled_rows20", .op = "int8_gemm", .file = "kernels/bench/int8_gemm.py",
     .args = {"N=200", "K=320", "block_M=20", "block_N=64", "block_K=128", "out_dtype=\"float16\""},
     .dims = {"M=45"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=45 N=200 K=320 f16 out", .int_ops = true, .flops = 2.0 * 45 * 200 * 320},
    // L0C int32 -> GM float16 through the deq scale (the fixpipe), 20-row tiles
    {.name = "deq_store/plain", .op = "deq_store", .file = "tests/data/kernels/deq_store.py",
     .fills = {"A=int:-8:8", "B=int:-8:8"}, .outputs = {"C"}, .rtol = 0, .atol = 0,
     .golden = golden_deq_store, .shape = "M=50 N=64 K=96 int8 -> f16, scale 1/3"},
    {.name = "deq_store/relu", .op = "deq_store", .file = "tests/data/kernels/deq_store.py",
     .args = {"relu=True"}, .fills = {"A=int:-8:8", "B=int:-8:8"}, .outputs = {"C"}, .rtol = 0,
     .atol = 0, .golden = golden_deq_store, .shape = "M=50 N=64 K=96 int8 -> f16, relu"},
    {.name = "int8_gemm/tiled_tails", .op = "int8_gemm", .file = "kernels/bench/int8_gemm.py",
     .args = {"N=300", "K=200", "block_M=32", "block_N=128", "block_K=64", "out_dtype=\"float32\""},
     .dims = {"M=70"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=70 N=300 K=200 f32 out", .int_ops = true, .flops = 2.0 * 70 * 300 * 200},
    {.name = "act_quant/small", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=1024"}, .dims = {"M=32"}, .outputs = {"Y", "S"},
     .rtol = 1e-6, .atol = 0, .golden = golden_act_quant, .shape = "M=32 N=1024 int8 per row",
     .bytes = 32 * 1024 * 3.0 + 32 * 4},
    {.name = "act_quant/model", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=4096"}, .dims = {"M=256"}, .outputs = {"Y", "S"},
     .rtol = 1e-6, .atol = 0, .golden = golden_act_quant, .shape = "M=256 N=4096 int8 per row",
     .bytes = 256 * 4096 * 3.0 + 256 * 4},
    // rows longer than the whole-row form takes (N > 10,304): column chunks, the
    // row kept in UB between the passes (pipelined, then not), or read twice from GM
    {.name = "act_quant/wide", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=12288"}, .dims = {"M=53"}, .outputs = {"Y", "S"},
     .rtol = 1e-6, .atol = 0, .golden = golden_act_quant, .shape = "M=53 N=12288 int8 per row",
     .bytes = 53 * 12288 * 3.0 + 53 * 4},
    {.name = "act_quant/wide_odd", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=16411", "round_scale=True"}, .dims = {"M=7"},
     .outputs = {"Y", "S"}, .rtol = 1e-6, .atol = 0, .golden = golden_act_quant,
     .shape = "M=7 N=16411 int8 per row, pow2 scales", .bytes = 7 * 16411 * 3.0 + 7 * 4},
    {.name = "act_quant/long", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=50001"}, .dims = {"M=2"}, .outputs = {"Y", "S"},
     .rtol = 1e-6, .atol = 0, .golden = golden_act_quant, .shape = "M=2 N=50001 int8 per row",
     .bytes = 2 * 50001 * 3.0 + 2 * 4},
    {.name = "act_quant/huge", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=100003"}, .dims = {"M=3"}, .outputs = {"Y", "S"},
     .rtol = 1e-6, .atol = 0, .golden = golden_act_quant, .shape = "M=3 N=100003 int8 per row",
     .bytes = 3 * 100003 * 3.0 + 3 * 4},
    {.name = "act_quant_block/small", .op = "act_quant_block", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant_block", .args = {"N=1024", "round_scale=True"}, .dims = {"M=32"},
     .outputs = {"Y", "S"}, .rtol = 1e-6, .atol = 0, .golden = golden_act_quant_block,
     .shape = "M=32 N=1024 int8, 128-blocks", .bytes = 32 * 1024 * 3.0},

    // semantics regressions (tests/data/kernels/): a float32 -> float32 cast rounds
    {.name = "cast_round/modes", .op = "cast_round", .file = "tests/data/kernels/cast_round.py",
     .fills = {"A=int:-40:40"}, .outputs = {"R", "F", "C", "D", "Z"}, .golden = golden_cast_round,
     .shape = "M=64 N=64 f32, 5 modes"},
    // ... and so does float32 -> float16 / bfloat16 (pto: tilec_tcvt_mode on the CPU)
    {.name = "cast_round/bf16", .op = "cast_round", .file = "tests/data/kernels/cast_round.py",
     .args = {"dst='bfloat16'", "scale=1.0"}, .fills = {"A=int:-70000:70000"}, .rtol = 0, .atol = 0,
     .outputs = {"R", "F", "C", "D", "Z", "O"}, .golden = golden_cast_narrow,
     .shape = "M=64 N=64 f32 -> bf16, 17-bit integers (ties), 5 modes"},
    {.name = "cast_round/f16", .op = "cast_round", .file = "tests/data/kernels/cast_round.py",
     .args = {"dst='float16'", "scale=1.0"}, .fills = {"A=int:-70000:70000"},
     .rtol = 0, .atol = 0, .outputs = {"R", "F", "C", "D", "Z", "O"}, .golden = golden_cast_narrow,
     .shape = "M=64 N=64 f32 -> f16, 17-bit integers (ties, overflow), 6 modes"},
    {.name = "cast_round/f16_subnormal", .op = "cast_round", .file = "tests/data/kernels/cast_round.py",
     .args = {"dst='float16'", "scale=9.313225746154785e-10"},
     .fills = {"A=int:-70000:70000"}, .rtol = 0, .atol = 0,
     .outputs = {"R", "F", "C", "D", "Z", "O"}, .golden = golden_cast_narrow,
     .shape = "M=64 N=64 f32 * 2^-30 -> f16 (subnormals), 6 modes"},
    // ... and a vector op's count may run past its buffers into the UB after them (issue 19)
    {.name = "count_past/cast_whole", .op = "count_past", .file = "tests/data/kernels/count_past.py",
     .kernel = "cast_past", .fills = {"A=uniform:-8:8"}, .outputs = {"B"}, .rtol = 0, .atol = 0,
     .golden = golden_count_past, .warnings = 2, .shape = "64x64 f32, count 4096 on 8x16 tiles"},
    {.name = "count_past/cast_rows", .op = "count_past", .file = "tests/data/kernels/count_past.py",
     .kernel = "cast_past", .args = {"rows=1"}, .fills = {"A=uniform:-8:8"}, .outputs = {"B"},
     .rtol = 0, .atol = 0,
     .golden = golden_count_past, .warnings = 2, .shape = "64x64 f32, count 4096 per 16-element row"},
    {.name = "count_past/cast_deq", .op = "count_past", .file = "tests/data/kernels/count_past.py",
     .kernel = "cast_past", .args = {"src='int32'", "dst='float16'"},
     .fills = {"A=int:-40:40"}, .outputs = {"B"}, .rtol = 0, .atol = 0,
     .golden = golden_count_past, .warnings = 2, .shape = "64x64 int32 -> f16, count 4096 on 8x16 tiles"},
    {.name = "count_past/clamp_rows", .op = "count_past", .file = "tests/data/kernels/count_past.py",
     .kernel = "clamp_rows", .fills = {"X=uniform:-4:4"}, .outputs = {"Y"}, .rtol = 0, .atol = 0,
     .golden = golden_count_past, .warnings = 2, .shape = "256x128 f16, count 2048 per 64-element row"},
    // ... and gather_mask past its destination, and a scalar `if` on UB outside T.Scope (issue 19)
    {.name = "argmax_rows/f32", .op = "argmax_rows", .file = "tests/data/kernels/argmax_rows.py",
     .outputs = {"Out"}, .golden = golden_argmax_rows, .warnings = 2,
     .shape = "16x512 f32, 2 tiles of 256, sort + gather_mask"},
    // ... and T.tile.fill's value may be a buffer element or a one-element buffer
    {.name = "fill_value/elements", .op = "fill_value", .file = "tests/data/kernels/fill_value.py",
     .outputs = {"B", "C"}, .golden = golden_fill_value, .shape = "N=64 f32"},
    // ... and upstream's npuir dialect (target="npuir"): its element-wise family and its copy rule
    {.name = "npuir_ops/f32", .op = "npuir_ops", .file = "tests/data/kernels/npuir_ops.py",
     .fills = {"A=int:-40:40", "B=int:1:8"}, .outputs = {"O", "R", "F", "G", "H"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_ops, .shape = "N=32 M=4 f32 (f16 cast)"},
    {.name = "npuir_copy/f32", .op = "npuir_copy", .file = "tests/data/kernels/npuir_copy.py",
     .outputs = {"Y", "P", "C", "S"}, .rtol = 0, .atol = 0, .pto_gap = "npuir's copy rule",
     .golden = golden_npuir_copy,
     .shape = "X 2x4x32 f32: strided halves, 16-byte runs, a column"},
    {.name = "npuir_gemm/f16", .op = "npuir_gemm", .file = "tests/data/kernels/npuir_gemm.py",
     .fills = {"A=int:-4:4", "B=int:-4:4"}, .outputs = {"C", "D", "E"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_gemm,
     .shape = "32x64x32 f16: load_nd2nz/store_fixpipe, an accumulator and an operand the vector cores compute"},
    {.name = "npuir_atomic/f32", .op = "npuir_atomic", .file = "tests/data/kernels/npuir_atomic.py",
     .fills = {"X=int:-40:40", "Y0=int:-40:40"}, .outputs = {"Y", "Z"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_atomic,
     .shape = "N=100 in blocks of 32 f32: size= tails, atomic_add / atomic_addx4"},
    {.name = "npuir_expert/f16", .op = "npuir_expert", .file = "tests/data/kernels/npuir_expert.py",
     .fills = {"A=int:-4:4", "B=int:-4:4"}, .outputs = {"C"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_expert,
     .shape = "32x32x32 f16: T.Scope Cube/Vector, T.rs, sync_block_set/wait, halves by sub-block"},
    {.name = "npuir_sized/f32", .op = "npuir_sized", .file = "tests/data/kernels/npuir_sized.py",
     .fills = {"X=int:-40:40"}, .outputs = {"MX", "SM", "H", "XB", "XH"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_sized,
     .shape = "8x64 f32: size= of reduce_max and vcast, T.reduce abssum, casting copies in and out"},
    {.name = "npuir_reshape/f16", .op = "npuir_reshape", .file = "tests/data/kernels/npuir_reshape.py",
     .fills = {"A=int:-4:4", "B=int:-4:4"}, .outputs = {"R", "G"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_reshape,
     .shape = "16x32x16 f16: a GEMM accumulator reshaped into a vector tile, arange int32"},
    {.name = "npuir_broadcast/f32", .op = "npuir_broadcast", .file = "tests/data/kernels/npuir_broadcast.py",
     .fills = {"A=int:100:140", "B=int:1:8"}, .outputs = {"C"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_broadcast,
     .shape = "M=8 N=64 f32: (1, N) rows, an (M, 1) column"},
    {.name = "npuir_select/f32", .op = "npuir_select", .file = "tests/data/kernels/npuir_select.py",
     .fills = {"A=int:-40:40", "B=int:-40:40"}, .outputs = {"C", "M", "L"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_select, .shape = "N=32 f32, a bool mask"},
    {.name = "npuir_reduce/f32", .op = "npuir_reduce", .file = "tests/data/kernels/npuir_reduce.py",
     .fills = {"A=int:-40:40"}, .outputs = {"MX", "SM", "AS", "AB"}, .rtol = 0, .atol = 0,
     .pto_gap = "npuir's copy rule", .golden = golden_npuir_reduce,
     .shape = "M=8 N=64 f32: (M, 1) and (1, N) outputs, abssum"},
    // ... and the mask and bit ops (compare, select, createvecindex, xor, shifts), silu, axpy
    {.name = "mask_ops/f32", .op = "mask_ops", .file = "tests/data/kernels/mask_ops.py",
     .fills = {"K=int:-100000:100000"},
     .outputs = {"MX", "TH", "IX", "XO", "SH", "SI", "AX", "RB", "XS", "RS", "RX", "PW", "PS"},
     .rtol = 1e-6,
     .atol = 1e-6, .golden = golden_mask_ops, .shape = "N=256 f32 / int32, 8 x 32 reductions"},
    // ... and AscendC's repeat-form reductions (block_reduce_*, wholereduce*) as asc-devkit has them
    {.name = "repeat_reduce/f32", .op = "repeat_reduce", .file = "tests/data/kernels/repeat_reduce.py",
     .fills = {"A=int:-40:40"}, .outputs = {"BS", "BM", "WS", "WM", "WN"}, .rtol = 0, .atol = 0,
     .golden = golden_repeat_reduce, .shape = "2 repeats x 64 f32"},
    {.name = "repeat_reduce/tree", .op = "repeat_reduce", .file = "tests/data/kernels/repeat_reduce.py",
     .fills = {"A=uniform:-1:1"}, .outputs = {"BS", "BM", "WS", "WM", "WN"}, .rtol = 0, .atol = 0,
     .golden = golden_repeat_reduce, .shape = "2 repeats x 64 f32, tree sums"},
    // ... and T.tile.reduce_sum_experiment (AscendC's ReduceSum of count elements)
    {.name = "reduce_sum_x/ints", .op = "reduce_sum_x", .file = "tests/data/kernels/reduce_sum_x.py",
     .fills = {"A=int:-40:40", "H=int:-4:4"}, .outputs = {"S", "SH"}, .rtol = 0, .atol = 0,
     .golden = golden_reduce_sum_x, .shape = "200 and 130 f32, 300 f16"},
    {.name = "reduce_sum_x/tree", .op = "reduce_sum_x", .file = "tests/data/kernels/reduce_sum_x.py",
     .fills = {"A=uniform:-1:1", "H=int:-4:4"}, .outputs = {"S", "SH"}, .rtol = 0, .atol = 0,
     .golden = golden_reduce_sum_x, .shape = "200 and 130 f32 (the repeats' order), 300 f16"},
    // ... and T.tile.reduce_sum_mask_experiment (ReduceSum's high-dimension form)
    {.name = "reduce_sum_mask_x/tree", .op = "reduce_sum_mask_x",
     .file = "tests/data/kernels/reduce_sum_mask_x.py", .fills = {"A=uniform:-1:1", "H=int:-4:4"},
     .outputs = {"S", "SH"}, .rtol = 0, .atol = 0, .pto_gap = "T.tile.reduce_sum_mask_experiment",
     .golden = golden_reduce_sum_mask_x,
     .shape = "f32: 4 x 50 lanes, 70 overlapping repeats of 64; f16: 3 x 100 lanes"},
    // ... and T.tile.bilinear_interpolation (deprecated upstream: a compile warning per call)
    {.name = "bilinear/f16", .op = "bilinear", .file = "tests/data/kernels/bilinear.py",
     .fills = {"X=uniform:-4:4", "O=int:0:31", "W=uniform:-2:2"}, .outputs = {"D1", "D2"}, .rtol = 0,
     .atol = 0, .golden = golden_bilinear,
     .shape = "X 512 f16, 2 x 2 repeats, repeat_mode False (mask 128) and True (mask 72)"},
    // ... T.reduce_abssum / reduce_absmax (of |x|) and T.cumsum
    {.name = "abs_reduce/sum_rows", .op = "abs_reduce", .file = "tests/data/cli/abs_reduce.py",
     .outputs = {"O"}, .rtol = 1e-6, .atol = 1e-6, .golden = golden_abs_reduce,
     .shape = "8 x 64 f32, reduce_abssum dim -1"},
    {.name = "abs_reduce/max_cols", .op = "abs_reduce", .file = "tests/data/cli/abs_reduce.py",
     .args = {"op=\"absmax\"", "dim=0"}, .outputs = {"O"}, .rtol = 0, .atol = 0,
     .golden = golden_abs_reduce, .shape = "8 x 64 f32, reduce_absmax dim 0"},
    {.name = "cumsum/rows", .op = "cumsum", .file = "tests/data/cli/cumsum.py", .outputs = {"O"},
     .rtol = 0, .atol = 0, .golden = golden_cumsum, .shape = "8 x 64 f32, dim -1"},
    {.name = "cumsum/cols_reverse", .op = "cumsum", .file = "tests/data/cli/cumsum.py",
     .args = {"dim=0", "reverse=True", "inplace=True"}, .outputs = {"O"}, .rtol = 0, .atol = 0,
     .golden = golden_cumsum, .shape = "8 x 64 f32, dim 0, reverse, in place"},
    {.name = "cumsum/rows_f16_reverse", .op = "cumsum", .file = "tests/data/cli/cumsum.py",
     .args = {"R=5", "C=48", "dtype=\"float16\"", "reverse=True"}, .outputs = {"O"}, .rtol = 0,
     .atol = 0, .golden = golden_cumsum, .shape = "5 x 48 f16 (float32 sums), dim -1, reverse"},
    {.name = "sort32_gatherb/f32", .op = "sort32_gatherb", .file = "tests/data/kernels/sort32_gatherb.py",
     .fills = {"A=int:-20:20", "I=int:0:100000", "O=int:0:7"}, .outputs = {"S", "GB"}, .rtol = 0,
     .atol = 0, .golden = golden_sort32_gatherb, .shape = "2 x 32 f32, 16 blocks"},
    {.name = "copy_pa/f16", .op = "copy_pa", .file = "tests/data/kernels/copy_pa.py",
     .fills = {"KV=int:-8:8", "BT=int:0:5", "Z=int:-8:8", "I=int:0:1"}, .outputs = {"O"},
     .rtol = 0, .atol = 0, .golden = golden_copy_pa,
     .shape = "40 rows over 3 pages of 16, head 1 of 2, columns 8..56 of 64, f16"},
    {.name = "im2col/f16", .op = "im2col", .file = "tests/data/kernels/im2col.py",
     .fills = {"F=int:-8:8", "I=int:0:1"}, .outputs = {"O"}, .rtol = 0, .atol = 0,
     .golden = golden_im2col,
     .shape = "6x5 image, 2x16 channels, kernel 2x2, stride (2,1), dilation (1,2), pads, f16"},
    {.name = "im2col/bands", .op = "im2col", .file = "tests/data/kernels/im2col.py",
     .args = {"H=4", "W=4", "M=32", "POS=1", "VM=20", "SH=1", "DH=1", "DW=1", "PR=1", "PT=1"},
     .fills = {"F=int:-8:8", "I=int:0:1"}, .outputs = {"O"}, .rtol = 0, .atol = 0,
     .golden = golden_im2col,
     .shape = "4x4 image (one run in L1), 2x16 channels, kernel 2x2, pads 1, two 16-row bands, f16"},

    // ... and upstream's older T-level names of tile ops (T.add, T.max(dst, a, b), reductions with a tmp)
    {.name = "old_names/f32", .op = "old_names", .file = "tests/data/kernels/old_names.py",
     .fills = {"A=int:-40:40", "B=int:1:8"}, .outputs = {"C", "D", "E", "R", "S", "F"}, .rtol = 0,
     .atol = 0, .golden = golden_old_names, .shape = "M=8 N=64 f32"},
    {.name = "experiment_rows/small", .op = "experiment_rows",
     .file = "tests/data/kernels/experiment_rows.py", .args = {"R=32", "N=128"},
     .fills = {"P=uniform:1:2"}, .outputs = {"C", "H"}, .rtol = RTOL_F32,
     .golden = golden_experiment_rows, .shape = "R=32 N=128 f32, column slices"},

    // ... and indices copied into UB then read as copy offsets (a gather)
    {.name = "parallel_copy_gemm/f16", .op = "parallel_copy_gemm",
     .file = "tests/data/kernels/parallel_copy_gemm.py", .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(128), .golden = golden_gemm, .shape = "M=128 N=256 K=128 f16"},
    // ... and developer-mode hand-offs of a vector core's half tile (UB -> L1, L0C -> UB)
    {.name = "dev_vid_half/f16", .op = "dev_vid_half", .file = "tests/data/kernels/dev_vid_half.py",
     .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(96), .golden = golden_gemm,
     .shape = "M=64 N=64 K=96, UB tiles of 16 rows"},
    // ... and gemm_v0 with kL0Size 64 and N in tiles of 256 (upstream's newest helper)
    {.name = "gemm_n_tiles/f16", .op = "gemm_n_tiles", .file = "tests/data/cli/gemm_n_tiles.py",
     .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(256), .golden = golden_gemm,
     .shape = "M=32 N=512 K=256 f16, kL0Size 64, N tiles of 256"},
    // ... and a dual-loop kernel: the cube's loop and the vector cores' later loop each read a
    // workspace the other writes (upstream pairs them by order; tilec fuses the loops)
    {.name = "dual_loop/f16", .op = "dual_loop", .file = "tests/data/kernels/dual_loop.py",
     .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(64), .golden = golden_gemm,
     .shape = "M=96 N=32 K=64, 3 row tiles"},
    // ... and developer-mode code whose vector part orders its pipes with manual flags: the
    // cube's workspace read waits for the vector write past them (one loop body, or fused)
    {.name = "dev_flags/body", .op = "dev_flags", .file = "tests/data/kernels/dev_flags.py",
     .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(64), .golden = golden_gemm,
     .shape = "M=64 N=32 K=64, 2 row tiles, vector flags"},
    {.name = "dev_flags/dual", .op = "dev_flags", .file = "tests/data/kernels/dev_flags.py",
     .args = {"dual=True"}, .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(64),
     .golden = golden_gemm, .shape = "M=64 N=32 K=64, sibling loops, vector flags"},
    {.name = "dev_flags/barrier_all", .op = "dev_flags", .file = "tests/data/kernels/dev_flags.py",
     .args = {"fence=\"barrier_all\""}, .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(64), .golden = golden_gemm,
     .shape = "M=64 N=32 K=64, a barrier_all in the vector cores' code"},
    // ... and T.reinterpretcast as a view: a write through the source after the cast is what
    // the view reads (no copy at the cast)
    {.name = "reinterpret_view/f32", .op = "reinterpret_view",
     .file = "tests/data/kernels/reinterpret_view.py", .outputs = {"C"}, .rtol = 0, .atol = 0,
     .golden = golden_add, .shape = "M=8 N=64 f32, rows through a view"},
    // ... and int8 L1 tiles addressed by physical offset into their zN layout (upstream's
    // copy_l1_to_l0a/b take the start index's flat offset)
    {.name = "int8_l1_physical/i8", .op = "int8_l1_physical",
     .file = "tests/data/kernels/int8_l1_physical.py", .fills = {"A=int:-3:3", "B=int:-3:3"},
     .outputs = {"C"}, .rtol = 0, .atol = 0, .golden = golden_gemm,
     .shape = "M=32 N=64 K=128 int8 -> int32, 2 K tiles"},
    // ... and upstream's nibble-packed int4: the gemm (mad_s4) over an odd number of K tiles,
    // B as [K, N] and as [N, K], and the float16 <-> int4 casts (every byte value drawn)
    {.name = "int4_gemm/kn", .op = "int4_gemm", .kernel = "int4_gemm",
     .file = "tests/data/kernels/int4_gemm.py", .fills = {"A=int:0:255", "B=int:0:255"},
     .outputs = {"C"}, .golden = golden_int4_gemm, .pto_gap = "int4 is not supported by the pto target",
     .shape = "M=32 N=128 K=192 int4 -> int32, 3 K tiles, 2 blocks"},
    {.name = "int4_gemm/nk", .op = "int4_gemm", .kernel = "int4_gemm", .args = {"tb=True"},
     .file = "tests/data/kernels/int4_gemm.py", .fills = {"A=int:0:255", "B=int:0:255"},
     .outputs = {"C"}, .golden = golden_int4_gemm_tb, .pto_gap = "int4 is not supported by the pto target",
     .shape = "M=32 N=128 K=192 int4, B [N, K]"},
    {.name = "int4_cast/f16", .op = "int4_cast", .kernel = "int4_cast",
     .file = "tests/data/kernels/int4_gemm.py", .fills = {"X=uniform:-10:10", "P=int:0:255"},
     .outputs = {"Q", "Z"}, .rtol = 0, .atol = 0, .golden = golden_int4_cast,
     .pto_gap = "int4 is not supported by the pto target",
     .shape = "16x128 float16 -> int4 (RINT, saturated), int4 -> float16"},
    {.name = "gather_rows/indexed", .op = "gather_rows", .file = "tests/data/kernels/gather_rows.py",
     .fills = {"Idx=int:0:63"}, .outputs = {"Out"}, .golden = golden_gather_rows,
     .shape = "64x64 f16 table, 2x8 indices"},

    // ... and a copy whose column extent is known only at run time (rows at the buffer's pitch)
    {.name = "copy_runtime_width/aligned", .op = "copy_runtime_width",
     .file = "tests/data/kernels/copy_runtime_width.py", .fills = {"Len=int:24:24"},
     .outputs = {"Out"}, .rtol = 0, .atol = 0, .golden = golden_copy_runtime_width,
     .shape = "8x64 f32, 24 columns"},
    {.name = "copy_runtime_width/odd", .op = "copy_runtime_width",
     .file = "tests/data/kernels/copy_runtime_width.py", .fills = {"Len=int:13:13"},
     .outputs = {"Out"}, .rtol = 0, .atol = 0, .golden = golden_copy_runtime_width,
     .shape = "8x64 f32, 13 columns"},
    {.name = "copy_runtime_width/store", .op = "copy_runtime_width",
     .file = "tests/data/kernels/copy_runtime_width.py", .args = {"store=True"},
     .fills = {"Len=int:13:13"}, .outputs = {"Out"}, .rtol = 0, .atol = 0,
     .golden = golden_copy_runtime_width, .shape = "8x64 f32, 13 columns, 2 rows stored back"},

    // ... and the copy shapes of upstream's newer lowering (docs/language.md, "Copy shapes"):
    // compact rows moved as one burst (a tail block clipped), folded leading dimensions
    {.name = "copy_compact_rows/f32", .op = "copy_compact_rows",
     .file = "tests/data/kernels/copy_compact_rows.py", .outputs = {"B", "C"}, .rtol = 0,
     .atol = 0, .golden = golden_copy_compact_rows, .shape = "10x9 f32 in [4, 9] tiles (36 B rows)"},
    {.name = "copy_compact_rows/f16", .op = "copy_compact_rows",
     .file = "tests/data/kernels/copy_compact_rows.py",
     .args = {"rows=16", "cols=15", "block=16", "dtype=\"float16\""}, .outputs = {"B", "C"},
     .rtol = 0, .atol = 0, .golden = golden_copy_compact_rows,
     .shape = "16x15 f16 in one [16, 15] tile (30 B rows)"},
    {.name = "copy_fold_rows/tail", .op = "copy_fold_rows",
     .file = "tests/data/kernels/copy_fold_rows.py", .kernel = "copy_fold_rows",
     .outputs = {"Out"}, .rtol = 0, .atol = 0, .golden = golden_copy_fold,
     .shape = "20x4x8 f32 in [8, 4, 8] tiles (a tail of 4 tokens)"},
    {.name = "copy_fold_rows/unit", .op = "copy_fold_rows",
     .file = "tests/data/kernels/copy_fold_rows.py", .kernel = "copy_fold_unit",
     .outputs = {"Out"}, .rtol = 0, .atol = 0, .golden = golden_copy_fold,
     .shape = "A[:, :, 1:2, :] of 2x4x3x16 f16 into [8, 16]"},
    // ... and a float32 K streamed through two L1 slots: K tiles at float32 K fractals (8 rows),
    // the short last chunk's slot cleared (its copy starts at a whole tile of the buffer)
    {.name = "l1_ring_tail/small", .op = "l1_ring_tail", .file = "tests/data/kernels/l1_ring_tail.py",
     .outputs = {"C"}, .rtol = RTOL_F32, .atol = GEMM_ATOL(120), .golden = golden_matmul,
     .shape = "16x16x120 f32, L1 chunks of 48, K tiles of 24"},

    // ... and upstream's tail mask (TL_ASCEND_TAIL_MASK) on and off over tail tiles. Row
    // sums within 1e-6: pto-isa's TROWSUM adds in float32 in its own order (3.8e-6 of
    // about 10); without the mask a row sum is off by the gap's 24 exp(0) = 1.
    {.name = "tail_mask/on", .op = "tail_mask", .file = "tests/data/kernels/tail_mask.py",
     .kernel = "tail_on", .fills = {"A=uniform:-4:-1"}, .outputs = {"RS", "RM", "CS", "CM"},
     .rtol = 1e-6, .atol = 0, .golden = golden_tail_mask, .shape = "20x40 f32 in [16, 64] tiles"},
    {.name = "tail_mask/off", .op = "tail_mask", .file = "tests/data/kernels/tail_mask.py",
     .kernel = "tail_off", .fills = {"A=uniform:-4:-1"}, .outputs = {"RS", "RM", "CS", "CM"},
     .rtol = 1e-6, .atol = 0, .golden = golden_tail_mask, .shape = "20x40 f32 in [16, 64] tiles"},

    // ... and its compare / select and column broadcast on rows under 32 bytes: the mask and
    // the [4, 1] source get a 32-byte block a row (tilelang-ascend's tail_block.py x6); on pto
    // the tail ops' run-time column counts are a gap
    {.name = "tail_narrow/cmpsel", .op = "tail_narrow", .file = "tests/data/kernels/tail_narrow.py",
     .kernel = "tail_cmpsel", .outputs = {"C", "MaskOut"}, .rtol = 0, .atol = 0,
     .pto_gap = "with a run-time extent", .golden = golden_tail_narrow,
     .shape = "8x20 f32 in [4, 8] tiles, a [4, 1] uint8 mask"},
    {.name = "tail_narrow/bcast_col", .op = "tail_narrow", .file = "tests/data/kernels/tail_narrow.py",
     .kernel = "tail_bcast_col", .outputs = {"C"}, .rtol = 0, .atol = 0,
     .pto_gap = "with a run-time extent", .golden = golden_tail_narrow,
     .shape = "column of a 5x3 f32 into [4, 1], to 5x20"},

    // ... and a float32 transpose through float16 (a value cast: subnormals round, ties to even)
    {.name = "transpose_via_f16/subnormal", .op = "transpose_via_f16",
     .file = "tests/data/kernels/transpose_via_f16.py", .fills = {"A=int:-2000:2000"},
     .outputs = {"Out"}, .rtol = 0, .atol = 0, .golden = golden_transpose_via_f16,
     .shape = "2x16x16 f32, float16 subnormals"},

    {.name = "l1_rows_relu/small", .op = "l1_rows_relu", .file = "tests/data/kernels/l1_rows_relu.py",
     .outputs = {"C"}, .rtol = RTOL_F32, .atol = GEMM_ATOL(64), .golden = golden_l1_rows_relu,
     .shape = "64x64x64 f16, L1 row and column blocks, enable_relu"},
    {.name = "l1_rows_relu/paged", .op = "l1_rows_relu", .file = "tests/data/kernels/l1_rows_relu.py",
     .args = {"paged=True"}, .outputs = {"C"}, .rtol = RTOL_F32, .atol = GEMM_ATOL(64),
     .golden = golden_l1_rows_relu,
     .shape = "as small, A in run-time row counts at rows 0/24/48, C of run-time columns"},
    {.name = "sync_all_blocks/small", .op = "sync_all_blocks",
     .file = "tests/data/kernels/sync_all_blocks.py", .outputs = {"C", "D"}, .rtol = 0, .atol = 0,
     .golden = golden_sync_all_blocks, .shape = "2 blocks, 128x128 f32, T.sync_all and mode-0 flags"},
    {.name = "sort_merge/small", .op = "sort_merge", .file = "tests/data/kernels/sort_merge.py",
     .outputs = {"Merged", "Vals", "Pos", "Acc", "Sel"}, .rtol = 0, .atol = 0,
     .golden = golden_sort_merge, .shape = "2 x 64 f32 scores (50 and 64 valid)"},
    {.name = "sort_merge/no_scratch", .op = "sort_merge", .file = "tests/data/kernels/sort_merge.py",
     .args = {"fill=48000"}, .outputs = {"Merged", "Vals", "Pos", "Acc", "Sel"}, .rtol = 0,
     .atol = 0, .golden = golden_sort_merge,
     .shape = "as small, UB filled (pto: scalar compare, select, mul_add_dst)"},
    {.name = "mma_unit_flag/valid", .op = "mma_unit_flag", .file = "tests/data/kernels/mma_unit_flag.py",
     .args = {"M=64", "KV=100", "NV=40", "NT=4"}, .outputs = {"C"}, .rtol = RTOL_F32,
     .atol = GEMM_ATOL(100), .golden = golden_mma_valid,
     .shape = "M=64 K=100 of 128, N=40 of 64 x 4 tiles f16, unit flags"},
    {.name = "mma_unit_flag/init_false", .op = "mma_unit_flag",
     .file = "tests/data/kernels/mma_unit_flag.py",
     .args = {"M=64", "KV=100", "NV=40", "NT=4", "explicit_init=True"}, .outputs = {"C"},
     .rtol = RTOL_F32, .atol = GEMM_ATOL(100), .golden = golden_mma_valid,
     .shape = "as valid, the second mmad with init=False (a constant)"},

    // elementwise_add: one rounding of an exact sum on both sides, so exact. Tiles must divide M
    // and N.
    {.name = "elementwise_add/small", .op = "elementwise_add",
     .file = "kernels/examples/elementwise_add.py", .args = {"M=128", "N=512"}, .outputs = {"C"},
     .golden = golden_add, .shape = "M=128 N=512 f32", .bytes = 3 * 4 * 128 * 512.0},
    {.name = "elementwise_add/f16", .op = "elementwise_add",
     .file = "kernels/examples/elementwise_add.py",
     .args = {"M=128", "N=512", "block_M=32", "block_N=128", "dtype=\"float16\""}, .outputs = {"C"},
     .golden = golden_add, .shape = "M=128 N=512 f16, 32x128 tiles", .bytes = 3 * 2 * 128 * 512.0},
    {.name = "elementwise_add/bf16", .op = "elementwise_add",
     .file = "kernels/examples/elementwise_add.py",
     .args = {"M=64", "N=1024", "dtype=\"bfloat16\""}, .outputs = {"C"}, .golden = golden_add,
     .shape = "M=64 N=1024 bf16", .bytes = 3 * 2 * 64 * 1024.0},
    {.name = "elementwise_add/default", .op = "elementwise_add",
     .file = "kernels/examples/elementwise_add.py", .outputs = {"C"}, .golden = golden_add,
     .shape = "M=1024 N=1024 f32", .bytes = 3 * 4 * 1024 * 1024.0},

    // The GEMMs: fp32 accumulation (L0C) rounded once to the output dtype; the tails cases cut
    // every tile dimension (edge tiles clipped by the GM copies, K tails zero-filled).
    {.name = "gemm/small", .op = "gemm", .file = "kernels/examples/gemm.py",
     .args = {"M=128", "N=256", "K=128"}, .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(128), .golden = golden_gemm, .shape = "M=128 N=256 K=128 f16",
     .flops = 2.0 * 128 * 256 * 128},
    {.name = "gemm/tails", .op = "gemm", .file = "kernels/examples/gemm.py",
     .args = {"M=200", "N=300", "K=100"}, .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(100), .golden = golden_gemm, .shape = "M=200 N=300 K=100 f16, M/N/K tails",
     .flops = 2.0 * 200 * 300 * 100},
    {.name = "gemm/bf16", .op = "gemm", .file = "kernels/examples/gemm.py",
     .args = {"M=96", "N=320", "K=160", "dtype=\"bfloat16\""}, .outputs = {"C"}, .rtol = RTOL_BF16,
     .atol = GEMM_ATOL(160), .golden = golden_gemm, .shape = "M=96 N=320 K=160 bf16, N/K tails",
     .flops = 2.0 * 96 * 320 * 160},
    {.name = "gemm/f32", .op = "gemm", .file = "kernels/examples/gemm.py",
     .args = {"M=64", "N=160", "K=72", "dtype=\"float32\""}, .outputs = {"C"}, .rtol = RTOL_F32,
     .atol = GEMM_ATOL(72), .golden = golden_gemm, .shape = "M=64 N=160 K=72 f32",
     .flops = 2.0 * 64 * 160 * 72},
    {.name = "gemm/default", .op = "gemm", .file = "kernels/examples/gemm.py", .outputs = {"C"},
     .rtol = RTOL_F16, .atol = GEMM_ATOL(1024), .golden = golden_gemm, .shape = "M=N=K=1024 f16",
     .flops = 2.0 * 1024 * 1024 * 1024, .slow = true},
    {.name = "gemm_dev/small", .op = "gemm_dev", .file = "kernels/examples/gemm_dev.py",
     .args = {"N=128", "K=128"}, .dims = {"M=64"}, .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(128), .golden = golden_gemm, .shape = "M=64 N=128 K=128 f16",
     .flops = 2.0 * 64 * 128 * 128},
    {.name = "gemm_dev/tails", .op = "gemm_dev", .file = "kernels/examples/gemm_dev.py",
     .args = {"N=300", "K=200"}, .dims = {"M=130"}, .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(200), .golden = golden_gemm, .shape = "M=130 N=300 K=200 f16, M/N/K tails",
     .flops = 2.0 * 130 * 300 * 200},
    {.name = "gemm_dev/bf16", .op = "gemm_dev", .file = "kernels/examples/gemm_dev.py",
     .args = {"N=200", "K=136", "dtype=\"bfloat16\""}, .dims = {"M=77"}, .outputs = {"C"},
     .rtol = RTOL_BF16, .atol = GEMM_ATOL(136), .golden = golden_gemm,
     .shape = "M=77 N=200 K=136 bf16, M/N/K tails", .flops = 2.0 * 77 * 200 * 136},
    {.name = "gemm_dev/large", .op = "gemm_dev", .file = "kernels/examples/gemm_dev.py",
     .args = {"N=512", "K=1024"}, .dims = {"M=256"}, .outputs = {"C"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(1024), .golden = golden_gemm, .shape = "M=256 N=512 K=1024 f16",
     .flops = 2.0 * 256 * 512 * 1024},
    {.name = "gemm_transpose_b/small", .op = "gemm_transpose_b",
     .file = "kernels/examples/gemm_transpose_b.py", .args = {"N=128", "K=128"}, .dims = {"M=128"},
     .outputs = {"C"}, .rtol = RTOL_F32, .atol = GEMM_ATOL(128), .golden = golden_gemm_tb,
     .shape = "M=128 N=128 K=128 bf16 -> f32", .flops = 2.0 * 128 * 128 * 128},
    {.name = "gemm_transpose_b/tails", .op = "gemm_transpose_b",
     .file = "kernels/examples/gemm_transpose_b.py", .args = {"N=300", "K=200"}, .dims = {"M=130"},
     .outputs = {"C"}, .rtol = RTOL_F32, .atol = GEMM_ATOL(200), .golden = golden_gemm_tb,
     .shape = "M=130 N=300 K=200 bf16 -> f32, M/N/K tails", .flops = 2.0 * 130 * 300 * 200},
    {.name = "gemm_transpose_b/f16", .op = "gemm_transpose_b",
     .file = "kernels/examples/gemm_transpose_b.py",
     .args = {"N=200", "K=160", "dtype=\"float16\"", "out_dtype=\"float16\""}, .dims = {"M=70"},
     .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(160), .golden = golden_gemm_tb,
     .shape = "M=70 N=200 K=160 f16 -> f16", .flops = 2.0 * 70 * 200 * 160},
    {.name = "gemm_transpose_b/model", .op = "gemm_transpose_b",
     .file = "kernels/examples/gemm_transpose_b.py", .args = {"N=1024", "K=4096"},
     .dims = {"M=128"}, .outputs = {"C"}, .rtol = RTOL_F32, .atol = GEMM_ATOL(4096),
     .golden = golden_gemm_tb, .shape = "M=128 N=1024 K=4096 bf16 -> f32",
     .flops = 2.0 * 128 * 1024 * 4096, .slow = true},

    // gemm_pipelined: K loops of 1 (partial), 2 (= num_stages), 4, 5 and 64 steps.
    {.name = "gemm_pipelined/small", .op = "gemm_pipelined",
     .file = "kernels/examples/gemm_pipelined.py", .args = {"N=256", "K=256"}, .dims = {"M=128"},
     .outputs = {"C"}, .rtol = RTOL_BF16, .atol = GEMM_ATOL(256), .golden = golden_gemm_w,
     .shape = "M=128 N=256 K=256 bf16, 4 K steps", .flops = 2.0 * 128 * 256 * 256},
    {.name = "gemm_pipelined/tails", .op = "gemm_pipelined",
     .file = "kernels/examples/gemm_pipelined.py", .args = {"N=300", "K=200"}, .dims = {"M=130"},
     .outputs = {"C"}, .rtol = RTOL_BF16, .atol = GEMM_ATOL(200), .golden = golden_gemm_w,
     .shape = "M=130 N=300 K=200 bf16, M/N/K tails", .flops = 2.0 * 130 * 300 * 200},
    {.name = "gemm_pipelined/one_step", .op = "gemm_pipelined",
     .file = "kernels/examples/gemm_pipelined.py", .args = {"N=256", "K=40"}, .dims = {"M=64"},
     .outputs = {"C"}, .rtol = RTOL_BF16, .atol = GEMM_ATOL(40), .golden = golden_gemm_w,
     .shape = "M=64 N=256 K=40 bf16, one partial K step", .flops = 2.0 * 64 * 256 * 40},
    {.name = "gemm_pipelined/two_steps", .op = "gemm_pipelined",
     .file = "kernels/examples/gemm_pipelined.py", .args = {"N=256", "K=128"}, .dims = {"M=32"},
     .outputs = {"C"}, .rtol = RTOL_BF16, .atol = GEMM_ATOL(128), .golden = golden_gemm_w,
     .shape = "M=32 N=256 K=128 bf16, trip count = stages", .flops = 2.0 * 32 * 256 * 128},
    {.name = "gemm_pipelined/stages3_f16", .op = "gemm_pipelined",
     .file = "kernels/examples/gemm_pipelined.py",
     .args = {"N=128", "K=320", "block_N=128", "num_stages=3", "dtype=\"float16\""},
     .dims = {"M=96"}, .outputs = {"C"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(320),
     .golden = golden_gemm_w, .shape = "M=96 N=128 K=320 f16, 3 stages",
     .flops = 2.0 * 96 * 128 * 320},
    {.name = "gemm_pipelined/model", .op = "gemm_pipelined",
     .file = "kernels/examples/gemm_pipelined.py", .args = {"N=1024", "K=4096"}, .dims = {"M=128"},
     .outputs = {"C"}, .rtol = RTOL_BF16, .atol = GEMM_ATOL(4096), .golden = golden_gemm_w,
     .shape = "M=128 N=1024 K=4096 bf16", .flops = 2.0 * 128 * 1024 * 4096, .slow = true},
    {.name = "matmul_add/small", .op = "matmul_add", .file = "kernels/examples/matmul_add.py",
     .args = {"M=128", "N=128", "K=128"}, .outputs = {"D"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(128), .golden = golden_matmul_add, .shape = "M=128 N=128 K=128 f16",
     .flops = 2.0 * 128 * 128 * 128},
    {.name = "matmul_add/tails", .op = "matmul_add", .file = "kernels/examples/matmul_add.py",
     .args = {"M=200", "N=300", "K=100"}, .outputs = {"D"}, .rtol = RTOL_F16,
     .atol = GEMM_ATOL(100), .golden = golden_matmul_add,
     .shape = "M=200 N=300 K=100 f16, M/N/K tails", .flops = 2.0 * 200 * 300 * 100},
    {.name = "matmul_add/bf16", .op = "matmul_add", .file = "kernels/examples/matmul_add.py",
     .args = {"M=256", "N=384", "K=200", "dtype=\"bfloat16\""}, .outputs = {"D"}, .rtol = RTOL_BF16,
     .atol = GEMM_ATOL(200), .golden = golden_matmul_add, .shape = "M=256 N=384 K=200 bf16, K tail",
     .flops = 2.0 * 256 * 384 * 200},
    {.name = "matmul_add_dev/small", .op = "matmul_add_dev",
     .file = "kernels/examples/matmul_add_dev.py", .args = {"N=128", "K=128"}, .dims = {"M=128"},
     .outputs = {"D"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(128), .golden = golden_matmul_add,
     .shape = "M=128 N=128 K=128 f16", .flops = 2.0 * 128 * 128 * 128},
    {.name = "matmul_add_dev/tails", .op = "matmul_add_dev",
     .file = "kernels/examples/matmul_add_dev.py", .args = {"N=300", "K=200"}, .dims = {"M=130"},
     .outputs = {"D"}, .rtol = RTOL_F16, .atol = GEMM_ATOL(200), .golden = golden_matmul_add,
     .shape = "M=130 N=300 K=200 f16, M/N/K tails", .flops = 2.0 * 130 * 300 * 200},
    {.name = "matmul_add_dev/bf16", .op = "matmul_add_dev",
     .file = "kernels/examples/matmul_add_dev.py", .args = {"N=200", "K=72", "dtype=\"bfloat16\""},
     .dims = {"M=90"}, .outputs = {"D"}, .rtol = RTOL_BF16, .atol = GEMM_ATOL(72),
     .golden = golden_matmul_add, .shape = "M=90 N=200 K=72 bf16, M/N/K tails",
     .flops = 2.0 * 90 * 200 * 72},

    // online_softmax: N(0, 3) inputs so the running max moves across column blocks; tails pad
    // columns with -inf and clip rows.
    {.name = "online_softmax/small", .op = "online_softmax",
     .file = "kernels/examples/online_softmax.py", .args = {"M=32", "N=512"},
     .fills = {"X=normal:0:3"}, .outputs = {"Y"}, .rtol = SOFTMAX_RTOL_F32,
     .golden = golden_softmax, .shape = "M=32 N=512 f32", .bytes = 2 * 4 * 32 * 512.0},
    {.name = "online_softmax/tails_bf16", .op = "online_softmax",
     .file = "kernels/examples/online_softmax.py",
     .args = {"M=100", "N=1000", "dtype=\"bfloat16\""}, .fills = {"X=normal:0:3"}, .outputs = {"Y"},
     .rtol = RTOL_BF16, .golden = golden_softmax,
     .shape = "M=100 N=1000 bf16, row and column tails", .bytes = 2 * 2 * 100 * 1000.0},
    {.name = "online_softmax/tails_f16", .op = "online_softmax",
     .file = "kernels/examples/online_softmax.py",
     .args = {"M=40", "N=1300", "block_N=256", "dtype=\"float16\""}, .fills = {"X=normal:0:3"},
     .outputs = {"Y"}, .rtol = RTOL_F16, .atol = ATOL_F16_SUBNORMAL, .golden = golden_softmax,
     .shape = "M=40 N=1300 f16, 256-column blocks, tails", .bytes = 2 * 2 * 40 * 1300.0},
    {.name = "online_softmax/large", .op = "online_softmax",
     .file = "kernels/examples/online_softmax.py", .args = {"M=64", "N=4096"},
     .fills = {"X=normal:0:3"}, .outputs = {"Y"}, .rtol = SOFTMAX_RTOL_F32,
     .golden = golden_softmax, .shape = "M=64 N=4096 f32", .bytes = 2 * 4 * 64 * 4096.0},

    // layer_norm: M tails leave one vector core with a partial or empty row band.
    {.name = "layer_norm/small", .op = "layer_norm", .file = "kernels/examples/layer_norm.py",
     .args = {"N=256"}, .dims = {"M=16"}, .fills = {LN_FILLS}, .outputs = {"Y"}, .rtol = RTOL_F16,
     .atol = LN_ATOL, .golden = golden_layer_norm, .shape = "M=16 N=256 f16",
     .bytes = 2 * 2 * 16 * 256.0},
    {.name = "layer_norm/tails_f32", .op = "layer_norm", .file = "kernels/examples/layer_norm.py",
     .args = {"N=256", "dtype=\"float32\""}, .dims = {"M=19"}, .fills = {LN_FILLS},
     .outputs = {"Y"}, .rtol = RTOL_F32, .atol = LN_ATOL, .golden = golden_layer_norm,
     .shape = "M=19 N=256 f32, row tail", .bytes = 2 * 4 * 19 * 256.0},
    {.name = "layer_norm/bf16", .op = "layer_norm", .file = "kernels/examples/layer_norm.py",
     .args = {"N=1024", "eps=1e-3", "dtype=\"bfloat16\""}, .dims = {"M=40"}, .fills = {LN_FILLS},
     .outputs = {"Y"}, .rtol = RTOL_BF16, .atol = LN_ATOL, .golden = golden_layer_norm,
     .shape = "M=40 N=1024 bf16 eps=1e-3, row tail", .bytes = 2 * 2 * 40 * 1024.0},
    // 4096 wide f16 rows: 2 rows per vector core keep x, its f32 copy and the spread in UB.
    {.name = "layer_norm/large", .op = "layer_norm", .file = "kernels/examples/layer_norm.py",
     .args = {"N=4096", "block_M=4"}, .dims = {"M=100"}, .fills = {LN_FILLS}, .outputs = {"Y"}, .rtol = RTOL_F16,
     .atol = LN_ATOL, .golden = golden_layer_norm, .shape = "M=100 N=4096 f16, row tail",
     .bytes = 2 * 2 * 100 * 4096.0},

    // flash_attention: seq_q tails (100 = 64 + 36, 48 = 32 + 16); P is rounded to dtype before
    // P.V (see ATTN_ATOL_*).
    {.name = "flash_attention/small", .op = "flash_attention",
     .file = "kernels/examples/flash_attention.py",
     .args = {"heads=1", "seq_q=64", "seq_kv=128", "dim=64"}, .outputs = {"O"}, .rtol = RTOL_F16,
     .atol = ATTN_ATOL_F16, .golden = golden_attention, .shape = "b=1 h=1 sq=64 skv=128 d=64 f16",
     .flops = FA_FLOPS(1, 1, 64, 128, 64)},
    {.name = "flash_attention/tails_bf16", .op = "flash_attention",
     .file = "kernels/examples/flash_attention.py",
     .args = {"batch=2", "heads=2", "seq_q=100", "seq_kv=128", "dim=64", "dtype=\"bfloat16\""},
     .outputs = {"O"}, .rtol = RTOL_BF16, .atol = ATTN_ATOL_BF16, .golden = golden_attention,
     .shape = "b=2 h=2 sq=100 skv=128 d=64 bf16", .flops = FA_FLOPS(2, 2, 100, 128, 64)},
    {.name = "flash_attention/d128", .op = "flash_attention",
     .file = "kernels/examples/flash_attention.py",
     .args = {"heads=2", "seq_q=128", "seq_kv=256", "dim=128"}, .outputs = {"O"}, .rtol = RTOL_F16,
     .atol = ATTN_ATOL_F16, .golden = golden_attention, .shape = "b=1 h=2 sq=128 skv=256 d=128 f16",
     .flops = FA_FLOPS(1, 2, 128, 256, 128)},
    {.name = "flash_attention/f32", .op = "flash_attention",
     .file = "kernels/examples/flash_attention.py",
     .args = {"heads=2", "seq_q=48", "seq_kv=128", "dim=32", "block_M=32", "block_N=32",
              "dtype=\"float32\""},
     .outputs = {"O"}, .rtol = RTOL_F32, .atol = ATTN_ATOL_F32, .golden = golden_attention,
     .shape = "b=1 h=2 sq=48 skv=128 d=32 f32", .flops = FA_FLOPS(1, 2, 48, 128, 32)},
    {.name = "flash_attention/default", .op = "flash_attention",
     .file = "kernels/examples/flash_attention.py", .outputs = {"O"}, .rtol = RTOL_F16,
     .atol = ATTN_ATOL_F16, .golden = golden_attention, .shape = "b=1 h=8 sq=512 skv=512 d=128 f16",
     .flops = FA_FLOPS(1, 8, 512, 512, 128), .slow = true},
};

// `tilec demo`: the DeepSeek-V4 operators at model shapes (V4-Flash: 64 heads, d 512,
// top-k 512, hidden 4096), too large for the test suite's every-backend runs; CI runs the
// demo, which checks them on the simulator and the CPU.
static const tl_check_case_t demo_cases[] = {
    {.name = "sparse_attn/demo", .op = "sparse_attn", .file = "kernels/ds_v4/sparse_attn.py",
     .args = {"h=64", "d=512"}, .dims = {"b=1", "m=64", "n=8192", "topk=512"},
     .fills = {"topk_idxs=distinct:8192"}, .outputs = {"out"}, .rtol = 5e-3, .atol = 5e-3,
     .golden = golden_sparse_attn, .shape = "b=1 m=64 h=64 d=512 topk=512 n=8192",
     .flops = SA_FLOPS(1, 64, 64, 512, 512), .demo = true, .slow = true},
    {.name = "hc_split_sinkhorn/demo", .op = "hc_split_sinkhorn",
     .file = "kernels/ds_v4/hc_split_sinkhorn.py", .dims = {"N=16384"},
     .outputs = {"pre", "post", "comb"}, .rtol = 1e-5, .atol = 1e-5, .golden = golden_hc_sinkhorn,
     .shape = "N=16384 hc=4 iters=20", .bytes = 16384 * 192.0, .demo = true, .slow = true},
    {.name = "int8_gemm/demo", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=4096", "K=4096"}, .dims = {"M=512"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=512 N=4096 K=4096 bf16 out", .int_ops = true, .flops = 2.0 * 512 * 4096 * 4096, .demo = true,
     .slow = true},
    {.name = "int8_gemm/prefill_demo", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=4096", "K=4096"}, .dims = {"M=16384"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=16384 N=4096 K=4096 bf16 out", .int_ops = true,
     .flops = 2.0 * 16384 * 4096 * 4096, .demo = true, .slow = true, .cpu_only = true},
    {.name = "act_quant/demo", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant", .args = {"N=4096"}, .dims = {"M=4096"}, .outputs = {"Y", "S"},
     .rtol = 1e-6, .atol = 0, .golden = golden_act_quant, .shape = "M=4096 N=4096 int8 per row",
     .bytes = 4096 * 4096 * 3.0 + 4096 * 4, .demo = true, .slow = true},
};
// clang-format on

static const tl_check_case_t *table[TL_ARRAY_LEN(cases) + 1];
static const tl_check_case_t *demo_table[TL_ARRAY_LEN(demo_cases) + 1];

const tl_check_case_t *const *tl_check_cases(void)
{
    if (!table[0])
        for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) table[i] = &cases[i];
    return table;
}

const tl_check_case_t *const *tl_check_demo_cases(void)
{
    if (!demo_table[0])
        for (size_t i = 0; i < TL_ARRAY_LEN(demo_cases); i++) demo_table[i] = &demo_cases[i];
    return demo_table;
}

const tl_check_case_t *tl_check_find(const char *name)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++)
        if (!strcmp(cases[i].name, name)) return &cases[i];
    for (size_t i = 0; i < TL_ARRAY_LEN(demo_cases); i++)
        if (!strcmp(demo_cases[i].name, name)) return &demo_cases[i];
    return NULL;
}
