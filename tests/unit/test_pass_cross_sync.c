// cross_sync: cross-core flags around GM hand-offs between the cube and the
// vector programs — any tensor name, at the loop level both share, with the
// reverse (WAR) flags of a reused buffer, reverse flags for one-way hand-offs,
// flag ids reused, upstream's read-before-write order, and kernels that bring
// their own flags. Every split program runs on the executor to the
// developer-mode results (a missing or unbalanced flag deadlocks or races
// there).
#include "../test.h"

#include "test_pass_util.h"

#include <stdlib.h>
#include <string.h>

static const pk_pass_fn split_sync[] = {tl_pass_cv_split, tl_pass_cross_sync, NULL};

#define PRELUDE                                                                                    \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,\n"                             \
    "       tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True}\n"

#define HEADER(out, ws, params)                                                                    \
    PRELUDE "@tilelang.jit(out_idx=[" out "], workspace_idx=[" ws "], pass_configs=CFG)\n"         \
            "def k():\n"                                                                           \
            "    @T.prim_func\n"                                                                   \
            "    def main(" params "):\n"                                                          \
            "        with T.Kernel(2, is_npu=True) as (cid, vid):\n"

#define MM_PARAMS                                                                                  \
    "A: T.Tensor((64, 32), 'float16'), B: T.Tensor((32, 64), 'float16'), "                         \
    "C: T.Tensor((2, 64, 64), 'float32'), W: T.Tensor((2, 16, 64), 'float32')"

#define MM_BUFFERS                                                                                 \
    "            a = T.alloc_L1((16, 32), 'float16')\n"                                            \
    "            b = T.alloc_L1((32, 64), 'float16')\n"                                            \
    "            c = T.alloc_L0C((16, 64), 'float32')\n"                                           \
    "            u = T.alloc_ub((8, 64), 'float32')\n"                                             \
    "            T.copy(B, b)\n"

// Each iteration: the cube writes W[cid], both vector cores read their half.
static const char *loop_src = HEADER("2", "3", MM_PARAMS) MM_BUFFERS
    "            for i in T.serial(4):\n"
    "                T.copy(A[i * 16, 0], a)\n"
    "                T.gemm_v0(a, b, c, init=True)\n"
    "                T.copy(c, W[cid, 0, 0])\n"
    "                T.copy(W[cid, vid * 8, 0], u)\n"
    "                T.tile.add(u, u, 1.0)\n"
    "                T.copy(u, C[cid, i * 16 + vid * 8, 0])\n"
    "    return main\n";

static bool compile_ok(tl_test_t *t, pk_t *p, const pk_spec_t *s, const pk_pass_fn *passes)
{
    tl_status_t st = pk_compile(p, s, passes);
    if (st != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "compile failed:\n%s", tl_diag_text(&p->d));
    return st == TL_OK;
}

static const char *dump(const pk_t *p)
{
    return tl_buf_cstr((tl_buf_t *)&p->dump);
}

// Runs `ref_src` in developer mode (no passes) and `src` through `passes`: the
// outputs must be identical.
static void check_passes(tl_test_t *t, const char *src, const char *ref_src,
                         const pk_pass_fn *passes)
{
    pk_spec_t s = {.src = src}, r = {.src = ref_src};
    pk_t ref = {0}, got = {0};
    tl_buf_t a, b;
    tl_buf_init(&a);
    tl_buf_init(&b);
    if (compile_ok(t, &ref, &r, NULL) && compile_ok(t, &got, &s, passes)) {
        tl_status_t st1 = pk_run(&ref, &r, 5, &a), st2 = pk_run(&got, &s, 5, &b);
        if (st1 || st2)
            tl_test_fail(t, __FILE__, __LINE__, "runs failed:\n%s\n%s", tl_diag_text(&ref.d),
                         tl_diag_text(&got.d));
        CHECK(a.len > 0 && a.len == b.len && !memcmp(a.data, b.data, a.len));
    }
    pk_free(&ref);
    pk_free(&got);
    tl_buf_free(&a);
    tl_buf_free(&b);
}

static void check_same_as(tl_test_t *t, const char *src, const char *ref_src)
{
    check_passes(t, src, ref_src, split_sync);
}

static int count_kind(const pk_t *p, tl_sync_kind_t kind)
{
    int n = 0;
    for (const char *d = dump(p); (d = strstr(d, tl_sync_name(kind))); d++) n++;
    return n;
}

