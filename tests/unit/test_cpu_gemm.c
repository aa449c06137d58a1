// The SIMD GEMM kernels (tileop_gemm_x86.c) against the portable loops of
// tileop_gemm.c on random shapes with tails in every dimension, transposes,
// init and accumulate, sub-tiles of wider buffers: int8 bit-exact (int32
// wrap included), float32/bfloat16/float16 bit-exact (same order of roundings).
// A gemm split over threads (ctx.share) gives the bits of the unsplit one.
#include "test_tileop.h"

#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "exec/tileop_gemm_x86.h"
#include "rt/pool.h"

static uint64_t rng = 88172645463325252u;

static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

typedef struct {
    int64_t M, N, K, extra; // extra columns: operands are sub-tiles of wider buffers
    bool ta, tb, init;
    tl_dtype_t in;
} shape_t;

// The ctx.share of the runs (NULL: unsplit).
static const tl_tileop_share_t *run_share;

// Runs one gemm on the given ISA; returns C (caller frees).
static void *run(const shape_t *s, tl_gemm_isa_t isa, const void *a, const void *b, const void *c0,
                 tl_test_t *t)
{
    tl_gemm_x86_set_isa(isa);
    fx_t f;
    fx_init(&f);
    f.ctx.share = run_share;
    tl_op_t op = top(TL_OP_GEMM_V0);
    op.transpose_a = s->ta, op.transpose_b = s->tb;
    int64_t ar = s->ta ? s->K : s->M, ac = s->ta ? s->M : s->K;
    int64_t br = s->tb ? s->N : s->K, bc = s->tb ? s->K : s->N, x = s->extra;
    tl_dtype_t ct = s->in == TL_I8 ? TL_I32 : TL_F32;
    size_t csz = (size_t)(s->M * (s->N + x)) * 4;
    void *c = malloc(csz);
    memcpy(c, c0, csz);
    size_t esz = (size_t)tl_dtype_size(s->in);
    tl_view_t va =
        tv((void *)a, (size_t)(ar * (ac + x)) * esz, s->in, TL_SCOPE_L1, "a", 2, DIMS(ar, ac + x));
    tl_view_t vb =
        tv((void *)b, (size_t)(br * (bc + x)) * esz, s->in, TL_SCOPE_L1, "b", 2, DIMS(br, bc + x));
    tl_view_t vc = tv(c, csz, ct, TL_SCOPE_L0C, "c", 2, DIMS(s->M, s->N + x));
    va = tv_sub(va, DIMS(0, x), DIMS(ar, ac));
    vb = tv_sub(vb, DIMS(0, x), DIMS(br, bc));
    vc = tv_sub(vc, DIMS(0, x), DIMS(s->M, s->N));
    tl_operand_t args[] = {OV(va), OV(vb), OV(vc)};
    tl_opcall_t call = tcall(&op, 3, args);
    call.init = OI(s->init).scalar;
    CHECK(tl_tileop_run(&f.ctx, &call) == TL_OK);
    fx_free(&f);
    return c;
}

static void fill(void *p, tl_dtype_t t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float v = (float)((int)(next() % 2001) - 1000) / 64.0f;
        if (t == TL_I8) ((int8_t *)p)[i] = (int8_t)(next() & 0xff);
        if (t == TL_F32) ((float *)p)[i] = v * 1.37f;
        if (t == TL_BF16) ((uint16_t *)p)[i] = bf(v);
        if (t == TL_F16) ((uint16_t *)p)[i] = tl_f32_to_f16(v, TL_CAST_RINT);
    }
}

static void *random_inputs(const shape_t *s, void **a, void **b)
{
    int64_t x = s->extra;
    size_t esz = (size_t)tl_dtype_size(s->in);
    size_t na = (size_t)((s->ta ? s->K : s->M) * ((s->ta ? s->M : s->K) + x));
    size_t nb = (size_t)((s->tb ? s->N : s->K) * ((s->tb ? s->K : s->N) + x));
    size_t nc = (size_t)(s->M * (s->N + x));
    *a = malloc(na * esz), *b = malloc(nb * esz);
    int32_t *c0 = malloc(nc * 4);
    fill(*a, s->in, na);
    fill(*b, s->in, nb);
    for (size_t i = 0; i < nc; i++) c0[i] = (int32_t)next();
    if (s->in != TL_I8)
        for (size_t i = 0; i < nc; i++) ((float *)c0)[i] = (float)(int)(next() % 100);
    return c0;
}

