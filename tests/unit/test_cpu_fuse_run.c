// Runs of statements in the inline loops (src/cpu/cgen_fuse.c) against the
// reference executor, bit for bit: ops that join a loop past statements set
// aside (copies out, a row max whose output a later op reads, which must
// then stay out of the loop as well), row maxima and minima folded in the
// loop (of an abs computed in the loop; of a tile in memory, refolded in
// column order when a row's result is zero: rows whose first zero is -0,
// NaN rows, rows of -inf), and stores left out of spans nothing reads
// (a temporary, and a tile whose last value is read after the loop, which
// must be stored). Vector loops with and without a scalar tail, and the
// scalar loops (-O2). The module must have the folds in its loops, so the
// comparison is not vacuous.
#include "../test.h"
#include "test_cpu_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "exec/exec.h"
#include "front/front.h"
#include "pass/pass.h"

static const char *runs_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[3, 4, 5, 6, 7, 8])\n"
    "def runs(R=8, C=64, K=3):\n"
    "    h = R // 2\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((R * C,), 'float32'), B: T.Tensor((R * C,), 'bfloat16'),\n"
    "             Z: T.Tensor((R * C,), 'float32'), OA: T.Tensor((K, R), 'float32'),\n"
    "             OB: T.Tensor((K, R), 'float32'), OQ: T.Tensor((K, R * C), 'int8'),\n"
    "             OF: T.Tensor((R * C,), 'float32'), OG: T.Tensor((R * C,), 'float32'),\n"
    "             OC: T.Tensor((K, R), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub([h, C], 'float32')\n"
    "            x = T.alloc_ub([h, C], 'float32')\n"
    "            t = T.alloc_ub([h, C], 'float32')\n"
    "            z = T.alloc_ub([h, C], 'float32')\n"
    "            y = T.alloc_ub([h, C], 'float32')\n"
    "            xh = T.alloc_ub([h, C], 'float16')\n"
    "            q = T.alloc_ub([h, C], 'int8')\n"
    "            bb = T.alloc_ub([h, C], 'bfloat16')\n"
    "            mx = T.alloc_ub([h], 'float32')\n"
    "            mn = T.alloc_ub([h], 'float32')\n"
    "            mz = T.alloc_ub([h], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                r0 = vid * h\n"
    "                T.copy(A[r0 * C : (r0 + h) * C], a)\n"
    "                T.copy(B[r0 * C : (r0 + h) * C], bb)\n"
    "                T.copy(Z[r0 * C : (r0 + h) * C], z)\n"
    "                for k in T.serial(K):\n"
    "                    T.tile.cast(x, bb, mode='CAST_NONE', count=h * C)\n"
    "                    T.tile.abs(t, x)\n"
    "                    T.reduce_max(t, mx, dim=-1)\n"
    "                    T.tile.mul(x, x, 1.5)\n"
    "                    T.reduce_max(z, mn, dim=-1)\n"
    "                    T.reduce_min(z, mz, dim=-1)\n"
    "                    T.copy(mx, OA[k, r0 : r0 + h])\n"
    "                    T.tile.clamp(x, x, -127.0, 127.0, h * C)\n"
    "                    T.reduce_min(a, mx, dim=-1)\n"
    "                    T.tile.round(x, x, h * C)\n"
    "                    T.tile.cast(xh, x, mode='CAST_NONE', count=h * C)\n"
    "                    T.copy(mn, OB[k, r0 : r0 + h])\n"
    "                    T.copy(mz, OC[k, r0 : r0 + h])\n"
    "                    T.tile.cast(q, xh, mode='CAST_NONE', count=h * C)\n"
    "                    T.copy(q, OQ[k, r0 * C : (r0 + h) * C])\n"
    "                    T.tile.add(a, a, 0.25)\n"
    "                    T.tile.row_expand_mul(y, a, mx)\n"
    "                    T.tile.add(y, y, x)\n"
    "                    T.tile.sub(a, a, 0.25)\n"
    "                T.copy(x, OF[r0 * C : (r0 + h) * C])\n"
    "                T.copy(y, OG[r0 * C : (r0 + h) * C])\n"
    "\n"
    "    return main\n";

