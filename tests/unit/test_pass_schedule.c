// schedule: each core's straight-line code reordered so that independent
// chains of vector ops interleave; every dependence kept (buffers that share
// an address, scalar reads of UB, registers, lets), nothing moved across a
// sync; loops with equal bounds and no dependence fused; the outputs equal
// the program's as written, and the simulator finds no race after intra_sync.
#include "../test.h"

#include "../gen_check.h"
#include "check/check.h"
#include "test_pass_util.h"

#include <stdlib.h>
#include <string.h>

static const pk_pass_fn sched[] = {tl_pass_memplan, tl_pass_schedule, NULL};
static const pk_pass_fn sched_sync[] = {tl_pass_memplan, tl_pass_schedule, tl_pass_intra_sync,
                                        NULL};
static const pk_pass_fn plan_sync[] = {tl_pass_memplan, tl_pass_intra_sync, NULL};

#define VEC(body)                                                                                  \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,\n"                                   \
    "       tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}\n"                             \
    "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"                                               \
    "def k():\n"                                                                                   \
    "    @T.prim_func\n"                                                                           \
    "    def main(X: T.Tensor((4, 16, 64), 'float32'), Y: T.Tensor((4, 16, 64), 'float32')):\n"    \
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"                                       \
    "            u = T.alloc_ub((8, 64), 'float32')\n"                                             \
    "            w = T.alloc_ub((8, 64), 'float32')\n"                                             \
    "            s = T.alloc_ub((8,), 'float32')\n"                                                \
    "            with T.Scope('V'):\n" body "    return main\n"

// Two independent chains: u and w each loaded, six dependent ops, stored.
#define CHAIN(x)                                                                                   \
    "                T.tile.sigmoid(" x ", " x ")\n"                                               \
    "                T.tile.add(" x ", " x ", 1.0)\n"                                              \
    "                T.tile.mul(" x ", " x ", 2.0)\n"
#define TWO_CHAINS                                                                                 \
    "                T.copy(X[0, vid * 8, 0], u)\n"                                                \
    "                T.copy(X[1, vid * 8, 0], w)\n" CHAIN("u") CHAIN("u") CHAIN("w")               \
        CHAIN("w") "                T.copy(u, Y[0, vid * 8, 0])\n"                                 \
                   "                T.copy(w, Y[1, vid * 8, 0])\n"

// Position of `what` in the dump (-1: absent).
static long at(const pk_t *p, const char *what)
{
    const char *d = strstr(pk_dump(p), what);
    return d ? d - pk_dump(p) : -1;
}

// Compiles with `passes` into *p; the outputs must equal the program as
// written (scope inference only) on the reference executor.
static bool same(tl_test_t *t, pk_t *p, const pk_spec_t *s, const pk_pass_fn *passes)
{
    tl_buf_t why;
    tl_buf_init(&why);
    bool ok = pk_same_results(s, passes, 11, p, &why);
    if (!ok) tl_test_fail(t, __FILE__, __LINE__, "%s", tl_buf_cstr(&why));
    tl_buf_free(&why);
    return ok && p->k;
}

// Runs p's kernel on the simulator; returns the cycles (-1 on failure) and
// the races found.
static int64_t sim(tl_test_t *t, pk_t *p, const pk_spec_t *s, int *races)
{
    tl_check_io_t io = {0};
    tl_check_target_t info = tl_check_target("sim");
    int nd = 0;
    while (nd < PK_MAX && s->dims[nd]) nd++;
    tl_status_t st = tl_check_inputs(&io, p->k, nd, s->dims, 0, NULL, 5, &p->d);
    if (st == TL_OK) st = tl_check_backend(&info, p->k, &io, &p->d);
    tl_check_io_free(&io);
    *races = (int)info.report.nraces;
    if (st != TL_OK && st != TL_ERR_RACE) {
        tl_test_fail(t, __FILE__, __LINE__, "sim failed:\n%s", tl_diag_text(&p->d));
        return -1;
    }
    return info.report.cycles;
}