static void compare_paths(tl_test_t *t, const shape_t *s)
{
    size_t nc = (size_t)(s->M * (s->N + s->extra));
    void *a, *b, *c0 = random_inputs(s, &a, &b);
    void *want = run(s, TL_GEMM_PORTABLE, a, b, c0, t);
    for (int isa = TL_GEMM_AVX2; isa <= TL_GEMM_AVX512_BF16; isa++) {
        if ((int)tl_gemm_x86_set_isa((tl_gemm_isa_t)isa) != isa) continue;
        void *got = run(s, (tl_gemm_isa_t)isa, a, b, c0, t);
        int bad = memcmp(got, want, nc * 4) != 0;
        if (bad)
            tl_test_fail(t, __FILE__, __LINE__,
                         "isa %d differs: %s M=%lld N=%lld K=%lld ta=%d tb=%d init=%d", isa,
                         tl_dtype_name(s->in), (long long)s->M, (long long)s->N, (long long)s->K,
                         s->ta, s->tb, s->init);
        free(got);
    }
    tl_gemm_x86_set_isa(TL_GEMM_AVX512_BF16);
    free(want);
    free(a);
    free(b);
    free(c0);
}

TEST(cpu_gemm_int8_simd_matches_portable)
{
    // M <= 16 with B transposed takes the dot-product kernels (row groups of
    // up to 6 including the row of ones: 11 -> 6 + 6, 16 -> 6 + 6 + 5)
    static const int64_t Ms[] = {1, 5, 6, 7, 11, 13, 16, 17, 64};
    static const int64_t Ns[] = {1, 16, 17, 63, 64, 65, 130};
    static const int64_t Ks[] = {4, 8, 60, 64, 68, 256, 260};
    for (int i = 0; i < 60; i++) {
        shape_t s = {Ms[next() % 9], Ns[next() % 7], Ks[next() % 7], next() % 2 ? 0 : 3,
                     next() % 2,     next() % 2,     next() % 2,     TL_I8};
        compare_paths(t, &s);
    }
    // exactness past 2^24 and int32 wrap: all -128 over a deep K onto a large C
    shape_t s = {3, 20, 2048, 0, false, true, false, TL_I8};
    compare_paths(t, &s);
}

TEST(cpu_gemm_float_simd_matches_portable)
{
    static const tl_dtype_t types[] = {TL_F32, TL_BF16, TL_F16};
    static const int64_t Ms[] = {1, 6, 7, 13, 64}, Ns[] = {1, 16, 17, 64, 65, 130};
    for (int i = 0; i < 40; i++) {
        shape_t s = {Ms[next() % 5], Ns[next() % 6], 1 + next() % 300, next() % 2 ? 0 : 5,
                     next() % 2,     next() % 2,     next() % 2,       types[next() % 3]};
        compare_paths(t, &s);
    }
}

TEST(cpu_gemm_isa_selection)
{
    tl_gemm_isa_t best = tl_gemm_x86_set_isa(TL_GEMM_AVX512_BF16);
    CHECK(tl_gemm_x86_set_isa(TL_GEMM_PORTABLE) == TL_GEMM_PORTABLE);
    CHECK(tl_gemm_x86_isa() == TL_GEMM_PORTABLE);
    CHECK(tl_gemm_x86_set_isa(TL_GEMM_AVX512_BF16) == best);
    CHECK(best != TL_GEMM_AVX512_BF16 || __builtin_cpu_supports("avx512bf16"));
}

// A share that claims `fake_idle` idle threads and runs the parts on the
// caller, last part first; it counts the calls and parts.
static int fake_idle;
static int64_t fake_calls, fake_parts;

