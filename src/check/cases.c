// The check cases: every kernel under kernels/ with its golden reference and
// tolerances, at a small shape and (for the DeepSeek-V4 operators) a model-like
// one scaled to run in seconds. Goldens come from src/ref/ and never from the
// tile-op library.
#include "check/check.h"

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
    tl_sparse_attn_params_t p = {q->shape[0], q->shape[1], q->shape[2], q->shape[3], kv->shape[1],
                                 idx->shape[2], 0, TL_REF_EXACT, TL_REF_BF16, TL_REF_F32};
    p.scale = (float)(1.0 / sqrt((double)p.d));
    floats_t fs = {0};
    float *fq = floats(&fs, io, "q"), *fkv = floats(&fs, io, "kv"), *fsink = floats(&fs, io, "attn_sink");
    float *out = malloc(sizeof(float) * tl_tensor_numel(want));
    tl_status_t st = fq && fkv && fsink && out ? TL_OK : TL_ERR_NOMEM;
    if (st == TL_OK) st = tl_sparse_attn_ref(&p, fq, fkv, fsink, (const int32_t *)idx->data, out, d);
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
    if (!mixes || !pre || !post || !comb) return missing(d, "hc_split_sinkhorn needs mixes, pre, post, comb");
    tl_hc_sinkhorn_params_t p = tl_hc_sinkhorn_defaults(mixes->shape[0]);
    p.hc = pre->shape[1];
    floats_t fs = {0};
    float *fm = floats(&fs, io, "mixes"), *fsc = floats(&fs, io, "hc_scale"), *fb = floats(&fs, io, "hc_base");
    float *o1 = malloc(sizeof(float) * tl_tensor_numel(pre)), *o2 = malloc(sizeof(float) * tl_tensor_numel(post));
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
    tl_int8_gemm_params_t p = {a->shape[0], b->shape[0], a->shape[1], TL_INT8_GEMM_SCALE_SEQ, TL_REF_F32};
    if (want->dtype == TL_BF16) p.out_prec = TL_REF_BF16;
    else if (want->dtype == TL_F16) p.out_prec = TL_REF_F16;
    floats_t fs = {0};
    float *sa = floats(&fs, io, "scale_a"), *sb = floats(&fs, io, "scale_b");
    tl_status_t st = sa && sb ? TL_OK : TL_ERR_NOMEM;
    // float outputs are written as floats, bf16/f16 as their bit patterns: both
    // match the expected tensor's memory layout.
    if (st == TL_OK) st = tl_int8_gemm_ref(&p, (const int8_t *)a->data, (const int8_t *)b->data, sa, sb, want->data, d);
    floats_free(&fs);
    return st;
}

static tl_status_t act_quant_common(tl_check_io_t *io, int64_t block, bool round_scale, tl_diag_t *d)
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

static tl_status_t golden_act_quant(const tl_check_case_t *c, tl_check_io_t *io, tl_diag_t *d)
{
    (void)c;
    return act_quant_common(io, 0, false, d);
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

// --- the table ---------------------------------------------------------------------------------

#define SA_FLOPS(b, m, h, d, k) (4.0 * (b) * (m) * (h) * (k) * (d))

static const tl_check_case_t cases[] = {
    {.name = "sparse_attn/small", .op = "sparse_attn", .file = "kernels/ds_v4/sparse_attn.py",
     .args = {"h=16", "d=64"}, .dims = {"b=1", "m=2", "n=128", "topk=64"},
     .fills = {"topk_idxs=distinct:128"}, .outputs = {"out"}, .rtol = 1e-2, .atol = 1e-2,
     .golden = golden_sparse_attn, .shape = "b=1 m=2 h=16 d=64 topk=64 n=128",
     .flops = SA_FLOPS(1, 2, 16, 64, 64)},
    {.name = "sparse_attn/model", .op = "sparse_attn", .file = "kernels/ds_v4/sparse_attn.py",
     .args = {"h=64", "d=512"}, .dims = {"b=1", "m=4", "n=2048", "topk=512"},
     .fills = {"topk_idxs=distinct:2048"}, .outputs = {"out"}, .rtol = 1e-2, .atol = 1e-2,
     .golden = golden_sparse_attn, .shape = "b=1 m=4 h=64 d=512 topk=512 n=2048",
     .flops = SA_FLOPS(1, 4, 64, 512, 512), .demo = true, .slow = true},
    {.name = "hc_split_sinkhorn/small", .op = "hc_split_sinkhorn", .file = "kernels/ds_v4/hc_split_sinkhorn.py",
     .dims = {"N=5"}, .outputs = {"pre", "post", "comb"}, .rtol = 1e-5, .atol = 1e-5,
     .golden = golden_hc_sinkhorn, .shape = "N=5 hc=4 iters=20", .bytes = 5 * 192.0},
    {.name = "hc_split_sinkhorn/model", .op = "hc_split_sinkhorn", .file = "kernels/ds_v4/hc_split_sinkhorn.py",
     .dims = {"N=4096"}, .outputs = {"pre", "post", "comb"}, .rtol = 1e-5, .atol = 1e-5,
     .golden = golden_hc_sinkhorn, .shape = "N=4096 hc=4 iters=20", .bytes = 4096 * 192.0, .demo = true},
    {.name = "int8_gemm/small", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=256", "K=256"}, .dims = {"M=96"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=96 N=256 K=256 bf16 out", .flops = 2.0 * 96 * 256 * 256},
    {.name = "int8_gemm/model", .op = "int8_gemm", .file = "kernels/ds_v4/int8_gemm.py",
     .args = {"N=1024", "K=4096"}, .dims = {"M=128"}, .outputs = {"C"}, .golden = golden_int8_gemm,
     .shape = "M=128 N=1024 K=4096 bf16 out", .flops = 2.0 * 128 * 1024 * 4096, .demo = true, .slow = true},
    {.name = "act_quant/small", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py", .kernel = "act_quant",
     .args = {"N=1024"}, .dims = {"M=32"}, .outputs = {"Y", "S"}, .rtol = 1e-6, .atol = 0,
     .golden = golden_act_quant, .shape = "M=32 N=1024 int8 per row", .bytes = 32 * 1024 * 3.0 + 32 * 4},
    {.name = "act_quant/model", .op = "act_quant", .file = "kernels/ds_v4/act_quant.py", .kernel = "act_quant",
     .args = {"N=4096"}, .dims = {"M=256"}, .outputs = {"Y", "S"}, .rtol = 1e-6, .atol = 0,
     .golden = golden_act_quant, .shape = "M=256 N=4096 int8 per row", .bytes = 256 * 4096 * 3.0 + 256 * 4,
     .demo = true},
    {.name = "act_quant_block/small", .op = "act_quant_block", .file = "kernels/ds_v4/act_quant.py",
     .kernel = "act_quant_block", .args = {"N=1024", "round_scale=True"}, .dims = {"M=32"}, .outputs = {"Y", "S"}, .rtol = 1e-6,
     .atol = 0, .golden = golden_act_quant_block, .shape = "M=32 N=1024 fp8 e4m3, 128-blocks",
     .bytes = 32 * 1024 * 3.0},
};

static const tl_check_case_t *table[TL_ARRAY_LEN(cases) + 1];

const tl_check_case_t *const *tl_check_cases(void)
{
    if (!table[0])
        for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) table[i] = &cases[i];
    return table;
}

const tl_check_case_t *tl_check_find(const char *name)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++)
        if (!strcmp(cases[i].name, name)) return &cases[i];
    return NULL;
}