// The kernel after the schedule and intra_sync runs race-free on the simulator.
static void check_race_free(tl_test_t *t, const pk_spec_t *s)
{
    pk_t p;
    int races = -1;
    if (same(t, &p, s, sched_sync)) CHECK(sim(t, &p, s, &races) > 0 && races == 0);
    pk_free(&p);
}

TEST(schedule_interleaves_independent_chains)
{
    pk_spec_t s = {.src = VEC(TWO_CHAINS)};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        // one chain's op between two dependent ops of the other
        CHECK_CONTAINS(pk_dump(&p), "sigmoid u, u\n    sigmoid w, w\n    add u, u, 1.0\n"
                                    "    add w, w, 1.0\n    mul u, u, 2.0\n    mul w, w, 2.0\n"
                                    "    sigmoid u, u\n    sigmoid w, w\n");
        // both loads first, before any vector op
        CHECK(at(&p, "copy X[1 +: 1") < at(&p, "sigmoid u"));
    }
    pk_free(&p);
    // intra_sync then needs a barrier per pair of ops, not per op, and the
    // program is faster on the simulator and race-free
    pk_t a, b;
    int ra = 0, rb = 0;
    if (same(t, &a, &s, sched_sync) && same(t, &b, &s, plan_sync)) {
        CHECK_EQ(pk_occurrences(&a, "pipe_barrier v"), 5);
        CHECK_EQ(pk_occurrences(&b, "pipe_barrier v"), 10);
        int64_t ca = sim(t, &a, &s, &ra), cb = sim(t, &b, &s, &rb);
        CHECK_EQ(ra, 0);
        CHECK_EQ(rb, 0);
        CHECK(ca > 0 && ca < cb);
    }
    pk_free(&a);
    pk_free(&b);
}

TEST(schedule_off_with_the_pass_config)
{
    pk_spec_t s = {.src = VEC(TWO_CHAINS), .configs = {"tl.tilec_schedule=False"}};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        CHECK(!p.k->config.schedule);
        CHECK_CONTAINS(pk_dump(&p), "config auto_sync memory_planning no_schedule\n");
        CHECK_CONTAINS(pk_dump(&p),
                       "sigmoid u, u\n    add u, u, 1.0\n    mul u, u, 2.0\n    sigmoid u, u\n");
    }
    pk_free(&p);
    // nor without automatic sync: the kernel's own syncs order what it wrote
    pk_spec_t m = {.src = VEC(TWO_CHAINS), .configs = {"tl.ascend_auto_sync=False"}};
    if (same(t, &p, &m, sched))
        CHECK_CONTAINS(pk_dump(&p),
                       "sigmoid u, u\n    add u, u, 1.0\n    mul u, u, 2.0\n    sigmoid u, u\n");
    pk_free(&p);
}

TEST(schedule_is_deterministic)
{
    pk_spec_t s = {.path = "kernels/ds_v4/hc_split_sinkhorn.py"};
    static const pk_pass_fn npu[] = {
        tl_pass_parallel,   tl_pass_workspace, tl_pass_pipelined, tl_pass_cv_split,
        tl_pass_cross_sync, tl_pass_memplan,   tl_pass_schedule,  NULL};
    pk_t a, b;
    REQUIRE(pk_compile(&a, &s, npu) == TL_OK);
    REQUIRE(pk_compile(&b, &s, npu) == TL_OK);
    CHECK(a.dump.len == b.dump.len && !memcmp(a.dump.data, b.dump.data, a.dump.len));
    pk_free(&a);
    pk_free(&b);
}

// w is pinned onto u's bytes: by name the two chains are independent, by
// address w's writes must wait for every read of u before them (and u's
// reload for w's store).
TEST(schedule_keeps_the_order_of_buffers_that_share_an_address)
{
    static const char *src =
        "import tilelang\n"
        "import tilelang.language as T\n"
        "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,\n"
        "       tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}\n"
        "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
        "def k():\n"
        "    @T.prim_func\n"
        "    def main(X: T.Tensor((4, 16, 64), 'float32'), Y: T.Tensor((4, 16, 64), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            u = T.alloc_ub((8, 64), 'float32')\n"
        "            w = T.alloc_ub((8, 64), 'float32')\n"
        "            T.annotate_address({u: 0, w: 0})\n"
        "            with T.Scope('V'):\n" TWO_CHAINS "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        // every statement touches the same bytes as the one before it: the
        // order stays as written (by name, the chains would interleave)
        CHECK_CONTAINS(pk_dump(&p), "mul u, u, 2.0\n    sigmoid w, w\n");
        CHECK_CONTAINS(pk_dump(&p), "mul w, w, 2.0\n    copy u, Y");
        CHECK(at(&p, "copy X[1 +: 1") > at(&p, "copy X[0 +: 1"));
    }
    pk_free(&p);
    check_race_free(t, &s);
}

