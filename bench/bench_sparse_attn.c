// Sparse attention with an attention sink (DeepSeek-V4), h = 64, d = 512,
// topk = 512, n = 4096 KV rows, b = 1, m in {1, 64} query tokens: the
// tilec-compiled kernels (cpu target: the operator kernel, and its CPU tiling
// with two blocks per token, kernels/bench/sparse_attn.py) against the same
// math composed from OpenBLAS sgemm calls in the same run (per token: gather
// the top-k rows to float32, S = scale * Q K^T, softmax with the sink,
// O = P V), both on all cores.
//
// OpenBLAS picks its kernel from OPENBLAS_CORETYPE, else from the CPU model;
// OpenBLAS 0.3.21 does not know some AVX-512 models and falls back to its
// SSE3 kernel (Prescott: 36 instead of 215 GFLOP/s sgemm on a 2-core VM), so
// without the variable the benchmark reruns itself with the AVX-512 kernel
// (SkylakeX) on AVX-512 machines, as a user tuning OpenBLAS would. A value
// set by the caller is kept; the line "openblas core" says which kernel ran.
//
// Prints GFLOP/s (4 * m * h * topk * d per run, medians), the ratio, and the
// largest difference between the two outputs.
#include <cblas.h>
#include <math.h>
#include <unistd.h>

#include "bench_util.h"

enum { H = 64, D = 512, TOPK = 512, NKV = 4096 };

typedef struct {
    int64_t m;
    const uint16_t *q, *kv; // bfloat16
    const float *sink;
    const int32_t *idx;
    float *out, *g, *qf, *s;
} blas_t;

static float bf(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void blas_run(void *arg)
{
    blas_t *b = arg;
    const float scale = 1.0f / sqrtf((float)D);
    for (int64_t t = 0; t < b->m; t++) {
        const int32_t *idx = b->idx + t * TOPK;
        float bias[TOPK];
        for (int s = 0; s < TOPK; s++) {
            int32_t r = idx[s];
            bias[s] = r >= 0 && r < NKV ? 0.0f : -INFINITY;
            for (int j = 0; j < D; j++) b->g[s * D + j] = bias[s] == 0 ? bf(b->kv[r * D + j]) : 0;
        }
        for (int i = 0; i < H * D; i++) b->qf[i] = bf(b->q[t * H * D + i]);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, H, TOPK, D, scale, b->qf, D, b->g, D,
                    0.0f, b->s, TOPK);
        for (int h = 0; h < H; h++) {
            float *row = b->s + h * TOPK, mx = b->sink[h], sum;
            for (int s = 0; s < TOPK; s++) mx = fmaxf(mx, row[s] + bias[s]);
            sum = expf(b->sink[h] - mx);
            for (int s = 0; s < TOPK; s++) sum += row[s] = expf(row[s] + bias[s] - mx);
            for (int s = 0; s < TOPK; s++) row[s] /= sum;
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, H, D, TOPK, 1.0f, b->s, TOPK, b->g,
                    D, 0.0f, b->out + t * H * D, D);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("OPENBLAS_CORETYPE") && __builtin_cpu_supports("avx512f")) {
        setenv("OPENBLAS_CORETYPE", "SkylakeX", 1);
        execv("/proc/self/exe", argv); // OpenBLAS reads the variable when it loads
        perror("bench_sparse_attn: re-exec");
    }
    static const char *files[] = {"kernels/ds_v4/sparse_attn.py", "kernels/bench/sparse_attn.py"};
    static const char *names[] = {"operator kernel", "2 blocks/token"};
    tl_diag_t d;
    tl_diag_init(&d);
    const char *ct = getenv("OPENBLAS_CORETYPE");
    printf("sparse attention with sink, h=%d d=%d topk=%d n=%d b=1\n", H, D, TOPK, NKV);
    printf("openblas core: %s (OPENBLAS_CORETYPE=%s)\n", openblas_get_corename(),
           ct ? ct : "unset");
    printf("%4s %-16s %12s %14s %9s %10s\n", "m", "tilec kernel", "tilec", "OpenBLAS", "ratio",
           "max diff");
    int64_t kvshape[3] = {1, NKV, D}, sshape[1] = {H};
    tl_tensor_t *kv = bench_tensor(TL_BF16, 3, kvshape, 2, -1, 1, &d);
    tl_tensor_t *sink = bench_tensor(TL_F32, 1, sshape, 3, -1, 1, &d);
    static const int64_t ms[] = {1, 64};
    const char *args[] = {"h=64", "d=512", NULL};
    tl_arena_t arena;
    tl_arena_init(&arena);
    bench_target_t *c[2];
    for (int f = 0; f < 2; f++)
        c[f] = bench_cpu(bench_kernel(&arena, files[f], NULL, args, &d), &d);
    for (int mi = 0; mi < 2; mi++) {
        int64_t m = ms[mi];
        int64_t qshape[4] = {1, m, H, D}, ishape[3] = {1, m, TOPK};
        tl_tensor_t *q = bench_tensor(TL_BF16, 4, qshape, 1, -1, 1, &d);
        tl_tensor_t *idx;
        if (tl_tensor_create(&idx, TL_I32, 3, ishape, &d)) bench_die(&d, "tensor");
        tl_rng_t r;
        tl_rng_seed(&r, 4);
        if (tl_rng_fill_distinct(&r, idx, NKV, &d)) bench_die(&d, "fill");
        int reps = m == 1 ? 41 : 9;
        blas_t b = {m,
                    q->data,
                    kv->data,
                    sink->data,
                    idx->data,
                    malloc(sizeof(float) * m * H * D),
                    malloc(sizeof(float) * TOPK * D),
                    malloc(sizeof(float) * H * D),
                    malloc(sizeof(float) * H * TOPK)};
        double tb = bench_median(blas_run, &b, reps);
        double flops = 4.0 * (double)m * H * TOPK * D;
        for (int f = 0; f < 2; f++) {
            bench_set(c[f], "q", q);
            bench_set(c[f], "kv", kv);
            bench_set(c[f], "attn_sink", sink);
            bench_set(c[f], "topk_idxs", idx);
            double tt = bench_median(bench_run, c[f], reps);
            const float *got = bench_out(c[f], "out")->data;
            double worst = 0;
            for (int64_t i = 0; i < m * H * D; i++) worst = fmax(worst, fabs(got[i] - b.out[i]));
            printf("%4lld %-16s %9.1f GF %11.1f GF %8.2fx %10.2g\n", (long long)m, names[f],
                   flops / tt * 1e-9, flops / tb * 1e-9, tb / tt, worst);
            fflush(stdout);
        }
        free(b.out), free(b.g), free(b.qf), free(b.s);
        tl_tensor_destroy(q);
        tl_tensor_destroy(idx);
    }
    for (int f = 0; f < 2; f++) bench_free(c[f]);
    tl_arena_free(&arena);
    tl_tensor_destroy(kv);
    tl_tensor_destroy(sink);
    tl_diag_free(&d);
    return 0;
}
