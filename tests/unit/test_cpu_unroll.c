// The unroll pass of the cpu pipeline (src/pass/unroll.c): short constant
// loops of tile ops become their iterations, so that a column step (a copy,
// adds over the token blocks of a tile, + eps, reciprocal, a multiply of
// every block) is one inline loop; a loop of 9 iterations and a loop with a
// scalar store stay loops. The module's outputs equal the reference's bit
// for bit.
#include "../test.h"
#include "test_cpu_util.h"

#include "pass/rewrite.h"
#include "rt/rng.h"

static const char *src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1, 2])\n"
    "def colstep(tt=64):\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((2, 4 * tt, 8), 'float32'), Y: T.Tensor((2, 4 * tt, 8), 'float32'),\n"
    "             Z: T.Tensor((2, tt, 8), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            cm = T.alloc_ub([4 * tt, 8], 'float32')\n"
    "            cs = T.alloc_ub([tt, 8], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                T.copy(A[vid, :, :], cm)\n"
    "                T.copy(cm[0:tt, :], cs)\n"
    "                for r in T.serial(1, 4):\n"
    "                    T.tile.add(cs, cs, cm[r * tt : r * tt + tt, :])\n"
    "                T.tile.add(cs, cs, 1e-6)\n"
    "                T.tile.reciprocal(cs, cs)\n"
    "                for r in T.serial(4):\n"
    "                    T.tile.mul(cm[r * tt : r * tt + tt, :], cm[r * tt : r * tt + tt, :], cs)\n"
    "                for r in T.serial(9):\n"
    "                    T.tile.add(cs, cs, 0.5)\n"
    "                for r in T.serial(2):\n"
    "                    T.tile.mul(cs, cs, 3.0)\n"
    "                    cs[r, 0] = cs[r, 1]\n"
    "                T.copy(cm, Y[vid, :, :])\n"
    "                T.copy(cs, Z[vid, :, :])\n"
    "\n"
    "    return main\n";

static void count_loops(void *arg, tl_stmt_t *s)
{
    if (s->kind == TL_ST_FOR) (*(int *)arg)++;
}

TEST(cpu_unroll_short_loops_of_tile_ops)
{
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_kernel_t *k = tl_test_cpu_kernel(&arena, &d, "colstep.py", src, 0, NULL);
    REQUIRE(k);
    int loops = 0;
    tl_rewrite_walk(k->body, count_loops, &loops);
    CHECK_EQ(loops, 2); // the 9-trip loop and the loop with a store
    int64_t shape[3] = {2, 256, 8};
    tl_tensor_t *a;
    REQUIRE(tl_tensor_create(&a, TL_F32, 3, shape, &d) == TL_OK);
    tl_rng_t r;
    tl_rng_seed(&r, 7);
    REQUIRE(tl_rng_fill_uniform(&r, a, 0.01, 2.0, &d) == TL_OK);
    tl_exec_t *x;
    tl_cpu_t *c;
    REQUIRE(tl_test_cpu_pair(k, NULL, &d, &x, &c));
    static const char *ins[] = {"A"}, *outs[] = {"Y", "Z"};
    REQUIRE(tl_test_cpu_compare(t, x, c, ins, &a, 1, outs, 2, "colstep"));
    // the column step is one loop: four blocks loaded, summed, divided into
    // 1, multiplied and stored; runtime calls only in the three GM copies'
    // fallbacks
    const char *text = tl_cpu_source(c);
    REQUIRE(text);
    CHECK_EQ(tl_test_count(text, "_mm512_div_ps(_mm512_set1_ps(1.0f)"), 1);
    CHECK_EQ(tl_test_count(text, "rt->op("), 3);
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    tl_tensor_destroy(a);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}