// A reduction into s, read by the scalar unit (a let and a store); the other
// chain has no reason to wait, but the scalar read must follow the reduction
// and the next vector write of s must follow the scalar read.
TEST(schedule_keeps_scalar_reads_of_ub_after_the_write_and_before_the_next)
{
    pk_spec_t s = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.copy(X[1, vid * 8, 0], w)\n"
                              "                T.reduce_sum(u, s, dim=-1)\n"
                              "                m = s[0]\n"
                              "                T.tile.exp(w, w)\n"
                              "                T.tile.add(w, w, m)\n"
                              "                T.tile.fill(s, 2.0)\n"
                              "                s[3] = s[1] + m\n"
                              "                T.tile.mul(w, w, s[3])\n"
                              "                T.tile.add(w, w, 1.0)\n"
                              "                T.copy(w, Y[1, vid * 8, 0])\n")};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        CHECK(at(&p, "reduce_sum u, s") < at(&p, "let m"));
        CHECK(at(&p, "let m") < at(&p, "fill s, 2.0"));
        CHECK(at(&p, "fill s, 2.0") < at(&p, "s[3] = "));
        CHECK(at(&p, "s[3] = ") < at(&p, "mul w, w, s[3]"));
        CHECK(at(&p, "let m") < at(&p, "add w, w, m"));
    }
    pk_free(&p);
    check_race_free(t, &s);
}

// Registers (alloc_var) order their accesses too.
TEST(schedule_keeps_register_accesses_in_order)
{
    pk_spec_t s = {.src = VEC("                r = T.alloc_var('float32')\n"
                              "                r = 1.0\n"
                              "                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.copy(X[1, vid * 8, 0], w)\n"
                              "                T.tile.mul(u, u, r)\n"
                              "                r = 3.0\n"
                              "                T.tile.exp(w, w)\n"
                              "                T.tile.mul(w, w, r)\n"
                              "                T.tile.add(u, u, w)\n"
                              "                T.copy(u, Y[0, vid * 8, 0])\n")};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        CHECK(at(&p, "mul u, u, r") < at(&p, "r = 3.0"));
        CHECK(at(&p, "r = 3.0") < at(&p, "mul w, w, r"));
    }
    pk_free(&p);
}

// A sync of the kernel's own (and a cross-core flag) is a wall: the chains
// interleave on each side of it but nothing crosses it.
TEST(schedule_moves_nothing_across_a_sync)
{
    pk_spec_t s = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.copy(X[1, vid * 8, 0], w)\n"
                              "                T.set_flag('mte2', 'v', 0)\n"
                              "                T.wait_flag('mte2', 'v', 0)\n"
                              "                T.tile.exp(u, u)\n"
                              "                T.tile.add(u, u, 1.0)\n"
                              "                T.set_cross_flag('V', 3)\n"
                              "                T.tile.exp(w, w)\n"
                              "                T.tile.add(w, w, 1.0)\n"
                              "                T.tile.add(u, u, w)\n"
                              "                T.copy(u, Y[0, vid * 8, 0])\n")};
    pk_t p;
    pk_spec_t plain = s;
    if (same(t, &p, &s, sched)) {
        CHECK(at(&p, "add u, u, 1.0") < at(&p, "set_cross_flag"));
        CHECK(at(&p, "set_cross_flag") < at(&p, "exp w, w"));
        CHECK(at(&p, "copy X[1 +: 1") < at(&p, "set_flag"));
        CHECK(at(&p, "wait_flag") < at(&p, "exp u, u"));
    }
    pk_free(&p);
    (void)plain;
}