TEST(cross_sync_hand_off_in_a_loop_with_its_reverse_flag)
{
    pk_spec_t s = {.src = loop_src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        const char *d = dump(&p);
        // forward: FIX after the cube's write, a wait before the vector's read
        CHECK_CONTAINS(d, "      copy c, W[cid +: 1, :, :]\n      + set_cross_flag fix, 0\n");
        CHECK_CONTAINS(d,
                       "      + wait_cross_flag 0\n      copy W[cid +: 1, vid * 8 +: 8, :], u\n");
        // reverse: the vector's read releases W for the next iteration's write,
        // with one set before the vector loop and one wait after the cube loop
        CHECK_CONTAINS(
            d, "      copy W[cid +: 1, vid * 8 +: 8, :], u\n      + set_cross_flag mte2, 0\n");
        CHECK_CONTAINS(d, "      + wait_cross_flag 0\n      copy c, W[cid +: 1, :, :]\n");
        CHECK_CONTAINS(d, "    + set_cross_flag mte2, 0\n    for i in serial(0, 4):");
        CHECK_CONTAINS(d, "      copy c, W[cid +: 1, :, :]\n      + set_cross_flag fix, 0\n    + "
                          "wait_cross_flag 0\n");
        CHECK_EQ(count_kind(&p, TL_SYNC_SET_CROSS), 3);
        CHECK_EQ(count_kind(&p, TL_SYNC_WAIT_CROSS), 3);
    }
    pk_free(&p);
    check_same_as(t, loop_src, loop_src);
}

TEST(cross_sync_producer_in_a_deeper_loop_sets_after_it)
{
    // The cube writes W in an inner loop; the vector reads it once per outer
    // iteration: one flag pair per outer iteration, around the inner loop.
    static const char *src = HEADER("2", "3", MM_PARAMS) MM_BUFFERS
        "            for i in T.serial(2):\n"
        "                for j in T.serial(2):\n"
        "                    T.copy(A[i * 32 + j * 16, 0], a)\n"
        "                    T.gemm_v0(a, b, c, init=True)\n"
        "                    T.copy(c, W[cid, 0, 0])\n"
        "                T.copy(W[cid, vid * 8, 0], u)\n"
        "                T.copy(u, C[cid, i * 16 + vid * 8, 0])\n"
        "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        const char *d = dump(&p);
        CHECK_CONTAINS(d, "        copy c, W[cid +: 1, :, :]\n      + set_cross_flag fix, 0\n");
        CHECK_CONTAINS(d, "      + wait_cross_flag 0\n      for j in serial(0, 2):");
    }
    pk_free(&p);
    check_same_as(t, src, src);
}

TEST(cross_sync_reuses_flag_ids)
{
    // C -> V through W, then V -> C through V, then C -> V through W again.
    static const char *src3 = HEADER("2", "3, 4", MM_PARAMS ", V: T.Tensor((2, 16, 32), 'float16')")
        MM_BUFFERS "            h = T.alloc_ub((8, 32), 'float16')\n"
                   "            a2 = T.alloc_L1((16, 32), 'float16')\n"
                   "            T.copy(A[0, 0], a)\n"
                   "            T.gemm_v0(a, b, c, init=True)\n"
                   "            T.copy(c, W[cid, 0, 0])\n"
                   "            T.copy(W[cid, vid * 8, 0], u)\n"
                   "            T.copy(u[:, 0:32], h)\n"
                   "            T.copy(h, V[cid, vid * 8, 0])\n"
                   "            T.copy(V[cid, 0, 0], a2)\n"
                   "            T.gemm_v0(a2, b, c, init=True)\n"
                   "            T.copy(c, W[cid, 0, 0])\n"
                   "            T.copy(W[cid, vid * 8, 0], u)\n"
                   "            T.copy(u, C[cid, vid * 8, 0])\n"
                   "    return main\n";
    pk_spec_t s = {.src = src3};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        const char *d = dump(&p);
        CHECK_CONTAINS(d, "    copy c, W[cid +: 1, :, :]\n    + set_cross_flag fix, 0\n");
        CHECK_CONTAINS(d,
                       "    copy h, V[cid +: 1, vid * 8 +: 8, :]\n    + set_cross_flag mte3, 0\n");
        CHECK(!strstr(d, "flag fix, 2") && !strstr(d, "flag mte3, 2") && !strstr(d, "flag 2"));
    }
    pk_free(&p);
    check_same_as(t, src3, src3);
}

