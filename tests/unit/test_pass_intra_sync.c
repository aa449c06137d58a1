// intra_sync: pipe flags and barriers inside each core. Set right after the
// producer, wait right before the consumer; barriers only on one pipe; loop-
// carried dependences with a set before the loop and a wait after it; scalar
// accesses with exactly their S pairs; syncs inside if branches; the cube's large
// accumulations and gemm_v0's own flags respected; address aliases are the same
// memory; the kernel's own syncs count; event ids reused; the barrier baseline.
#include "../test.h"

#include "test_pass_util.h"

#include <stdlib.h>
#include <string.h>

static const pk_pass_fn sync_only[] = {tl_pass_intra_sync, NULL};

#define VEC(body)                                                                                  \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"                                   \
    "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"                                               \
    "def k():\n"                                                                                   \
    "    @T.prim_func\n"                                                                           \
    "    def main(X: T.Tensor((4, 16, 64), 'float32'), Y: T.Tensor((4, 16, 64), 'float32')):\n"    \
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"                                       \
    "            u = T.alloc_ub((8, 64), 'float32')\n"                                             \
    "            w = T.alloc_ub((8, 64), 'float32')\n"                                             \
    "            s = T.alloc_ub((8,), 'float32')\n"                                                \
    "            with T.Scope('V'):\n" body "    return main\n"

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

static int count(const pk_t *p, const char *what)
{
    int n = 0;
    for (const char *d = dump(p); (d = strstr(d, what)); d++) n++;
    return n;
}

// Compiles body into p with intra_sync; the results must equal the unsynced kernel's.
static bool synced(tl_test_t *t, pk_t *p, const char *src)
{
    pk_spec_t s = {.src = src};
    if (!compile_ok(t, p, &s, sync_only)) return false;
    pk_t ref = {0};
    tl_buf_t a, b;
    tl_buf_init(&a);
    tl_buf_init(&b);
    if (compile_ok(t, &ref, &s, NULL)) {
        CHECK(pk_run(&ref, &s, 9, &a) == TL_OK && pk_run(p, &s, 9, &b) == TL_OK);
        CHECK(a.len > 0 && a.len == b.len && !memcmp(a.data, b.data, a.len));
    }
    pk_free(&ref);
    tl_buf_free(&a);
    tl_buf_free(&b);
    return true;
}

TEST(intra_sync_set_after_producer_wait_before_consumer)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                   "                T.tile.fill(w, 1.0)\n"
                   "                T.tile.add(u, u, 2.0)\n"
                   "                T.copy(u, Y[0, vid * 8, 0])\n"))) {
        const char *d = dump(&p);
        // the fill of w overlaps the load of u: set before it, wait after it
        CHECK_CONTAINS(d, "copy X[0 +: 1, vid * 8 +: 8, :], u\n    + set_flag mte2->v, 0\n"
                          "    fill w, 1.0\n    + wait_flag mte2->v, 0\n    add u, u, 2.0\n");
        CHECK_CONTAINS(d, "add u, u, 2.0\n    + set_flag v->mte3, 0\n    + wait_flag v->mte3, 0\n"
                          "    copy u, Y");
        CHECK_EQ(count(&p, "barrier"), 0);
    }
    pk_free(&p);
}

TEST(intra_sync_same_pipe_gets_a_barrier_only_when_needed)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                T.tile.fill(u, 1.0)\n"
                   "                T.tile.fill(w, 2.0)\n" // independent of u: no barrier
                   "                T.tile.add(u, u, w)\n" // reads both: one barrier
                   "                T.tile.mul(u, u, 3.0)\n"
                   "                T.copy(u, Y[0, vid * 8, 0])\n"))) {
        const char *d = dump(&p);
        CHECK_CONTAINS(d, "fill u, 1.0\n    fill w, 2.0\n    + pipe_barrier v\n    add u, u, w\n"
                          "    + pipe_barrier v\n    mul u, u, 3.0\n");
        CHECK_EQ(count(&p, "pipe_barrier"), 2);
    }
    pk_free(&p);
}