// Two loops with the same bounds and no dependence between any of their
// iterations become one, their bodies interleaved; a statement between them
// that needs the first loop goes after the fused loop, one the second loop
// needs stays before it. A loop the other depends on is not fused.
TEST(schedule_fuses_independent_loops_with_equal_bounds)
{
    pk_spec_t s = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                for i in T.serial(12):\n"
                              "                    T.tile.exp(u, u)\n"
                              "                    T.tile.mul(u, u, 0.5)\n"
                              "                T.tile.add(u, u, 1.0)\n"       // needs loop 1
                              "                T.copy(X[1, vid * 8, 0], w)\n" // loop 2 needs it
                              "                for j in T.serial(12):\n"
                              "                    T.tile.exp(w, w)\n"
                              "                    T.tile.mul(w, w, 0.5)\n"
                              "                T.tile.add(w, w, u)\n"
                              "                T.copy(w, Y[0, vid * 8, 0])\n")};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        CHECK_EQ(pk_occurrences(&p, "for "), 1);
        CHECK_CONTAINS(pk_dump(&p), "for i in serial(0, 12):\n      exp u, u\n      exp w, w\n"
                                    "      mul u, u, 0.5\n      mul w, w, 0.5\n");
        CHECK(at(&p, "copy X[1 +: 1") < at(&p, "for i"));
        CHECK(at(&p, "add u, u, 1.0") > at(&p, "for i"));
    }
    pk_free(&p);
    // the second loop reads u: no fusion
    pk_spec_t d = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.copy(X[1, vid * 8, 0], w)\n"
                              "                for i in T.serial(12):\n"
                              "                    T.tile.exp(u, u)\n"
                              "                for j in T.serial(12):\n"
                              "                    T.tile.add(w, w, u)\n"
                              "                T.copy(w, Y[0, vid * 8, 0])\n")};
    if (same(t, &p, &d, sched)) CHECK_EQ(pk_occurrences(&p, "for "), 2);
    pk_free(&p);
}

// Small loops are unrolled so that their statements interleave with others;
// a loop whose iterations stay together in order is put back.
TEST(schedule_unrolls_small_loops_only_where_it_interleaves)
{
    pk_spec_t s = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                              "                T.copy(X[1, vid * 8, 0], w)\n"
                              "                for r in T.serial(4):\n"
                              "                    T.tile.sigmoid(u, u)\n"
                              "                    T.tile.add(u, u, 1.0)\n" CHAIN("w")
                                  CHAIN("w") "                T.tile.add(u, u, w)\n"
                                             "                T.copy(u, Y[0, vid * 8, 0])\n")};
    pk_t p;
    if (same(t, &p, &s, sched)) {
        CHECK_EQ(pk_occurrences(&p, "for r"), 0);
        CHECK_EQ(pk_occurrences(&p, "sigmoid u, u"), 4);
        CHECK_CONTAINS(pk_dump(&p), "sigmoid u, u\n    sigmoid w, w\n    add u, u, 1.0\n");
    }
    pk_free(&p);
    // nothing to interleave with: the loop stays
    pk_spec_t alone = {.src = VEC("                T.copy(X[0, vid * 8, 0], u)\n"
                                  "                for r in T.serial(4):\n"
                                  "                    T.tile.sigmoid(u, u)\n"
                                  "                    T.tile.add(u, u, 1.0)\n"
                                  "                T.copy(u, Y[0, vid * 8, 0])\n")};
    if (same(t, &p, &alone, sched)) CHECK_EQ(pk_occurrences(&p, "for r in serial(0, 4)"), 1);
    pk_free(&p);
}