static int fake_idle_fn(void)
{
    return fake_idle;
}

static void fake_run(int64_t n, void (*part)(void *, int64_t, int), void *arg)
{
    fake_calls++, fake_parts += n;
    for (int64_t i = n - 1; i >= 0; i--) part(arg, i, (int)i);
}

static const tl_tileop_share_t fake_share = {fake_idle_fn, fake_run};

TEST(cpu_gemm_split_gives_the_unsplit_bits)
{
    static const tl_dtype_t types[] = {TL_F32, TL_BF16, TL_F16, TL_I8};
    // big enough to split (2 M multiply-adds a part) unless M or N is small
    static const int64_t Ms[] = {1, 7, 64, 100, 130}, Ns[] = {17, 65, 130, 300, 520};
    static const int idles[] = {1, 2, 3, 15};
    int64_t split = 0;
    for (int i = 0; i < 40; i++) {
        shape_t s = {Ms[next() % 5],     Ns[next() % 5],   200 + next() % 400 / 4 * 4,
                     next() % 2 ? 0 : 5, next() % 2,       next() % 2,
                     next() % 2,         types[next() % 4]};
        size_t nc = (size_t)(s.M * (s.N + s.extra));
        void *a, *b, *c0 = random_inputs(&s, &a, &b);
        for (int isa = TL_GEMM_PORTABLE; isa <= TL_GEMM_AVX512_BF16; isa++) {
            if ((int)tl_gemm_x86_set_isa((tl_gemm_isa_t)isa) != isa) continue;
            run_share = NULL;
            void *want = run(&s, (tl_gemm_isa_t)isa, a, b, c0, t);
            for (int k = 0; k < 4; k++) {
                fake_idle = idles[k];
                run_share = &fake_share;
                int64_t before = fake_calls;
                void *got = run(&s, (tl_gemm_isa_t)isa, a, b, c0, t);
                split += fake_calls > before;
                if (memcmp(got, want, nc * 4))
                    tl_test_fail(t, __FILE__, __LINE__,
                                 "split over %d differs: isa %d %s M=%lld N=%lld K=%lld ta=%d "
                                 "tb=%d init=%d",
                                 idles[k] + 1, isa, tl_dtype_name(s.in), (long long)s.M,
                                 (long long)s.N, (long long)s.K, s.ta, s.tb, s.init);
                free(got);
            }
            free(want);
        }
        free(a), free(b), free(c0);
    }
    run_share = NULL;
    tl_gemm_x86_set_isa(TL_GEMM_AVX512_BF16);
    CHECK(split > 40); // many shapes are big enough to split
    CHECK(fake_parts > 2 * fake_calls);
}

// On a pool: a task alone in its job splits its gemm, the idle threads take
// parts (ctx.share = the pool, through a wrapper recording their threads).
// On a loaded machine an idle helper may not get a CPU before the owner has
// run every part itself; so the owner, in its first part, sleeps up to 0.5 s
// (1 ms at a time) until another thread has taken a part. A pool whose
// helpers never take parts still fails: no other thread's bit, ever.
typedef struct {
    void (*part)(void *, int64_t, int);
    void *arg;
    atomic_int threads; // bit per thread that ran a part
    int owner;          // the thread that shares
    bool waited;        // the owner waited once already
} spy_t;

static spy_t *spy;

static void spy_part(void *arg, int64_t i, int thread)
{
    spy_t *w = arg;
    atomic_fetch_or(&w->threads, 1 << thread);
    if (thread == w->owner && !w->waited) {
        w->waited = true;
        struct timespec ms = {0, 1000000};
        for (int k = 0; k < 500 && !(atomic_load(&w->threads) & ~(1 << w->owner)); k++)
            nanosleep(&ms, NULL);
    }
    w->part(w->arg, i, thread);
}

static void spy_run(int64_t n, void (*part)(void *, int64_t, int), void *arg)
{
    spy->part = part, spy->arg = arg;
    tl_pool_share(n, spy_part, spy);
}

static const tl_tileop_share_t pool_share = {tl_pool_idle, spy_run};

