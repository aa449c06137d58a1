// tl_expf (base/fexp.h) and its AVX-512 form (cpu/fexp_avx512.c): the
// correctly rounded e^x on a sweep of inputs, the edges (NaN, infinities,
// overflow, subnormal results), an input where glibc's expf is 1 ulp off,
// and the vector form equal to the scalar code bit for bit for exp, sigmoid
// and silu (every length of tail). The whole float range was checked once
// outside the suite (docs/cpu.md).
#include "../test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/fexp.h"
#include "cpu/fexp_avx512.h"

static float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

TEST(fexp_is_correctly_rounded)
{
    // Every 1021st bit pattern with e^x between 0 and +inf: (float)expl is the
    // correctly rounded value (expl's 64-bit significand has 40 bits to spare).
    int64_t n = 0, bad = 0;
    for (uint64_t u = 0; u < (1ull << 32); u += 1021) {
        float x = f_of((uint32_t)u);
        if (!(x > -104.0f && x < 89.0f)) continue;
        n++;
        if (bits(tl_expf(x)) != bits((float)expl((long double)x)) && bad++ < 3)
            tl_test_fail(t, __FILE__, __LINE__, "expf(%a) = %a, expl %a", x, tl_expf(x),
                         (float)expl((long double)x));
    }
    CHECK(n > 2000000);
    CHECK_EQ(bad, 0);
    // glibc 2.36's expf gives 0x1.5c227ap+1 here (the exact value is 0x1.5c2278ffae...p+1).
    CHECK(tl_expf(0x1.0024a4p+0f) == 0x1.5c2278p+1f);
    CHECK(tl_expf(0) == 1 && tl_expf(-0.0f) == 1);
    CHECK(tl_expf(INFINITY) == INFINITY);
    CHECK(bits(tl_expf(-INFINITY)) == 0);
    CHECK(tl_expf(0x1.62e42ep+6f) == 0x1.ffff08p+127f); // the largest finite result
    CHECK(tl_expf(0x1.62e430p+6f) == INFINITY);
    CHECK(tl_expf(1e30f) == INFINITY && bits(tl_expf(-1e30f)) == 0);
    CHECK(tl_expf(-100.0f) == (float)expl(-100.0L)); // a subnormal result
    CHECK(tl_expf(-103.9f) == 0x1p-149f && bits(tl_expf(-104.0f)) == 0);
    CHECK_EQ(bits(tl_expf(f_of(0x7fa00001u))), 0x7fe00001u); // quieted, payload kept
    CHECK_EQ(bits(tl_expf(f_of(0xffc00002u))), 0xffc00002u);
}

static float scalar_op(tl_opcode_t op, float x)
{
    if (op == TL_OP_EXP) return tl_expf(x);
    return (op == TL_OP_SIGMOID ? 1.0f : x) / (1.0f + tl_expf(-x));
}

TEST(fexp_avx512_matches_the_scalar_code)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq")) {
        tl_test_skip(t, "no AVX-512");
        return;
    }
    enum { N = 1 << 18 };
    float *a = malloc(N * sizeof *a), *d = malloc(N * sizeof *d);
    REQUIRE(a && d);
    static const float sp[] = {0.0f,   -0.0f,   INFINITY, -INFINITY, NAN,     -NAN,
                               1e-40f, -3e-39f, 88.72f,   -103.9f,   -87.33f, 0x1.62e42ep+6f};
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = i < (int)TL_ARRAY_LEN(sp) ? sp[i]
               : i % 2                   ? f_of(s)               // any bit pattern
                                         : (float)(s >> 8) * 0x1p-24f * 220 - 110; // the range
    }
    static const tl_opcode_t ops[] = {TL_OP_EXP, TL_OP_SIGMOID, TL_OP_SILU};
    for (size_t k = 0; k < TL_ARRAY_LEN(ops); k++) {
        tl_fexp_avx512(ops[k], d, a, N);
        int bad = 0;
        for (int i = 0; i < N; i++)
            if (bits(d[i]) != bits(scalar_op(ops[k], a[i])) && bad++ < 3)
                tl_test_fail(t, __FILE__, __LINE__, "op %d at %a: %a vs %a", (int)ops[k], a[i],
                             d[i], scalar_op(ops[k], a[i]));
        for (int n = 1; n <= 17; n++) { // tails: nothing past n is written
            float out[18];
            for (int i = 0; i < 18; i++) out[i] = -7.0f;
            tl_fexp_avx512(ops[k], out, a + 100, n);
            for (int i = 0; i < 18; i++)
                CHECK(i < n ? bits(out[i]) == bits(scalar_op(ops[k], a[100 + i]))
                            : out[i] == -7.0f);
        }
        // In place.
        memcpy(d, a, 64 * sizeof *d);
        tl_fexp_avx512(ops[k], d, d, 64);
        for (int i = 0; i < 64; i++) CHECK(bits(d[i]) == bits(scalar_op(ops[k], a[i])));
    }
    free(a);
    free(d);
}
