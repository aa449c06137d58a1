// The SIMD GEMM kernels (tileop_gemm_x86.c) against the portable loops of
// tileop_gemm.c on random shapes with tails in every dimension, transposes,
// init and accumulate, sub-tiles of wider buffers: int8 bit-exact (int32
// wrap included), float32/bfloat16/float16 bit-exact (same order of roundings).
#include "test_tileop.h"

#include <stdlib.h>

#include "exec/tileop_gemm_x86.h"

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

// Runs one gemm on the given ISA; returns C (caller frees).
static void *run(const shape_t *s, tl_gemm_isa_t isa, const void *a, const void *b, const void *c0,
                 tl_test_t *t)
{
    tl_gemm_x86_set_isa(isa);
    fx_t f;
    fx_init(&f);
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

static void compare_paths(tl_test_t *t, const shape_t *s)
{
    int64_t x = s->extra;
    size_t esz = (size_t)tl_dtype_size(s->in);
    size_t na = (size_t)((s->ta ? s->K : s->M) * ((s->ta ? s->M : s->K) + x));
    size_t nb = (size_t)((s->tb ? s->N : s->K) * ((s->tb ? s->K : s->N) + x));
    size_t nc = (size_t)(s->M * (s->N + x));
    void *a = malloc(na * esz), *b = malloc(nb * esz);
    int32_t *c0 = malloc(nc * 4);
    fill(a, s->in, na);
    fill(b, s->in, nb);
    for (size_t i = 0; i < nc; i++) c0[i] = (int32_t)next();
    if (s->in != TL_I8)
        for (size_t i = 0; i < nc; i++) ((float *)c0)[i] = (float)(int)(next() % 100);
    void *want = run(s, TL_GEMM_PORTABLE, a, b, c0, t);
    for (int isa = TL_GEMM_AVX2; isa <= TL_GEMM_AVX512; isa++) {
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
    tl_gemm_x86_set_isa(TL_GEMM_AVX512);
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
    tl_gemm_isa_t best = tl_gemm_x86_set_isa(TL_GEMM_AVX512);
    CHECK(tl_gemm_x86_set_isa(TL_GEMM_PORTABLE) == TL_GEMM_PORTABLE);
    CHECK(tl_gemm_x86_isa() == TL_GEMM_PORTABLE);
    CHECK(tl_gemm_x86_set_isa(TL_GEMM_AVX512) == best);
}
