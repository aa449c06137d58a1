// Int8 GEMM with per-row scales, N = K = 4096, M in {1, 16, 128, 2048}:
// the tilec-compiled kernel (kernels/bench/int8_gemm.py on the cpu target)
// against oneDNN's int8 matmul (s8 x s8 -> f32 with output scales per column)
// followed by the per-row scale and the bf16 rounding in a loop (oneDNN 2.6
// runs an int8 matmul with a per-row binary post-op on its reference
// implementation, 1000x slower), in the same run, both on all cores.
// oneDNN is timed twice: weights in the plain layout the kernel gets ([N, K]
// row-major) and in oneDNN's own packed layout (reordered once, untimed).
// Prints GOP/s (2*M*N*K per run, medians) and the ratios.
#include <math.h>
#include <oneapi/dnnl/dnnl.h>

#include "bench_util.h"

#define DNNL_CHECK(x)                                                                              \
    do {                                                                                           \
        dnnl_status_t s_ = (x);                                                                    \
        if (s_ != dnnl_success) {                                                                  \
            fprintf(stderr, "oneDNN error %d at %s\n", (int)s_, #x);                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum { N = 4096, K = 4096 };

typedef struct {
    int64_t M;
    float *acc;
    const float *sa;
    uint16_t *C;
    dnnl_engine_t eng;
    dnnl_stream_t stream;
    dnnl_primitive_t prim;
    dnnl_exec_arg_t args[3];
    dnnl_memory_t mem[5];
} onednn_t;

static void onednn_init(onednn_t *o, int64_t M, const int8_t *A, const int8_t *B, const float *sa,
                        const float *sb, uint16_t *C, bool packed)
{
    memset(o, 0, sizeof *o);
    o->M = M;
    o->acc = malloc((size_t)(M * N) * sizeof *o->acc);
    o->sa = sa;
    o->C = C;
    DNNL_CHECK(dnnl_engine_create(&o->eng, dnnl_cpu, 0));
    DNNL_CHECK(dnnl_stream_create(&o->stream, o->eng, dnnl_stream_default_flags));
    dnnl_memory_desc_t a_md, b_md, b_plain, c_md;
    dnnl_dims_t ad = {M, K}, bd = {K, N}, cd = {M, N};
    DNNL_CHECK(dnnl_memory_desc_init_by_tag(&a_md, 2, ad, dnnl_s8, dnnl_ab));
    DNNL_CHECK(dnnl_memory_desc_init_by_tag(&b_plain, 2, bd, dnnl_s8, dnnl_ba)); // B is [N, K]
    DNNL_CHECK(dnnl_memory_desc_init_by_tag(&b_md, 2, bd, dnnl_s8,
                                            packed ? dnnl_format_tag_any : dnnl_ba));
    DNNL_CHECK(dnnl_memory_desc_init_by_tag(&c_md, 2, cd, dnnl_f32, dnnl_ab));
    dnnl_matmul_desc_t md;
    DNNL_CHECK(dnnl_matmul_desc_init(&md, &a_md, &b_md, NULL, &c_md));
    dnnl_primitive_attr_t attr;
    DNNL_CHECK(dnnl_primitive_attr_create(&attr));
    DNNL_CHECK(dnnl_primitive_attr_set_output_scales(attr, N, 1 << 1, sb));
    dnnl_primitive_desc_t pd;
    DNNL_CHECK(dnnl_primitive_desc_create(&pd, &md, attr, o->eng, NULL));
    const dnnl_memory_desc_t *wmd = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    DNNL_CHECK(dnnl_memory_create(&o->mem[0], &a_md, o->eng, (void *)A));
    DNNL_CHECK(dnnl_memory_create(&o->mem[1], &b_plain, o->eng, (void *)B));
    DNNL_CHECK(dnnl_memory_create(&o->mem[2], &c_md, o->eng, o->acc));
    dnnl_memory_t w = o->mem[1];
    if (packed && !dnnl_memory_desc_equal(wmd, &b_plain)) { // reorder once, untimed
        DNNL_CHECK(dnnl_memory_create(&o->mem[4], wmd, o->eng, DNNL_MEMORY_ALLOCATE));
        dnnl_primitive_desc_t rpd;
        DNNL_CHECK(dnnl_reorder_primitive_desc_create(&rpd, &b_plain, o->eng, wmd, o->eng, NULL));
        dnnl_primitive_t r;
        DNNL_CHECK(dnnl_primitive_create(&r, rpd));
        dnnl_exec_arg_t ra[2] = {{DNNL_ARG_FROM, o->mem[1]}, {DNNL_ARG_TO, o->mem[4]}};
        DNNL_CHECK(dnnl_primitive_execute(r, o->stream, 2, ra));
        DNNL_CHECK(dnnl_stream_wait(o->stream));
        dnnl_primitive_destroy(r);
        dnnl_primitive_desc_destroy(rpd);
        w = o->mem[4];
    }
    DNNL_CHECK(dnnl_primitive_create(&o->prim, pd));
    o->args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, o->mem[0]};
    o->args[1] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, w};
    o->args[2] = (dnnl_exec_arg_t){DNNL_ARG_DST, o->mem[2]};
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
}

static void onednn_run(void *arg)
{
    onednn_t *o = arg;
    DNNL_CHECK(dnnl_primitive_execute(o->prim, o->stream, 3, o->args));
    DNNL_CHECK(dnnl_stream_wait(o->stream));
    for (int64_t i = 0; i < o->M; i++)
        for (int64_t j = 0; j < N; j++) {
            float v = o->acc[i * N + j] * o->sa[i];
            uint32_t u;
            memcpy(&u, &v, 4);
            o->C[i * N + j] = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
        }
}

static void onednn_free(onednn_t *o)
{
    dnnl_primitive_destroy(o->prim);
    for (int i = 0; i < 5; i++)
        if (o->mem[i]) dnnl_memory_destroy(o->mem[i]);
    dnnl_stream_destroy(o->stream);
    free(o->acc);
    dnnl_engine_destroy(o->eng);
}

static float bf16f(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main(void)
{
    static const int64_t Ms[] = {1, 16, 128, 2048};
    tl_diag_t d;
    tl_diag_init(&d);
    printf("int8 GEMM with scales, N = K = %d, bf16 out; GOP/s = 2*M*N*K / median time\n", N);
    printf("oneDNN: plain weights as given ([N, K] row-major); pk: weights reordered once into "
           "oneDNN's layout (untimed)\n");
    printf("%6s %10s %12s %12s %9s %9s %10s\n", "M", "tilec", "oneDNN", "oneDNN(pk)", "x oneDNN",
           "x pk", "max rel");
    int64_t bshape[2] = {N, K}, sbshape[1] = {N};
    tl_tensor_t *B = bench_tensor(TL_I8, 2, bshape, 2, -127, 127, &d);
    tl_tensor_t *sb = bench_tensor(TL_F32, 1, sbshape, 4, 0.001, 0.01, &d);
    const char *only = getenv("BENCH_M"); // one M only (for profiling)
    for (int mi = 0; mi < 4; mi++) {
        int64_t M = Ms[mi];
        if (only && atoll(only) != M) continue;
        char bm[32], bn[32], bk[32];
        // tiles per M: decode rows exactly; large M: 256 x 256 x 1024 tiles
        snprintf(bm, sizeof bm, "block_M=%d", M <= 1 ? 1 : M <= 16 ? 16 : M <= 128 ? 128 : 256);
        snprintf(bn, sizeof bn, "block_N=%d", M <= 16 ? 128 : 256);
        snprintf(bk, sizeof bk, "block_K=%d", M <= 16 ? 4096 : 1024);
        const char *args[] = {"N=4096", "K=4096", bm, bn, bk, NULL};
        tl_arena_t arena;
        tl_arena_init(&arena);
        tl_kernel_t *k = bench_kernel(&arena, "kernels/bench/int8_gemm.py", NULL, args, &d);
        bench_target_t *c = bench_cpu(k, &d);
        int64_t ashape[2] = {M, K}, sashape[1] = {M};
        tl_tensor_t *A = bench_tensor(TL_I8, 2, ashape, 1, -127, 127, &d);
        tl_tensor_t *sa = bench_tensor(TL_F32, 1, sashape, 3, 0.001, 0.01, &d);
        bench_set(c, "A", A);
        bench_set(c, "B", B);
        bench_set(c, "scale_a", sa);
        bench_set(c, "scale_b", sb);
        int reps = M <= 16 ? 41 : M <= 128 ? 21 : 7;
        double tt = bench_median(bench_run, c, reps);
        const uint16_t *Ct = bench_out(c, "C")->data;
        uint16_t *Co = malloc((size_t)(M * N) * 2);
        onednn_t plain, pk;
        onednn_init(&plain, M, A->data, B->data, sa->data, sb->data, Co, false);
        double to = bench_median(onednn_run, &plain, reps);
        onednn_init(&pk, M, A->data, B->data, sa->data, sb->data, Co, true);
        double tp = bench_median(onednn_run, &pk, reps);
        double worst = 0;
        for (int64_t i = 0; i < M * N; i++) {
            double a = bf16f(Ct[i]), b = bf16f(Co[i]);
            double r = fabs(a - b) / (fabs(b) + 1e-3);
            if (r > worst) worst = r;
        }
        double ops = 2.0 * (double)M * N * K;
        printf("%6lld %10.1f %12.1f %12.1f %8.2fx %8.2fx %10.2g\n", (long long)M, ops / tt * 1e-9,
               ops / to * 1e-9, ops / tp * 1e-9, to / tt, tp / tt, worst);
        fflush(stdout);
        onednn_free(&plain);
        onednn_free(&pk);
        free(Co);
        bench_free(c);
        tl_tensor_destroy(A);
        tl_tensor_destroy(sa);
        tl_arena_free(&arena);
    }
    tl_tensor_destroy(B);
    tl_tensor_destroy(sb);
    tl_diag_free(&d);
    return 0;
}