static double special(int64_t i)
{
    static const double sp[] = {NAN,   INFINITY, -INFINITY, 0.0, -0.0,   1e-40, 300.0,
                                -2e-7, 127.5,    -128.5,    2.5, -300.0, 0.4999};
    if (i % 3 == 1) return sp[(i / 3) % (int64_t)(sizeof sp / sizeof sp[0])];
    return ((double)((i * 40503) % 4001) - 2000.0) / 13.7;
}

// Rows of Z: a zero maximum whose first zero is -0, one whose first is +0,
// a NaN, all -inf, zeros of both signs (a zero minimum too), then values <= 0
// with a few zeros.
static double zrow(int64_t r, int64_t c)
{
    switch (r) {
    case 0: return c == 3 ? -0.0 : c == 9 ? 0.0 : -1.0 - (double)c;
    case 1: return c == 2 ? 0.0 : c == 5 ? -0.0 : -2.0;
    case 2: return c == 7 ? NAN : c == 1 ? 0.0 : -3.0;
    case 3: return -INFINITY;
    case 4: return c % 2 ? 0.0 : -0.0;
    default: return c % 5 == 4 ? (c % 10 == 4 ? -0.0 : 0.0) : -(double)((r * 7 + c) % 13);
    }
}

static void runs_case(tl_test_t *t, int64_t cols, const char *cflags)
{
    enum { R = 8 };
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    char cv[16];
    snprintf(cv, sizeof cv, "%" PRId64, cols);
    tl_front_arg_t fa[] = {{"C", cv}};
    REQUIRE((k = tl_test_cpu_kernel(&arena, &d, "runs.py", runs_src, 1, fa)));
    int64_t s2[1] = {R * cols};
    tl_tensor_t *in[3];
    static const tl_dtype_t types[] = {TL_F32, TL_BF16, TL_F32};
    for (int i = 0; i < 3; i++) {
        REQUIRE(!tl_tensor_create(&in[i], types[i], 1, s2, NULL));
        for (int64_t e = 0; e < R * cols; e++)
            tl_tensor_set_flat(in[i], (size_t)e,
                               i == 2 ? zrow(e / cols, e % cols) : special(e * 7 + i * 5));
    }
    tl_exec_t *x;
    tl_cpu_t *c;
    REQUIRE(tl_test_cpu_pair(k, cflags, &d, &x, &c));
    static const char *ins[] = {"A", "B", "Z"};
    static const char *outs[] = {"OA", "OB", "OC", "OQ", "OF", "OG"};
    char label[48];
    snprintf(label, sizeof label, "C=%" PRId64 " %s", cols, cflags ? cflags : "native");
    REQUIRE(tl_test_cpu_compare(t, x, c, ins, in, 3, outs, 6, label));
    // the folds are in the loop (the max of the abs; the max and min of z,
    // refolded), the min of a (whose output a later op reads) is not
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    CHECK(tl_test_count(src, "= _mm512_reduce_max_ps(a") == 1);    // of z
    CHECK(tl_test_count(src, "= _mm512_reduce_max_epu32(a") == 1); // of the abs
    CHECK(tl_test_count(src, "= _mm512_reduce_min_ps(a") == 1);
    CHECK(tl_test_count(src, "== 0.0f && !u") == 2);
    CHECK(tl_test_count(src, "float m[64]") == (cols >= 64));
    // the rounded, clamped values go to int8 without the float16 round trip
    CHECK(tl_test_count(src, "_mm512_cvtepi32_epi8(_mm512_cvtps_epi32(z") == 1);
    CHECK_EQ(d.nerrors, 0);
    for (int i = 0; i < 3; i++) tl_tensor_destroy(in[i]);
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    tl_arena_free(&arena);
    tl_diag_free(&d);
}

TEST(cpu_fuse_runs_match_the_reference)
{
    runs_case(t, 64, NULL);
    runs_case(t, 37, NULL);
}

TEST(cpu_fuse_runs_scalar_loops_match_the_reference)
{
    runs_case(t, 37, "-O2");
}