TEST(intra_sync_loop_carried_reuse_with_prologue_and_epilogue)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                for i in T.serial(4):\n"
                   "                    T.copy(X[i, vid * 8, 0], u)\n"
                   "                    T.tile.add(u, u, 1.0)\n"
                   "                    T.copy(u, Y[i, vid * 8, 0])\n"))) {
        const char *d = dump(&p);
        // the next load of u waits until the store of the previous iteration read it
        CHECK_CONTAINS(d, "+ set_flag mte3->mte2, 0\n    for i in serial(0, 4):\n"
                          "      + wait_flag mte3->mte2, 0\n      copy X[i +: 1");
        CHECK_CONTAINS(d, "copy u, Y[i +: 1, vid * 8 +: 8, :]\n      + set_flag mte3->mte2, 0\n"
                          "    + wait_flag mte3->mte2, 0\n");
        CHECK_EQ(count(&p, "set_flag"), 4); // mte2->v, v->mte3, mte3->mte2 in and before the loop
        CHECK_EQ(count(&p, "barrier"), 0);
    }
    pk_free(&p);
}

TEST(intra_sync_wait_after_a_loop_sinks_past_a_read_of_its_own_pipe)
{
    // The loop-carried pair (each iteration's fill of u waits for the previous
    // store of u) ends with a wait after the loop. Right there it would also
    // order the add after the loop's last fill (vector after vector, through
    // the store), holding the vector pipe until the last store is done. It
    // goes down to the fill that overwrites u; the add gets a pipe_barrier.
    pk_t p;
    if (synced(t, &p,
               VEC("                for i in T.serial(4):\n"
                   "                    T.tile.fill(u, i * 1.0)\n"
                   "                    T.copy(u, Y[i, vid * 8, 0])\n"
                   "                T.tile.add(w, u, 2.0)\n"
                   "                T.tile.fill(u, 3.0)\n"
                   "                T.tile.add(w, w, u)\n"
                   "                T.copy(w, Y[0, vid * 8, 0])\n"))) {
        CHECK_CONTAINS(dump(&p), "      + set_flag mte3->v, 0\n    + pipe_barrier v\n"
                                 "    add w, u, 2.0\n    + pipe_barrier v\n"
                                 "    + wait_flag mte3->v, 0\n    fill u, 3.0\n");
    }
    pk_free(&p);
}

TEST(intra_sync_disjoint_iterations_need_no_back_edge)
{
    // Each iteration writes another part of the (UB) tile: no loop-carried sync.
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(X: T.Tensor((4, 16, 64), 'float32'), Y: T.Tensor((16, 256), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            band = T.alloc_ub((4, 8, 64), 'float32')\n"
        "            with T.Scope('V'):\n"
        "                for i in T.serial(4):\n"
        "                    T.copy(X[i, vid * 8, 0], band[i, :, :])\n"
        "                    T.tile.add(band[i, :, :], band[i, :, :], 1.0)\n"
        "                for i in T.serial(4):\n"
        "                    T.copy(band[i, :, :], Y[vid * 8, i * 64])\n"
        "    return main\n";
    pk_t p;
    if (synced(t, &p, src)) {
        CHECK_EQ(count(&p, "mte2->v"), 2); // one pair, inside the first loop
        CHECK_EQ(count(&p, "v->mte2"), 0); // no back edge: rows differ per iteration
        CHECK_EQ(count(&p, "v->mte3"), 2); // one pair between the loops
        CHECK_CONTAINS(dump(&p), "    + wait_flag v->mte3, 0\n    for i_1");
    }
    pk_free(&p);
}

TEST(intra_sync_scalar_accesses_get_their_pairs)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                   "                x = u[0, 0]\n" // scalar read after MTE2: mte2->s
                   "                for j in T.serial(8):\n"
                   "                    s[j] = x + j\n" // scalar writes, then V reads: s->v
                   "                T.tile.row_expand_mul(w, u, s)\n"
                   "                T.copy(w, Y[0, vid * 8, 0])\n"))) {
        const char *d = dump(&p);
        CHECK_CONTAINS(d, "+ set_flag mte2->s, 0\n    + wait_flag mte2->s, 0\n    let x");
        CHECK_CONTAINS(d, "s[j] = x + j\n    + set_flag s->v, 0\n    + wait_flag s->v, 0\n"
                          "    row_expand_mul w, u, s\n");
        CHECK_EQ(count(&p, "barrier"), 0);
    }
    pk_free(&p);
}