typedef struct {
    shape_t s;
    void *a, *b, *c0, *want;
    tl_test_t *t;
    int differ, helped;
} pool_gemm_t;

static void pool_gemm_task(void *arg, int64_t task, int thread)
{
    (void)task, (void)thread;
    pool_gemm_t *g = arg;
    tl_test_t *t = g->t;
    size_t nc = (size_t)(g->s.M * (g->s.N + g->s.extra));
    time_t start = time(NULL);
    // until a helper took a part (or 10 s): helpers may be descheduled
    while (!g->helped && time(NULL) - start < 10) {
        if (!tl_pool_idle()) {
            sched_yield();
            continue;
        }
        spy_t w = {.owner = thread};
        spy = &w;
        run_share = &pool_share;
        void *got = run(&g->s, TL_GEMM_AVX512, g->a, g->b, g->c0, t);
        run_share = NULL;
        g->differ += memcmp(got, g->want, nc * 4) != 0;
        g->helped = atomic_load(&w.threads) & ~(1 << thread);
        free(got);
    }
}

TEST(cpu_gemm_split_runs_on_idle_pool_threads)
{
    shape_t s = {64, 256, 256, 3, false, true, false, TL_BF16};
    for (int threads = 2; threads <= 3; threads++) {
        pool_gemm_t g = {.s = s, .t = t};
        g.c0 = random_inputs(&s, &g.a, &g.b);
        run_share = NULL;
        g.want = run(&s, TL_GEMM_AVX512, g.a, g.b, g.c0, t);
        tl_pool_t *p;
        REQUIRE(tl_pool_create(&p, threads, NULL) == TL_OK);
        tl_pool_run(p, 1, pool_gemm_task, &g);
        CHECK(g.helped != 0);
        CHECK_EQ(g.differ, 0);
        CHECK(tl_pool_helped(p) > 0);
        tl_pool_destroy(p);
        free(g.a), free(g.b), free(g.c0), free(g.want);
    }
}

// vdpbf16ps against the float32 kernel on the widened operands: the same bits
// where it is used (odd K, zeros of both signs, cancellation, accumulation
// onto C), and not used (false, C untouched) where DAZ/FTZ or an overflowed
// product could differ: subnormal, infinite or NaN inputs, products that could
// be subnormal, C values below 2^-103 when accumulating (with the checks
// removed, the subnormal cases differ).
typedef struct {
    const char *what;
    uint16_t a_special, b_special; // written at one place of A / B (0: none)
    float c_special;               // at one place of C (0: none)
    bool init, used;
} bf16_case_t;

