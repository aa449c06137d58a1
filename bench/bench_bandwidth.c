// Memory-bound DeepSeek-V4 operators as GB/s: act_quant (bfloat16 [M, 4096]
// -> int8 + per-row scales) and hc_split_sinkhorn (mixes [N, 24] float32 ->
// pre, post, comb), both tilec-compiled for the cpu target, against a plain
// memcpy moving the same number of bytes (split over the same threads) in the
// same run, and hand-written AVX-512 C of each operator (hand_ops.h) on the
// same threads: how far the kernel is from what this machine gives code
// written for it. GB/s counts bytes read + bytes written; medians of
// repeated runs.
#include <math.h>

#include "bench_util.h"
#include "hand_ops.h"
#include "rt/pool.h"

typedef struct {
    uint8_t *dst;
    const uint8_t *src;
    size_t n;
    int parts;
    tl_pool_t *pool;
} copy_t;

static void copy_part(void *arg, int64_t t, int thread)
{
    (void)thread;
    copy_t *c = arg;
    size_t per = (c->n + (size_t)c->parts - 1) / (size_t)c->parts, at = (size_t)t * per;
    if (at < c->n) memcpy(c->dst + at, c->src + at, TL_MIN(per, c->n - at));
}

static void copy_run(void *arg)
{
    copy_t *c = arg;
    tl_pool_run(c->pool, c->parts, copy_part, c);
}

typedef struct {
    tl_pool_t *pool;
    tl_pool_fn fn;
    void *arg;
    int64_t parts;
} hand_run_t;

static void hand_run(void *arg)
{
    hand_run_t *h = arg;
    tl_pool_run(h->pool, h->parts, h->fn, h->arg);
}

// Times the kernel, the hand-written code (hand->fn NULL: none on this
// machine) and a memcpy of the same traffic; prints one line.
static void compare(const char *name, bench_target_t *c, hand_run_t *hand, double bytes, tl_pool_t *pool,
                    int reps)
{
    double tk = bench_median(bench_run, c, reps);
    double th = hand->fn ? bench_median(hand_run, hand, reps) : 0;
    copy_t cp = {malloc((size_t)(bytes / 2)), malloc((size_t)(bytes / 2)), (size_t)(bytes / 2),
                 tl_pool_size(pool), pool};
    memset((void *)cp.src, 1, cp.n);
    memset(cp.dst, 0, cp.n);
    double tc = bench_median(copy_run, &cp, reps);
    char hs[32] = "n/a", hr[32] = "n/a";
    if (th > 0) {
        snprintf(hs, sizeof hs, "%.2f GB/s", bytes / th * 1e-9);
        snprintf(hr, sizeof hr, "%.2fx", tc / th);
    }
    printf("%-26s %7.1f MB %11.2f GB/s %14s %11.2f GB/s %8.2fx %8s\n", name, bytes * 1e-6,
           bytes / tk * 1e-9, hs, bytes / tc * 1e-9, tc / tk, hr);
    fflush(stdout);
    free(cp.dst);
    free((void *)cp.src);
}