// Upstream's order: the cube reads W (handed over by the vector cores) before
// the vector cores write it in the loop body. The reference kernel writes
// first, in program order.
#define REORDER_KERNEL(first, second)                                                              \
    HEADER("2", "3",                                                                               \
           "A: T.Tensor((4, 16, 64), 'float16'), B: T.Tensor((64, 64), 'float16'), "               \
           "C: T.Tensor((2, 4, 16, 64), 'float32'), W: T.Tensor((2, 16, 64), 'float16')")          \
    "            a = T.alloc_L1((16, 64), 'float16')\n"                                            \
    "            b = T.alloc_L1((64, 64), 'float16')\n"                                            \
    "            c = T.alloc_L0C((16, 64), 'float32')\n"                                           \
    "            u = T.alloc_ub((8, 64), 'float16')\n"                                             \
    "            T.copy(B, b)\n"                                                                   \
    "            for i in T.serial(4):\n" first second "    return main\n"
#define CUBE_PART                                                                                  \
    "                T.copy(W[cid, 0, 0], a)\n"                                                    \
    "                T.gemm_v0(a, b, c, init=True)\n"                                              \
    "                T.copy(c, C[cid, i, 0, 0])\n"
#define VEC_PART                                                                                   \
    "                T.copy(A[i, vid * 8, 0], u)\n"                                                \
    "                T.copy(u, W[cid, vid * 8, 0])\n"

TEST(cross_sync_read_before_write_follows_upstream)
{
    static const char *src = REORDER_KERNEL(CUBE_PART, VEC_PART);
    static const char *ref = REORDER_KERNEL(VEC_PART, CUBE_PART);
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        CHECK_CONTAINS(tl_diag_text(&p.d), "k.py:16:17: warning: 'W' is read here before it is "
                                           "written (line 20) in the same iteration of the loop "
                                           "at line 15");
        CHECK_CONTAINS(dump(&p), "      + wait_cross_flag 0\n      copy W[cid +: 1, :, :], a\n");
    }
    pk_free(&p);
    check_same_as(t, src, ref);
}

TEST(cross_sync_one_way_hand_off_gets_a_reverse_flag)
{
    // W[cid, i] is a new slot every iteration: no write-after-read comes back,
    // so a reverse flag bounds how far the cube runs ahead.
    static const char *src =
        HEADER("2", "3",
               "A: T.Tensor((64, 32), 'float16'), B: T.Tensor((32, 64), 'float16'), "
               "C: T.Tensor((2, 64, 64), 'float32'), W: T.Tensor((2, 4, 16, 64), 'float32')")
            MM_BUFFERS "            for i in T.serial(4):\n"
                       "                T.copy(A[i * 16, 0], a)\n"
                       "                T.gemm_v0(a, b, c, init=True)\n"
                       "                T.copy(c, W[cid, i, 0, 0])\n"
                       "                T.copy(W[cid, i, vid * 8, 0], u)\n"
                       "                T.copy(u, C[cid, i * 16 + vid * 8, 0])\n"
                       "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        const char *d = dump(&p);
        CHECK_CONTAINS(d, "    + set_cross_flag mte2, 0\n    + set_cross_flag mte2, 0\n    + "
                          "set_cross_flag mte2, 0\n    + set_cross_flag mte2, 0\n    for i");
        CHECK_EQ(count_kind(&p, TL_SYNC_SET_CROSS), 6);
        CHECK_EQ(count_kind(&p, TL_SYNC_WAIT_CROSS), 6);
    }
    pk_free(&p);
    check_same_as(t, src, src);
}

TEST(cross_sync_keeps_the_kernels_own_flags)
{
    static const char *src =
        HEADER("2", "3", MM_PARAMS) MM_BUFFERS "            T.copy(A[0, 0], a)\n"
                                               "            T.gemm_v0(a, b, c, init=True)\n"
                                               "            T.copy(c, W[cid, 0, 0])\n"
                                               "            T.set_cross_flag('FIX', 3)\n"
                                               "            T.wait_cross_flag(3)\n"
                                               "            T.copy(W[cid, vid * 8, 0], u)\n"
                                               "            T.copy(u, C[cid, vid * 8, 0])\n"
                                               "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        CHECK_CONTAINS(tl_diag_text(&p.d), "warning: the kernel has its own cross-core flags: "
                                           "TL_ASCEND_AUTO_CV_SYNC adds none");
        CHECK(!strstr(dump(&p), "+ set_cross_flag"));
        CHECK_EQ(count_kind(&p, TL_SYNC_SET_CROSS), 1);
    }
    pk_free(&p);
}

