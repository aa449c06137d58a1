// Inline element-wise loops of the generated C (src/cpu/cgen_fuse.c) against
// the reference executor, bit for bit (NaNs compare equal whatever their
// payload): chains of float32 ops with tile and scalar operands, in place and
// out of place, row_expand, clamp, fill, float32 -> int32 -> float32,
// bfloat16 -> float32, float32 <-> float16 and float16 -> int8 (chunked
// loops), a UB -> UB copy (one 32-byte block: DataCopy moves whole blocks), row sums, maxima and
// minima (whole rows and a real_shape corner; rows of signed zeros, rows with NaN), and spans that
// overlap without being equal (which must not be fused) on data with NaN, infinities, signed zeros,
// float16 subnormals and overflow. Each kernel also checks that the module has the inline loops, so
// the comparison is not vacuous. The cases run with 64 and 37 columns (vector loops with and
// without a scalar tail) and without AVX-512 (-O2).
#include "../test.h"
#include "test_cpu_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "exec/exec.h"
#include "front/front.h"
#include "pass/pass.h"

enum { R = 8, C = 64 };

static const char *fuse_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[3, 4, 5, 6, 7, 8, 9])\n"
    "def fuse(R=8, C=64):\n"
    "    h = R // 2\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((R * C,), 'float32'), V: T.Tensor((R,), 'float32'),\n"
    "             B: T.Tensor((R * C,), 'bfloat16'), OF: T.Tensor((R * C,), 'float32'),\n"
    "             OH: T.Tensor((R * C,), 'float16'), OI: T.Tensor((R * C,), 'int8'),\n"
    "             OG: T.Tensor((R * C,), 'float32'), OJ: T.Tensor((R * C,), 'int32'),\n"
    "             OS: T.Tensor((2, R), 'float32'), OM: T.Tensor((4, R), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub([h, C], 'float32')\n"
    "            b = T.alloc_ub([h, C], 'float32')\n"
    "            v = T.alloc_ub([h], 'float32')\n"
    "            x = T.alloc_ub([h, C], 'float16')\n"
    "            q = T.alloc_ub([h, C], 'int8')\n"
    "            bb = T.alloc_ub([h, C], 'bfloat16')\n"
    "            n = T.alloc_ub([h, C], 'int32')\n"
    "            rs = T.alloc_ub([h], 'float32')\n"
    "            mz = T.alloc_ub([h, C], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                r0 = vid * h\n"
    "                T.copy(A[r0 * C : (r0 + h) * C], a)\n"
    "                T.copy(V[r0 : r0 + h], v)\n"
    "                T.copy(B[r0 * C : (r0 + h) * C], bb)\n"
    "                T.tile.min(mz, a, 0.0)\n"
    "                T.reduce_max(mz, rs, dim=-1)\n"
    "                T.copy(rs, OM[0, r0 : r0 + h])\n"
    "                T.reduce_min(a, rs, dim=-1)\n"
    "                T.copy(rs, OM[1, r0 : r0 + h])\n"
    "                T.reduce_max(a, rs, dim=-1, real_shape=[h, C - 5])\n"
    "                T.copy(rs, OM[2, r0 : r0 + h])\n"
    "                T.tile.max(mz, a, 0.0)\n"
    "                T.reduce_min(mz, rs, dim=-1)\n"
    "                T.copy(rs, OM[3, r0 : r0 + h])\n"
    "                T.tile.mul(b, a, 3.5)\n"
    "                T.tile.add(b, b, a)\n"
    "                T.tile.max(b, b, a)\n"
    "                T.tile.min(b, a, b)\n"
    "                T.tile.sub(b, b, 0.25)\n"
    "                T.tile.div(b, b, 3.0)\n"
    "                T.tile.row_expand_div(b, b, v)\n"
    "                T.tile.row_expand_sub(b, b, v)\n"
    "                T.tile.row_expand_mul(b, b, v)\n"
    "                T.tile.clamp(b, b, -1e30, 1e30, h * C)\n"
    "                T.tile.cast(x, b, mode='CAST_RINT', count=h * C)\n"
    "                T.tile.cast(q, x, mode='CAST_NONE', count=h * C)\n"
    "                T.copy(x, OH[r0 * C : (r0 + h) * C])\n"
    "                T.copy(q, OI[r0 * C : (r0 + h) * C])\n"
    "                T.tile.cast(b, x, mode='CAST_NONE', count=h * C)\n"
    "                T.tile.abs(a, a)\n"
    "                T.tile.sqrt(a, a)\n"
    "                T.tile.reciprocal(a, a)\n"
    "                T.tile.round(a, a)\n"
    "                T.tile.relu(a, a)\n"
    "                T.tile.div(b, b, a)\n"
    "                T.tile.mul(b, b, a)\n"
    "                T.copy(b, OF[r0 * C : (r0 + h) * C])\n"
    "                T.reduce_sum(b, rs, dim=-1)\n"
    "                T.copy(rs, OS[0, r0 : r0 + h])\n"
    "                T.reduce_sum(b, rs, dim=-1, real_shape=[h, C - 5])\n"
    "                T.copy(rs, OS[1, r0 : r0 + h])\n"
    "                T.tile.cast(a, bb, mode='CAST_NONE', count=h * C)\n"
    "                T.tile.cast(n, a, mode='CAST_RINT', count=h * C)\n"
    "                T.tile.cast(b, n, mode='CAST_NONE', count=h * C)\n"
    "                T.copy(n, OJ[r0 * C : (r0 + h) * C])\n"
    "                # shifted overlapping spans: left to the runtime\n"
    "                T.tile.add(a[1 : h, :], a[0 : h - 1, :], b[0 : h - 1, :])\n"
    "                T.tile.fill(b[0, :], 2.0)\n"
    "                T.tile.sub(b, b, a)\n"
    "                T.copy(b[0, 0:8], a[0, 0:8])\n"
    "                T.tile.mul(a, a, b)\n"
    "                T.copy(a, OG[r0 * C : (r0 + h) * C])\n"
    "\n"
    "    return main\n";

