// Memory-bound DeepSeek-V4 operators as GB/s: act_quant (bfloat16 [M, 4096]
// -> int8 + per-row scales) and hc_split_sinkhorn (mixes [N, 24] float32 ->
// pre, post, comb), both tilec-compiled for the cpu target, against a plain
// memcpy moving the same number of bytes (split over the same threads) in the
// same run. GB/s counts bytes read + bytes written; medians of repeated runs.
#include "bench_util.h"
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

static void tilec_run(void *arg)
{
    tl_diag_t d;
    tl_diag_init(&d);
    if (tl_cpu_run(arg)) bench_die(&d, "tilec run");
    tl_diag_free(&d);
}

// Times the kernel and a memcpy of the same traffic; prints one line.
static void compare(const char *name, tl_cpu_t *c, double bytes, tl_pool_t *pool, int reps)
{
    double tk = bench_median(tilec_run, c, reps);
    copy_t cp = {malloc((size_t)(bytes / 2)), malloc((size_t)(bytes / 2)), (size_t)(bytes / 2),
                 tl_pool_size(pool), pool};
    memset((void *)cp.src, 1, cp.n);
    memset(cp.dst, 0, cp.n);
    double tc = bench_median(copy_run, &cp, reps);
    printf("%-34s %8.1f MB %9.2f GB/s %9.2f GB/s %8.2fx\n", name, bytes * 1e-6, bytes / tk * 1e-9,
           bytes / tc * 1e-9, tc / tk);
    fflush(stdout);
    free(cp.dst);
    free((void *)cp.src);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : ""; // "act_quant" or "hc": one operator
    int reps = argc > 2 ? atoi(argv[2]) : 15;     // more for profiling (at most 256)
    if (reps < 1) reps = 15;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_pool_t *pool;
    if (tl_pool_create(&pool, 0, &d)) bench_die(&d, "pool");
    printf("%-34s %11s %14s %14s %9s\n", "operator", "traffic", "tilec", "memcpy", "ratio");
    if (!*only || !strcmp(only, "act_quant")) {
        int64_t M = 4096, N = 4096, shape[2] = {M, N};
        tl_arena_t arena;
        tl_arena_init(&arena);
        const char *args[] = {"N=4096", NULL};
        tl_kernel_t *k = bench_kernel(&arena, "kernels/ds_v4/act_quant.py", "act_quant", args, &d);
        tl_cpu_t *c = bench_cpu(k, &d);
        tl_tensor_t *x = bench_tensor(TL_BF16, 2, shape, 1, -4, 4, &d);
        tl_cpu_set_tensor(c, "X", x);
        compare("act_quant M=4096 N=4096", c, (double)M * N * 3 + M * 4, pool, reps);
        tl_cpu_destroy(c);
        tl_tensor_destroy(x);
        tl_arena_free(&arena);
    }
    if (!*only || !strcmp(only, "hc")) {
        int64_t N = 65536, shape[2] = {N, 24}, s3[1] = {3}, s24[1] = {24};
        tl_arena_t arena;
        tl_arena_init(&arena);
        const char *args[] = {"tile_tokens=256", NULL}; // CPU-sized tiles: fewer, longer ops
        tl_kernel_t *k = bench_kernel(&arena, "kernels/ds_v4/hc_split_sinkhorn.py", NULL, args, &d);
        tl_cpu_t *c = bench_cpu(k, &d);
        tl_tensor_t *mix = bench_tensor(TL_F32, 2, shape, 1, -1, 1, &d);
        tl_tensor_t *sc = bench_tensor(TL_F32, 1, s3, 2, 0.5, 1.5, &d);
        tl_tensor_t *base = bench_tensor(TL_F32, 1, s24, 3, -1, 1, &d);
        tl_cpu_set_tensor(c, "mixes", mix);
        tl_cpu_set_tensor(c, "hc_scale", sc);
        tl_cpu_set_tensor(c, "hc_base", base);
        compare("hc_split_sinkhorn N=65536 hc=4 tt=256", c, (double)N * (24 + 4 + 4 + 16) * 4, pool,
                reps);
        tl_cpu_destroy(c);
        tl_tensor_destroy(mix);
        tl_tensor_destroy(sc);
        tl_tensor_destroy(base);
        tl_arena_free(&arena);
    }
    tl_pool_destroy(pool);
    tl_diag_free(&d);
    return 0;
}