static void bf16_case(tl_test_t *t, const bf16_case_t *bc, int64_t M, int64_t N, int64_t K)
{
    uint16_t *a = malloc((size_t)(M * K) * 2), *b = malloc((size_t)(K * N) * 2);
    float *af = malloc((size_t)(M * K) * 4), *bf_ = malloc((size_t)(K * N) * 4);
    float *c = malloc((size_t)(M * N) * 4), *want = malloc((size_t)(M * N) * 4);
    for (int64_t i = 0; i < M * K; i++)
        a[i] = next() % 7 == 0 ? (next() % 2 ? 0x8000 : 0)
                               : bf((float)((int)(next() % 257) - 128) / 32);
    for (int64_t i = 0; i < K * N; i++)
        b[i] = next() % 7 == 0 ? (next() % 2 ? 0x8000 : 0)
                               : bf((float)((int)(next() % 257) - 128) / 8);
    for (int64_t i = 0; i < M * N; i++)
        c[i] = next() % 5 ? (float)((int)(next() % 100) - 50) : -0.0f;
    // the extremes the cases' exponents refer to (the specials go elsewhere)
    a[0] = bf(4.0f), b[0] = bf(16.0f), b[K * N - 1] = bf(0.125f);
    // a special fills row M / 2 of A or column N / 3 of B (so that a product
    // flushed to zero shows in C); C's special sits in row M / 2, whose A row
    // is then zero (so that C's value is the result)
    int64_t ra = M / 2, cb = N / 3;
    for (int64_t k = 0; k < K; k++) {
        if ((bc->a_special || bc->c_special != 0) && ra * K + k > 0) a[ra * K + k] = bc->a_special;
        if (bc->b_special && k * N + cb > 0 && k * N + cb < K * N - 1)
            b[k * N + cb] = bc->b_special;
    }
    if (bc->c_special != 0) c[ra * N + N / 2] = bc->c_special;
    for (int64_t i = 0; i < M * K; i++) af[i] = bf2f(a[i]);
    for (int64_t i = 0; i < K * N; i++) bf_[i] = bf2f(b[i]);
    memcpy(want, c, (size_t)(M * N) * 4);
    tl_gemm_x86_set_isa(TL_GEMM_AVX512);
    CHECK(tl_gemm_x86_f32(M, N, K, af, K, 1, bf_, want, N, bc->init, true));
    tl_gemm_x86_set_isa(TL_GEMM_AVX512_BF16);
    float *got = malloc((size_t)(M * N) * 4);
    memcpy(got, c, (size_t)(M * N) * 4);
    bool used = tl_gemm_x86_bf16(M, N, K, a, K, b, N, got, N, bc->init);
    if (used != bc->used)
        tl_test_fail(t, __FILE__, __LINE__, "%s (M=%lld N=%lld K=%lld): used %d, expected %d",
                     bc->what, (long long)M, (long long)N, (long long)K, used, bc->used);
    if (memcmp(got, used ? want : c, (size_t)(M * N) * 4))
        tl_test_fail(t, __FILE__, __LINE__, "%s (M=%lld N=%lld K=%lld): C differs", bc->what,
                     (long long)M, (long long)N, (long long)K);
    free(a), free(b), free(af), free(bf_), free(c), free(want), free(got);
}

TEST(cpu_gemm_bf16_dot_matches_float32)
{
    if (tl_gemm_x86_set_isa(TL_GEMM_AVX512_BF16) != TL_GEMM_AVX512_BF16) {
        tl_test_skip(t, "no AVX512_BF16");
        return;
    }
    static const bf16_case_t cases[] = {
        {"plain", 0, 0, 0, true, true},
        {"accumulate", 0, 0, 0, false, true},
        {"C tiny but normal (2^-100)", 0, 0, 0x1p-100f, false, true},
        {"C below 2^-103", 0, 0, 0x1p-110f, false, false},
        {"C below 2^-103, overwritten", 0, 0, 0x1p-110f, true, true},
        {"C subnormal", 0, 0, 0x1p-140f, false, false},
        {"C infinite", 0, 0, INFINITY, false, false},
        {"A subnormal", 0x0001, 0, 0, true, false},
        {"B subnormal", 0, 0x8040, 0, true, false},
        {"A infinite", 0x7f80, 0, 0, true, false},
        {"B NaN", 0, 0x7fc1, 0, true, false},
        // biased exponents: B's smallest nonzero 1/8 (124), largest 16 (131);
        // A's largest 4 (129)
        {"A tiny (2^-120)", 0x0380, 0, 0, true, false}, // 7 + 124 < 142
        {"A small (2^-100)", 0x0d80, 0, 0, true, true}, // 27 + 124 >= 142
        {"A large (2^100)", 0x7180, 0, 0, true, true},  // 227 + 131 <= 380
        {"A huge (2^127)", 0x7f00, 0, 0, true, false},  // 254 + 131 > 380
        {"B huge (2^127)", 0, 0x7f00, 0, true, false},  // 129 + 254 > 380
    };
    static const int64_t shapes[][3] = {
        {1, 3, 2}, {7, 17, 3}, {6, 64, 64}, {13, 65, 129}, {64, 130, 128}};
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++)
        for (size_t s = 0; s < TL_ARRAY_LEN(shapes); s++)
            bf16_case(t, &cases[i], shapes[s][0], shapes[s][1], shapes[s][2]);
    // all-zero rows and columns, cancellation to exact zeros of both signs
    bf16_case_t zero = {"zeros", 0, 0, 0, true, true};
    bf16_case(t, &zero, 3, 5, 2);
}