TEST(intra_sync_syncs_go_into_branches)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                   "                if vid == 0:\n"
                   "                    T.tile.add(u, u, 1.0)\n"
                   "                else:\n"
                   "                    T.tile.mul(w, w, 0.0)\n"
                   "                T.copy(u, Y[0, vid * 8, 0])\n"))) {
        CHECK_EQ(count(&p, "barrier"), 0);
        // the add (in a branch) waits for the load right before it, the mul
        // does not; its set for the store follows it; the other branch waits
        // and sets at its end, so that each path sets and waits once
        CHECK_CONTAINS(dump(&p), "+ set_flag mte2->v, 0\n    if vid == 0:\n"
                                 "      + wait_flag mte2->v, 0\n      add u, u, 1.0\n"
                                 "      + set_flag v->mte3, 0\n    else:\n"
                                 "      mul w, w, 0.0\n      + wait_flag mte2->v, 0\n"
                                 "      + set_flag v->mte3, 0\n    + wait_flag v->mte3, 0\n");
    }
    pk_free(&p);
}

TEST(intra_sync_one_flag_in_other_slots_on_the_two_paths)
{
    // The then branch sets v->mte3 (for the store of w) before its wait for the
    // load of u, the else branch sets it at its end after its own wait: the
    // two paths hold the flag in different slots, and after the if it still
    // orders the stores (no barrier_all).
    pk_t p;
    if (synced(t, &p,
               VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                   "                if vid == 0:\n"
                   "                    T.tile.fill(w, 1.0)\n"
                   "                    T.tile.add(u, u, 1.0)\n"
                   "                else:\n"
                   "                    T.tile.fill(s, 0.0)\n"
                   "                T.copy(w, Y[0, vid * 8, 0])\n"
                   "                T.copy(u, Y[1, vid * 8, 0])\n"))) {
        CHECK_EQ(count(&p, "barrier"), 0);
        CHECK_CONTAINS(dump(&p), "      fill w, 1.0\n      + set_flag v->mte3, ");
    }
    pk_free(&p);
}

#define CUBE(block_M, body)                                                                        \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"                                   \
    "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"                                               \
    "def k():\n"                                                                                   \
    "    @T.prim_func\n"                                                                           \
    "    def main(A: T.Tensor((" block_M                                                           \
    ", 128), 'float16'), B: T.Tensor((128, 64), 'float16'),\n"                                     \
    "             C: T.Tensor((" block_M ", 64), 'float32')):\n"                                   \
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"                                       \
    "            a = T.alloc_L1((" block_M ", 32), 'float16')\n"                                   \
    "            b = T.alloc_L1((32, 64), 'float16')\n"                                            \
    "            c = T.alloc_L0C((" block_M ", 64), 'float32')\n"                                  \
    "            with T.Scope('C'):\n" body "    return main\n"

#define GEMM_LOOP                                                                                  \
    "                for k in T.serial(4):\n"                                                      \
    "                    T.copy(A[0, k * 32], a)\n"                                                \
    "                    T.copy(B[k * 32, 0], b)\n"                                                \
    "                    T.gemm_v0(a, b, c, init=(k == 0))\n"                                      \
    "                T.copy(c, C)\n"

TEST(intra_sync_gemm_v0_orders_itself)
{
    // gemm_v0's helper waits for MTE2 and FIX and releases L1 and L0C itself; a
    // 64 x 64 accumulator (16 fractals) interlocks: no sync at all.
    pk_t p;
    if (synced(t, &p, CUBE("64", GEMM_LOOP))) CHECK_EQ(count(&p, "+ "), 0);
    pk_free(&p);
}