// The largest |a - b| over two float tensors of one shape.
static double max_diff(const tl_tensor_t *a, const float *b)
{
    double m = 0;
    const float *x = a->data;
    for (size_t i = 0; i < tl_tensor_numel(a); i++) m = fmax(m, fabs((double)x[i] - b[i]));
    return m;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : ""; // "act_quant" or "hc": one operator
    int reps = argc > 2 ? atoi(argv[2]) : 15;   // more for profiling (at most 256)
    if (reps < 1) reps = 15;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_pool_t *pool;
    if (tl_pool_create(&pool, 0, &d)) bench_die(&d, "pool");
    printf("%-26s %10s %16s %14s %16s %9s %8s\n", "operator", "traffic", "tilec", "hand C",
           "memcpy", "tilec/cp", "hand/cp");
    bool hand_ok = HAND_OPS && hand_supported();
    if (!*only || !strcmp(only, "act_quant")) {
        int64_t M = 4096, N = 4096, shape[2] = {M, N};
        tl_arena_t arena;
        tl_arena_init(&arena);
        const char *args[] = {"N=4096", NULL};
        tl_kernel_t *k = bench_kernel(&arena, "kernels/ds_v4/act_quant.py", "act_quant", args, &d);
        bench_target_t *c = bench_cpu(k, &d);
        tl_tensor_t *x = bench_tensor(TL_BF16, 2, shape, 1, -4, 4, &d);
        bench_set(c, "X", x);
        int8_t *y = malloc((size_t)(M * N));
        float *s = malloc((size_t)M * sizeof *s);
        hand_run_t hand = {pool, NULL, NULL, 8 * tl_pool_size(pool)};
#if HAND_OPS
        hand_aq_t ha = {x->data, y, s, M, N, hand.parts};
        if (hand_ok) hand.fn = hand_aq_part, hand.arg = &ha;
#endif
        compare("act_quant M=4096 N=4096", c, &hand, (double)M * N * 3 + M * 4, pool, reps);
        if (hand.fn) // the same bytes, or the comparison is void
            printf("  hand C output %s tilec's\n",
                   !memcmp(y, bench_out(c, "Y")->data, (size_t)(M * N)) &&
                           !memcmp(s, bench_out(c, "S")->data, (size_t)M * sizeof *s)
                       ? "equals"
                       : "DIFFERS from");
        free(y);
        free(s);
        bench_free(c);
        tl_tensor_destroy(x);
        tl_arena_free(&arena);
    }
    if (!*only || !strcmp(only, "hc")) {
        int64_t N = 65536, shape[2] = {N, 24}, s3[1] = {3}, s24[1] = {24};
        tl_arena_t arena;
        tl_arena_init(&arena);
        const char *args[] = {"tile_tokens=256", NULL}; // CPU-sized tiles: fewer, longer ops
        tl_kernel_t *k = bench_kernel(&arena, "kernels/ds_v4/hc_split_sinkhorn.py", NULL, args, &d);
        bench_target_t *c = bench_cpu(k, &d);
        tl_tensor_t *mix = bench_tensor(TL_F32, 2, shape, 1, -1, 1, &d);
        tl_tensor_t *sc = bench_tensor(TL_F32, 1, s3, 2, 0.5, 1.5, &d);
        tl_tensor_t *base = bench_tensor(TL_F32, 1, s24, 3, -1, 1, &d);
        bench_set(c, "mixes", mix);
        bench_set(c, "hc_scale", sc);
        bench_set(c, "hc_base", base);
        float *out = malloc((size_t)N * 24 * sizeof *out);
        hand_run_t hand = {pool, NULL, NULL, 8 * tl_pool_size(pool)};
#if HAND_OPS
        hand_hc_t hh = {mix->data,   sc->data, base->data, out, out + N * 4,
                        out + N * 8, N,        hand.parts, 20,  1e-6f};
        if (hand_ok) hand.fn = hand_hc_part, hand.arg = &hh;
#endif
        compare("hc_split_sinkhorn N=65536", c, &hand, (double)N * (24 + 4 + 4 + 16) * 4, pool,
                reps);
        if (hand.fn)
            printf("  hand C vs tilec: max |diff| pre %.2g post %.2g comb %.2g\n",
                   max_diff(bench_out(c, "pre"), out),
                   max_diff(bench_out(c, "post"), out + N * 4),
                   max_diff(bench_out(c, "comb"), out + N * 8));
        free(out);
        bench_free(c);
        tl_tensor_destroy(mix);
        tl_tensor_destroy(sc);
        tl_tensor_destroy(base);
        tl_arena_free(&arena);
    }
    tl_pool_destroy(pool);
    tl_diag_free(&d);
    return 0;
}