// A row max of an abs computed in the loop folds the bits as unsigned
// integers (cgen_fuse_avx.c, zemit_op): rows without a NaN (the runs kernel's
// rows all have one), of zeros of both signs only (+0), with an infinity,
// with subnormals, a NaN in the vector part or only in the scalar tail; and
// the bfloat16 -> float32 cast it reads quiets signalling NaNs keeping sign
// and payload (OX, compared bit for bit at those elements).
static const char *absmax_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1, 2])\n"
    "def absmax(R=8, C=64):\n"
    "    @T.prim_func\n"
    "    def main(B: T.Tensor((R * C,), 'bfloat16'), OM: T.Tensor((R,), 'float32'),\n"
    "             OX: T.Tensor((R * C,), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            bb = T.alloc_ub([R, C], 'bfloat16')\n"
    "            x = T.alloc_ub([R, C], 'float32')\n"
    "            mx = T.alloc_ub([R], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                if vid == 0:\n"
    "                    T.copy(B, bb)\n"
    "                    T.tile.cast(x, bb, mode='CAST_NONE', count=R * C)\n"
    "                    T.copy(x, OX)\n"
    "                    T.tile.abs(x, x)\n"
    "                    T.reduce_max(x, mx, dim=-1)\n"
    "                    T.copy(mx, OM)\n"
    "\n"
    "    return main\n";

static double absmax_value(int64_t r, int64_t c, int64_t cols)
{
    switch (r) {
    case 0: return c % 2 ? -0.0 : 0.0;
    case 1: return c == 5 ? -INFINITY : (double)c;
    case 2: return c == cols - 1 ? NAN : -3.0;               // NaN in the tail (37 columns)
    case 3: return c == 4 ? NAN : 1.0;                       // NaN in the vector part
    case 4: return c % 3 ? 1e-40 * (double)(c + 1) : -1e-39; // bfloat16 subnormals
    case 5: return c == 33 ? -1e30 : (double)(c % 7) - 3.0;  // the largest is negative
    case 6: return -0.0;
    default: return ((double)((c * 40503 + r) % 4001) - 2000.0) / 13.7;
    }
}

static void absmax_case(tl_test_t *t, int64_t cols, const char *cflags)
{
    enum { R = 8 };
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    char cv[16];
    snprintf(cv, sizeof cv, "%" PRId64, cols);
    tl_front_arg_t fa[] = {{"C", cv}};
    REQUIRE((k = tl_test_cpu_kernel(&arena, &d, "absmax.py", absmax_src, 1, fa)));
    int64_t s2[1] = {R * cols};
    tl_tensor_t *in;
    REQUIRE(!tl_tensor_create(&in, TL_BF16, 1, s2, NULL));
    for (int64_t e = 0; e < R * cols; e++)
        tl_tensor_set_flat(in, (size_t)e, absmax_value(e / cols, e % cols, cols));
    static const uint16_t nans[] = {0x7f81, 0xffa5, 0x7fc3}; // two signalling, one quiet
    uint16_t *bits = in->data;
    for (int i = 0; i < 3; i++) bits[7 * cols + 3 * i + 1] = nans[i];
    tl_exec_t *x;
    tl_cpu_t *c;
    REQUIRE(tl_test_cpu_pair(k, cflags, &d, &x, &c));
    static const char *ins[] = {"B"}, *outs[] = {"OM", "OX"};
    char label[48];
    snprintf(label, sizeof label, "absmax C=%" PRId64 " %s", cols, cflags ? cflags : "native");
    REQUIRE(tl_test_cpu_compare(t, x, c, ins, &in, 1, outs, 2, label));
    static const uint32_t quiet[] = {0x7fc10000u, 0xffe50000u, 0x7fc30000u};
    const uint32_t *want = tl_exec_tensor(x, "OX")->data,
                   *got = tl_bind_tensor(tl_cpu_args(c), "OX")->data;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(want[7 * cols + 3 * i + 1], quiet[i]);
        CHECK_EQ(got[7 * cols + 3 * i + 1], quiet[i]);
    }
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    CHECK(tl_test_count(src, "_mm512_max_epu32(a") == 1);
    CHECK(tl_test_count(src, "= _mm512_reduce_max_ps(a") == 0);
    CHECK_EQ(d.nerrors, 0);
    tl_tensor_destroy(in);
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    tl_arena_free(&arena);
    tl_diag_free(&d);
}

TEST(cpu_fuse_abs_max_folds_bits_as_the_reference)
{
    absmax_case(t, 64, NULL);
    absmax_case(t, 37, NULL);
    absmax_case(t, 16, NULL);
}