TEST(intra_sync_small_accumulator_needs_a_barrier)
{
    // Two raw mmads into a 16 x 64 accumulator (4 fractals, no interlock) need
    // pipe_barrier(M) between them; a 64 x 64 one interlocks.
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"
        "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
        "def k(M):\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor((M, 32), 'float16'), B: T.Tensor((32, 64), 'float16'),\n"
        "             C: T.Tensor((M, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_L1((M, 32), 'float16')\n"
        "            b = T.alloc_L1((32, 64), 'float16')\n"
        "            a0 = T.alloc_L0A((M, 32), 'float16')\n"
        "            b0 = T.alloc_L0B((32, 64), 'float16')\n"
        "            c = T.alloc_L0C((M, 64), 'float32')\n"
        "            with T.Scope('C'):\n"
        "                T.copy(A, a)\n"
        "                T.copy(B, b)\n"
        "                T.copy(a, a0)\n"
        "                T.copy(b, b0)\n"
        "                T.mma(a0, b0, c, init=True)\n"
        "                T.mma(a0, b0, c)\n"
        "                T.copy(c, C)\n"
        "    return main\n";
    pk_t p;
    pk_spec_t s = {.src = src, .args = {"M=16"}};
    if (compile_ok(t, &p, &s, sync_only)) {
        CHECK_CONTAINS(dump(&p),
                       "mma a0, b0, c [init=True]\n    + pipe_barrier m\n    mma a0, b0, c\n");
        CHECK_EQ(count(&p, "barrier_all"), 0);
    }
    pk_free(&p);
    pk_spec_t s64 = {.src = src, .args = {"M=64"}};
    if (compile_ok(t, &p, &s64, sync_only)) CHECK_EQ(count(&p, "pipe_barrier"), 0);
    pk_free(&p);
}

TEST(intra_sync_addresses_that_alias_are_the_same_memory)
{
    // w is pinned onto u's bytes: writing w after reading u is a WAR.
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(X: T.Tensor((16, 64), 'float32'), Y: T.Tensor((16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            u = T.alloc_ub((8, 64), 'float32')\n"
        "            w = T.alloc_ub((8, 64), 'float32')\n"
        "            T.annotate_address({u: 0, w: 0})\n"
        "            with T.Scope('V'):\n"
        "                T.copy(X[vid * 8, 0], u)\n"
        "                T.copy(u, Y[vid * 8, 0])\n"
        "                T.tile.fill(w, 3.0)\n"
        "    return main\n";
    pk_t p;
    if (synced(t, &p, src))
        CHECK_CONTAINS(dump(&p), "+ set_flag mte3->v, 0\n    + wait_flag mte3->v, 0\n    fill w");
    pk_free(&p);
}

TEST(intra_sync_keeps_the_kernels_own_syncs)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                   "                T.set_flag('mte2', 'v', 0)\n"
                   "                T.wait_flag('mte2', 'v', 0)\n"
                   "                T.tile.add(u, u, 1.0)\n"
                   "                T.set_flag('v', 'mte3', 1)\n"
                   "                T.wait_flag('v', 'mte3', 1)\n"
                   "                T.copy(u, Y[0, vid * 8, 0])\n")))
        CHECK_EQ(count(&p, "+ "), 0);
    pk_free(&p);
}

TEST(intra_sync_event_ids_are_reused_and_avoid_the_kernels_own)
{
    pk_t p;
    if (synced(t, &p,
               VEC("                T.set_flag('mte2', 'v', 0)\n"
                   "                T.wait_flag('mte2', 'v', 0)\n"
                   "                T.copy(X[0, vid * 8, 0], u)\n"
                   "                T.tile.add(u, u, 1.0)\n"
                   "                T.copy(X[1, vid * 8, 0], w)\n"
                   "                T.tile.add(w, w, 1.0)\n"
                   "                T.tile.add(u, u, w)\n"
                   "                T.copy(u, Y[0, vid * 8, 0])\n"))) {
        CHECK_EQ(count(&p, "mte2->v, 1"), 4); // two pairs, one id (1: the kernel uses 0)
        CHECK_EQ(count(&p, "mte2->v, 2"), 0);
    }
    pk_free(&p);
}