static double special(int64_t i)
{
    static const double sp[] = {NAN,    INFINITY, -INFINITY, 0.0,     -0.0,   1e-40,  3e-6,
                                -2e-7,  70000.0,  -65520.0,  65504.0, 127.5,  -128.5, 2.5,
                                -300.0, 1e20,     5e9,       -3e9,    0.4999, 6.1e-5};
    if (i % 3 == 1) return sp[(i / 3) % (int64_t)(sizeof sp / sizeof sp[0])];
    return ((double)((i * 40503) % 4001) - 2000.0) / 13.7;
}

static tl_tensor_t *tensor(tl_dtype_t t, int nd, const int64_t *shape, int64_t seed)
{
    tl_tensor_t *x;
    if (tl_tensor_create(&x, t, nd, shape, NULL)) return NULL;
    for (size_t i = 0; i < tl_tensor_numel(x); i++)
        tl_tensor_set_flat(x, i, special((int64_t)i * 7 + seed));
    return x;
}

// One build of the fuse kernel with `cols` columns: compared with the
// reference, compiled with `cflags` (NULL: the default -march=native, which
// on AVX-512 machines runs the vector form; "-O2": the scalar loops).
static void fuse_case(tl_test_t *t, int64_t rows, int64_t cols, const char *cflags)
{
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    char cv[16], rv[16];
    snprintf(cv, sizeof cv, "%" PRId64, cols);
    snprintf(rv, sizeof rv, "%" PRId64, rows);
    tl_front_arg_t fa[] = {{"C", cv}, {"R", rv}};
    REQUIRE((k = tl_test_cpu_kernel(&arena, &d, "fuse.py", fuse_src, 2, fa)));
    int64_t s2[1] = {rows * cols}, s1[1] = {rows};
    tl_tensor_t *a = tensor(TL_F32, 1, s2, 0), *v = tensor(TL_F32, 1, s1, 5),
                *b = tensor(TL_BF16, 1, s2, 11);
    REQUIRE(a && v && b);
    tl_tensor_set_flat(v, 2, 0.0); // a row divided by zero
    tl_exec_t *x;
    tl_cpu_t *c;
    REQUIRE(tl_test_cpu_pair(k, cflags, &d, &x, &c));
    static const char *ins[] = {"A", "V", "B"};
    tl_tensor_t *in[] = {a, v, b};
    static const char *outs[] = {"OF", "OH", "OI", "OG", "OJ", "OS", "OM"};
    char label[48];
    snprintf(label, sizeof label, "C=%" PRId64 " %s", cols, cflags ? cflags : "native");
    REQUIRE(tl_test_cpu_compare(t, x, c, ins, in, 3, outs, 7, label));
    // the chains became inline loops; the GM copies and the shifted add did not
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    CHECK(tl_test_count(src, "GCC ivdep") >= 5);
    CHECK(tl_test_count(src, "tlc_v_sat32(x") >= 1);
    CHECK(tl_test_count(src, "tlc_bf16_f32(x") >= 1);
    CHECK(tl_test_count(src, "double acc") == 2);
    // two whole-row max/min folds of their own (rows of 64), one in a loop
    // (rows of 16 or more); the shorter corners are unrolled
    CHECK(tl_test_count(src, "float m[64]") == (cols >= 64 ? 2 : 0));
    CHECK(tl_test_count(src, "= _mm512_reduce_m") == (cols >= 16 ? 1 : 0));
    CHECK(tl_test_count(src, "tlc_f2h(p") >= 1);
    CHECK(tl_test_count(src, "tlc_h2f(p") >= 1);
    CHECK(tl_test_count(src, "rt->op(") <= 15);
    // the vector form and its scalar tail (4 loops or more: with rows of 8
    // the casts to int32 and back join one loop, which writes n into OJ)
    CHECK(tl_test_count(src, "#if TLC_V512") >= 4);
    CHECK(tl_test_count(src, "_mm512_permutexvar_ps(q") >= (cols < 16 ? 3 : 0));
    CHECK(tl_test_count(src, "tlc_z_f32_f16(") >= 1);
    CHECK(tl_test_count(src, "tlc_f32_f16(tlc_") + tl_test_count(src, "tlc_f32_f16(x") >= 1);
    CHECK_EQ(d.nerrors, 0);
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    for (int i = 0; i < 3; i++) tl_tensor_destroy(in[i]);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}

TEST(cpu_fuse_inline_loops_match_the_reference)
{
    fuse_case(t, R, C, NULL);
}

// 37 columns: vector loops of two 16-element steps and a 5-element scalar
// tail (float16 converted one element at a time there).
TEST(cpu_fuse_vector_tails_match_the_reference)
{
    fuse_case(t, R, 37, NULL);
}

// Rows of 8: row_expand loops pack two rows to a vector; with 3 rows per
// lane a 16-element step and an 8-element tail.
TEST(cpu_fuse_packed_short_rows_match_the_reference)
{
    fuse_case(t, R, 8, NULL);
    fuse_case(t, 6, 8, NULL);
}

// Without -march the module has no AVX-512: the scalar and chunked loops.
TEST(cpu_fuse_scalar_loops_match_the_reference)
{
    fuse_case(t, R, 37, "-O2");
    fuse_case(t, R, C, "-O2");
}