TEST(cross_sync_off_without_the_switch)
{
    pk_spec_t s = {.src = loop_src, .configs = {"tl.ascend_auto_cross_core_sync=False"}};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) CHECK_EQ(count_kind(&p, TL_SYNC_SET_CROSS), 0);
    pk_free(&p);
}

TEST(cross_sync_hand_offs_in_nested_sequences)
{
    // T.Pipelined unrolls a two-iteration mixed loop into a nested sequence:
    // each hand-off keeps its own flag pair inside it (one pair for all would
    // deadlock: the cube's last write waits for the vector's first hand-off).
    static const char *src =
        HEADER("2", "3, 4",
               "A: T.Tensor((64, 32), 'float16'), B: T.Tensor((32, 64), 'float16'), "
               "C: T.Tensor((2, 64, 64), 'float32'), W: T.Tensor((2, 16, 64), 'float32'), "
               "V: T.Tensor((2, 16, 32), 'float16')") MM_BUFFERS
        "            h = T.alloc_ub((8, 32), 'float16')\n"
        "            a2 = T.alloc_L1((16, 32), 'float16')\n"
        "            for i in T.Pipelined(2, num_stages=2):\n"
        "                T.copy(A[i * 16, 0], a)\n"
        "                T.gemm_v0(a, b, c, init=True)\n"
        "                T.copy(c, W[cid, 0, 0])\n"
        "                T.copy(W[cid, vid * 8, 0], u)\n"
        "                T.copy(u[:, 0:32], h)\n"
        "                T.copy(h, V[cid, vid * 8, 0])\n"
        "                T.copy(V[cid, 0, 0], a2)\n"
        "                T.gemm_v0(a2, b, c, init=True)\n"
        "                T.copy(c, W[cid, 0, 0])\n"
        "                T.copy(W[cid, vid * 8, 0], u)\n"
        "                T.copy(u, C[cid, i * 16 + vid * 8, 0])\n"
        "    return main\n";
    static const pk_pass_fn passes[] = {tl_pass_pipelined, tl_pass_cv_split, tl_pass_cross_sync,
                                        NULL};
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, passes)) CHECK(count_kind(&p, TL_SYNC_SET_CROSS) >= 6);
    pk_free(&p);
    check_passes(t, src, src, passes);
}

TEST(cross_sync_mismatched_flag_counts_are_errors)
{
    // The cube sets flag 3 in each of 4 iterations; the vector cores wait once.
    static const char *src =
        HEADER("2", "3", MM_PARAMS) MM_BUFFERS "            for i in T.serial(4):\n"
                                               "                T.copy(A[i * 16, 0], a)\n"
                                               "                T.gemm_v0(a, b, c, init=True)\n"
                                               "                T.copy(c, W[cid, 0, 0])\n"
                                               "                T.set_cross_flag('FIX', 3)\n"
                                               "            T.wait_cross_flag(3)\n"
                                               "            T.copy(W[cid, vid * 8, 0], u)\n"
                                               "            T.copy(u, C[cid, vid * 8, 0])\n"
                                               "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    CHECK(pk_compile(&p, &s, split_sync) == TL_ERR_COMPILE);
    CHECK_CONTAINS(tl_diag_text(&p.d),
                   "k.py:19:17: error: cross-core flag 3: the cube set it 4 times "
                   "per block but the vector cores wait for it 1 time");
    CHECK_CONTAINS(tl_diag_text(&p.d), "k.py:20:13: note: the vector cores wait for flag 3 here");
    pk_free(&p);
}