TEST(intra_sync_baseline_puts_barrier_all_after_every_op)
{
    // --pass-config tl.tilec_sync_baseline=True (tilec's own key)
    pk_spec_t s = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.tile.add(u, u, 1.0)\n"
                              "                T.copy(u, Y[0, vid * 8, 0])\n"),
                   .configs = {"tl.tilec_sync_baseline=True"}};
    pk_t p;
    if (compile_ok(t, &p, &s, sync_only)) {
        CHECK(p.k->config.sync_baseline);
        int sets, waits, barriers, alls;
        tl_intra_sync_count(p.k, &sets, &waits, &barriers, &alls);
        CHECK_EQ(alls, 3);
        CHECK_EQ(sets + waits + barriers, 0);
        CHECK_CONTAINS(dump(&p), "add u, u, 1.0\n    + barrier_all\n");
    }
    pk_free(&p);
}

TEST(intra_sync_off_without_the_switch)
{
    pk_spec_t s = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.tile.add(u, u, 1.0)\n"
                              "                T.copy(u, Y[0, vid * 8, 0])\n"),
                   .configs = {"tl.ascend_auto_sync=False"}};
    pk_t p;
    if (compile_ok(t, &p, &s, sync_only)) CHECK_EQ(count(&p, "+ "), 0);
    pk_free(&p);
}

// A persistent loop around a 4-stage pipelined K loop of GM -> L1 -> L0 copies
// and mmas: more than 8 MTE1 -> MTE2 pairs would be live at once, so pairs
// whose syncs sit next to each other (the A and the B tile) share one; no
// barrier_all is needed. The next tile's first loads wait for the MTE1 copy
// that last read their buffer, not for the whole previous K loop: the set
// sits inside the pipelined loop's epilogue, right after that copy.
TEST(intra_sync_neighbouring_pairs_share_an_event_id)
{
    static const char *src = "import tilelang\n"
                             "import tilelang.language as T\n"
                             "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}\n"
                             "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
                             "def k(nk=8, tiles=3):\n"
                             "    @T.prim_func\n"
                             "    def main(A: T.Tensor((32, nk * 32), 'float16'),\n"
                             "             B: T.Tensor((tiles * 64, nk * 32), 'float16'),\n"
                             "             C: T.Tensor((tiles * 32, 64), 'float32')):\n"
                             "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                             "            a_l1 = T.alloc_L1((32, 32), 'float16')\n"
                             "            b_l1 = T.alloc_L1((64, 32), 'float16')\n"
                             "            a_l0 = T.alloc_L0A((32, 32), 'float16')\n"
                             "            b_l0 = T.alloc_L0B((32, 64), 'float16')\n"
                             "            c_l0 = T.alloc_L0C((32, 64), 'float32')\n"
                             "            with T.Scope('C'):\n"
                             "                for t in T.serial(tiles):\n"
                             "                    for k in T.Pipelined(nk, num_stages=4):\n"
                             "                        T.copy(A[0, k * 32], a_l1)\n"
                             "                        T.copy(B[t * 64, k * 32], b_l1)\n"
                             "                        T.copy(a_l1, a_l0)\n"
                             "                        T.copy(b_l1, b_l0, transpose=True)\n"
                             "                        T.mma(a_l0, b_l0, c_l0, init=(k == 0))\n"
                             "                    T.copy(c_l0, C[t * 32, 0])\n"
                             "    return main\n";
    static const pk_pass_fn passes[] = {tl_pass_pipelined, tl_pass_intra_sync, NULL};
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, passes)) {
        CHECK_EQ(count(&p, "barrier_all"), 0);
        CHECK(!strstr(tl_diag_text(&p.d), "no free"));
        // the epilogue's copy of a_l1 (version 0) is followed by the release
        // the next tile's first load waits for
        CHECK_CONTAINS(dump(&p), "copy a_l1, a_l0\n");
        const char *epi = strstr(dump(&p), "mma a_l0_v3");
        const char *last = epi;
        for (const char *q = epi; q && (q = strstr(q + 1, "copy a_l1, a_l0\n"));) last = q;
        CHECK(last && last != epi && strstr(last, "set_flag mte1->mte2") &&
              strstr(last, "set_flag mte1->mte2") < strstr(last, "copy b_l1_v1"));
    }
    pk_free(&p);
}