// A vector-only T.Pipelined loop: its iteration-local buffers get a version
// per stage, the unrolled iterations' chains interleave (their inner loops
// fused); every trip count keeps the results, race-free, and the loop runs
// faster than without.
static const char *piped_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,\n"
    "       tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}\n"
    "@tilelang.jit(out_idx=[1], pass_configs=CFG)\n"
    "def k(n=6):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((16, 8, 128), 'float32'), Y: T.Tensor((16, 8, 128), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            xb = T.alloc_ub((4, 128), 'float32')\n"
    "            t1 = T.alloc_ub((4, 128), 'float32')\n"
    "            rs = T.alloc_ub((4,), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                for i in T.Pipelined(n, num_stages=2):\n"
    "                    T.tile.fill(xb, 0.0)\n" // so the copy is no stage-0 load
    "                    T.copy(X[i, vid * 4, 0], xb)\n"
    "                    T.tile.exp(t1, xb)\n"
    "                    T.reduce_sum(t1, rs, dim=-1)\n"
    "                    T.tile.reciprocal(rs, rs)\n"
    "                    for it in T.serial(12):\n"
    "                        T.tile.row_expand_mul(t1, t1, rs)\n"
    "                        T.tile.add(t1, t1, 1.0)\n"
    "                    T.copy(t1, Y[i, vid * 4, 0])\n"
    "    return main\n";

TEST(schedule_interleaves_the_iterations_of_a_pipelined_loop)
{
    static const pk_pass_fn npu[] = {tl_pass_pipelined, tl_pass_memplan, tl_pass_schedule,
                                     tl_pass_intra_sync, NULL};
    static const char *trips[] = {"n=0", "n=1", "n=2", "n=3", "n=6", "n=7"};
    for (size_t i = 0; i < TL_ARRAY_LEN(trips); i++) {
        pk_spec_t s = {.src = piped_src, .args = {trips[i]}};
        pk_t p;
        int races = 0;
        if (same(t, &p, &s, npu)) {
            CHECK(sim(t, &p, &s, &races) > 0);
            CHECK_EQ(races, 0);
        }
        pk_free(&p);
    }
    pk_spec_t s = {.src = piped_src, .args = {"n=6"}};
    pk_spec_t off = {.src = piped_src, .args = {"n=6"}, .configs = {"tl.tilec_schedule=False"}};
    pk_t a, b;
    int ra, rb;
    if (same(t, &a, &s, npu) && same(t, &b, &off, npu)) {
        // xb and rs get versions (t1 has its own: it is handed to MTE3); the
        // inner loops of two iterations fuse
        CHECK_CONTAINS(pk_dump(&a), "  xb_v1: UB float32[4, 128] @");
        CHECK_CONTAINS(pk_dump(&a), "  rs_v1: UB float32[4] @");
        CHECK_EQ(pk_occurrences(&b, "rs_v1"), 0);
        CHECK_CONTAINS(pk_dump(&a), "        row_expand_mul t1, t1, rs\n"
                                    "        row_expand_mul t1_v1, t1_v1, rs_v1\n"
                                    "        + pipe_barrier v\n"
                                    "        add t1, t1, 1.0\n"
                                    "        add t1_v1, t1_v1, 1.0\n");
        int64_t ca = sim(t, &a, &s, &ra), cb = sim(t, &b, &off, &rb);
        CHECK(ca > 0 && ca < cb);
    }
    pk_free(&a);
    pk_free(&b);
}

// Random developer-mode kernels (tests/gen_kernel.h) whose loops are often
// T.Pipelined: through the NPU pipeline (versions, unrolled iterations,
// fusion, schedule), race-free on the simulator and equal to the reference.
TEST(schedule_random_kernels_with_pipelined_loops)
{
    int n = tl_test_sanitized() ? 40 : 300, fails = 0, pipelined = 0;
    tl_rng_t r;
    tl_rng_seed(&r, 20261203);
    tl_buf_t src;
    tl_diag_t d;
    tl_buf_init(&src);
    tl_diag_init(&d);
    for (int p = 0; p < n && fails < 3; p++, tl_buf_clear(&src), tl_diag_clear(&d)) {
        gen_result_t res = gen_check_random(&r, true, &src, &d);
        pipelined += strstr(tl_buf_cstr(&src), "T.Pipelined") != NULL;
        if (res == GEN_OK) continue;
        fails++;
        tl_test_fail(t, __FILE__, __LINE__, "program %d: %s\n%s\n--- source ---\n%s", p,
                     gen_result_name(res), tl_diag_text(&d), tl_buf_cstr(&src));
    }
    tl_diag_free(&d);
    tl_buf_free(&src);
    CHECK(pipelined > n / 5);
}