TEST(cross_sync_release_implied_by_a_later_hand_off)
{
    // In each iteration the vector cores read W, compute, and hand V back to
    // the cube, whose next write of W comes after waiting for V: the release of
    // W (a set after the read) is implied when intra_sync orders the vector
    // core's read before its write of V. V's own release stays.
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,\n"
        "       tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,\n"
        "       tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"
        "@tilelang.jit(out_idx=[2], workspace_idx=[3, 4], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((64, 32), 'float16'), B: T.Tensor((32, 64), 'float16'),\n"
        "             C: T.Tensor((2, 64, 64), 'float32'), W: T.Tensor((2, 16, 64), 'float32'),\n"
        "             V: T.Tensor((2, 16, 32), 'float16')):\n"
        "        with T.Kernel(2, is_npu=True) as (cid, vid):\n" MM_BUFFERS
        "            h = T.alloc_ub((8, 32), 'float16')\n"
        "            a2 = T.alloc_L1((16, 32), 'float16')\n"
        "            for i in T.serial(4):\n"
        "                T.copy(A[i * 16, 0], a)\n"
        "                T.gemm_v0(a, b, c, init=True)\n"
        "                T.copy(c, W[cid, 0, 0])\n"
        "                T.copy(W[cid, vid * 8, 0], u)\n"
        "                T.copy(u[:, 0:32], h)\n"
        "                T.copy(h, V[cid, vid * 8, 0])\n"
        "                T.copy(V[cid, 0, 0], a2)\n"
        "                T.gemm_v0(a2, b, c, init=True)\n"
        "                T.copy(c, C[cid, i * 16, 0])\n"
        "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync)) {
        const char *d = dump(&p);
        CHECK(!strstr(d, "copy W[cid +: 1, vid * 8 +: 8, :], u\n      + set_cross_flag"));
        CHECK_CONTAINS(d, "copy V[cid +: 1, :, :], a2\n      + set_cross_flag mte2, 1\n");
        CHECK_EQ(count_kind(&p, TL_SYNC_SET_CROSS), 4); // W, V, V's release + its prologue
    }
    pk_free(&p);
    static const pk_pass_fn all[] = {tl_pass_cv_split, tl_pass_cross_sync, tl_pass_intra_sync,
                                     NULL};
    check_passes(t, src, src, all);
}

// Vector core 0 writes rows 0-7 of O, then reads rows 8-15, which vector core
// 1 wrote: nothing orders the two vector cores, and a warning says so. Each
// core reading back its own rows is fine.
#define LANES_HEAD                                                                                 \
    HEADER("1", "",                                                                                \
           "A: T.Tensor((2, 16, 64), 'float32'), O: T.Tensor((2, 16, 64), 'float32'), "            \
           "C2: T.Tensor((2, 16, 64), 'float32')")                                                 \
    "            u = T.alloc_ub((8, 64), 'float32')\n"                                             \
    "            T.copy(A[cid, vid * 8, 0], u)\n"                                                  \
    "            T.copy(u, O[cid, vid * 8, 0])\n"                                                  \
    "            T.copy(O[cid, %s, 0], u)\n"                                                       \
    "            T.tile.add(u, u, 1.0)\n"                                                          \
    "            T.copy(u, C2[cid, vid * 8, 0])\n"                                                 \
    "    return main\n"

static bool lanes_warn(tl_test_t *t, const char *rows)
{
    char src[4096];
    snprintf(src, sizeof src, LANES_HEAD, rows);
    pk_spec_t s = {.src = src};
    pk_t p;
    bool w = false;
    if (compile_ok(t, &p, &s, split_sync))
        w = strstr(tl_diag_text(&p.d), "k.py:13:13: warning: the two vector cores may both "
                                       "access 'O' here and at line 12") != NULL;
    pk_free(&p);
    return w;
}

TEST(cross_sync_warns_when_the_vector_cores_share_gm)
{
    CHECK(lanes_warn(t, "8 - vid * 8"));
    CHECK(!lanes_warn(t, "vid * 8"));
    // A place that depends on a loop the other access is not in: unknown, no
    // warning (rows i * 16 + vid * 8 in the loop, 64 + vid * 8 after it).
    static const char *src = HEADER("2", "3", MM_PARAMS) MM_BUFFERS
        "            for i in T.serial(4):\n"
        "                T.copy(A[i * 16, 0], a)\n"
        "                T.gemm_v0(a, b, c, init=True)\n"
        "                T.copy(c, W[cid, 0, 0])\n"
        "                T.copy(W[cid, vid * 8, 0], u)\n"
        "                T.copy(u, C[cid, i * 16 + vid * 8, 0])\n"
        "            T.copy(u, C[cid, 48 + vid * 8, 0])\n"
        "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, split_sync))
        CHECK(!strstr(tl_diag_text(&p.d), "the two vector cores may both access"));
    pk_free(&p);
}
