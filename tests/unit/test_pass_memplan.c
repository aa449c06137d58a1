// Memory planning: loop-aware lifetimes, address sharing, alignment, pins,
// over-capacity diagnostics, bump placement with planning off, and unchanged
// results on the executor with the planned layout.
#include "../test.h"

#include "test_pass_util.h"

#include <stdlib.h>

static const pk_pass_fn plan_only[] = {tl_pass_memplan, NULL};

#define PRELUDE                                                                                    \
    "import tilelang\n"                                                                            \
    "import tilelang.language as T\n"                                                              \
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}\n"

// Vector-side kernel body builder: X, Y, Z are [32, 64] float32; one block,
// each vector core takes 16 rows (r0).
#define VEC_KERNEL(bufs, body)                                                                     \
    PRELUDE "@tilelang.jit(out_idx=[1, 2], pass_configs=CFG)\n"                                    \
            "def k():\n"                                                                           \
            "    @T.prim_func\n"                                                                   \
            "    def main(X: T.Tensor((32, 64), 'float32'), Y: T.Tensor((32, 64), 'float32'),\n"   \
            "             Z: T.Tensor((32, 64), 'float32')):\n"                                    \
            "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"                               \
            "            r0 = vid * 16\n" bufs "            with T.Scope('V'):\n" body             \
            "    return main\n"

static bool compile_ok(tl_test_t *t, pk_t *p, const pk_spec_t *s, const pk_pass_fn *passes)
{
    tl_status_t st = pk_compile(p, s, passes);
    if (st != TL_OK)
        tl_test_fail(t, __FILE__, __LINE__, "compile failed:\n%s", tl_diag_text(&p->d));
    return st == TL_OK;
}

static int64_t addr(const pk_t *p, const char *name)
{
    const tl_buffer_t *b = pk_buffer(p->k, name);
    return b ? b->addr : -2;
}

static bool ranges_overlap(const pk_t *p, const char *a, const char *b)
{
    const tl_buffer_t *x = pk_buffer(p->k, a), *y = pk_buffer(p->k, b);
    if (!x || !y) return true;
    return x->addr < y->addr + tl_buffer_bytes(y) && y->addr < x->addr + tl_buffer_bytes(x);
}

// Runs the planned kernel and the same kernel with the executor's own layout
// (addresses cleared) and checks that the outputs are identical.
static void check_same_results(tl_test_t *t, pk_t *p, const pk_spec_t *s)
{
    tl_buf_t a, b;
    tl_buf_init(&a);
    tl_buf_init(&b);
    tl_status_t st = pk_run(p, s, 7, &a);
    int64_t *saved = malloc(sizeof *saved * (size_t)p->k->buffers.len);
    for (int i = 0; i < p->k->buffers.len; i++) {
        tl_buffer_t *buf = p->k->buffers.items[i];
        saved[i] = buf->addr;
        if (buf->scope != TL_SCOPE_GM && !buf->addr_pinned) buf->addr = -1;
    }
    if (st == TL_OK) st = pk_run(p, s, 7, &b);
    for (int i = 0; i < p->k->buffers.len; i++)
        ((tl_buffer_t *)p->k->buffers.items[i])->addr = saved[i];
    free(saved);
    if (st != TL_OK) tl_test_fail(t, __FILE__, __LINE__, "run failed:\n%s", tl_diag_text(&p->d));
    CHECK(a.len > 0);
    CHECK(a.len == b.len && !memcmp(a.data, b.data, a.len));
    tl_buf_free(&a);
    tl_buf_free(&b);
}

// The liveness tests below use buffers only the vector pipe touches (io is the
// one that moves data in and out): the plan shares addresses between buffers
// of one pipe whenever their lifetimes allow.
TEST(memplan_disjoint_lifetimes_share_an_address)
{
    pk_spec_t s = {.src = VEC_KERNEL("            io = T.alloc_ub((16, 64), 'float32')\n"
                                     "            a = T.alloc_ub((16, 64), 'float32')\n"
                                     "            b = T.alloc_ub((16, 64), 'float32')\n",
                                     "                T.copy(X[r0, 0], io)\n"
                                     "                T.tile.exp(a, io)\n"
                                     "                T.tile.add(io, io, a)\n"
                                     "                T.tile.mul(b, io, 2.0)\n"
                                     "                T.tile.add(io, io, b)\n"
                                     "                T.copy(io, Y[r0, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "io"), 0);
        CHECK_EQ(addr(&p, "a"), 4096);
        CHECK_EQ(addr(&p, "b"), 4096);
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
}

TEST(memplan_value_used_in_a_loop_lives_for_the_whole_loop)
{
    // acc is defined before the loop and read in it; tmp is written in every
    // iteration; after the loop acc is read once more; late is used only after.
    pk_spec_t s = {.src = VEC_KERNEL("            io = T.alloc_ub((16, 64), 'float32')\n"
                                     "            acc = T.alloc_ub((16, 64), 'float32')\n"
                                     "            tmp = T.alloc_ub((16, 64), 'float32')\n"
                                     "            late = T.alloc_ub((16, 64), 'float32')\n",
                                     "                T.tile.fill(acc, 0.0)\n"
                                     "                for k in T.serial(3):\n"
                                     "                    T.tile.fill(tmp, 1.5)\n"
                                     "                    T.tile.add(acc, acc, tmp)\n"
                                     "                T.copy(X[r0, 0], io)\n"
                                     "                T.tile.add(io, io, acc)\n"
                                     "                T.tile.exp(late, io)\n"
                                     "                T.tile.add(io, io, late)\n"
                                     "                T.copy(io, Y[r0, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK(!ranges_overlap(&p, "acc", "tmp"));
        // tmp dies with the loop, acc right after it: late reuses one of them.
        CHECK(addr(&p, "late") == addr(&p, "tmp") || addr(&p, "late") == addr(&p, "acc"));
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
}

TEST(memplan_loop_carried_value_keeps_its_range)
{
    // s is read at the top of each iteration before it is written: its value
    // flows around the loop, so t (used later in the body) must not reuse it.
    pk_spec_t s = {.src = VEC_KERNEL("            o = T.alloc_ub((16, 64), 'float32')\n"
                                     "            s = T.alloc_ub((16, 64), 'float32')\n"
                                     "            t = T.alloc_ub((16, 64), 'float32')\n",
                                     "                T.tile.fill(o, 0.0)\n"
                                     "                for k in T.serial(3):\n"
                                     "                    T.tile.add(s, s, 1.0)\n"
                                     "                    T.tile.add(o, o, s)\n"
                                     "                    T.tile.fill(t, 2.0)\n"
                                     "                    T.tile.add(o, o, t)\n"
                                     "                T.copy(o, Y[r0, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) CHECK(!ranges_overlap(&p, "s", "t"));
    pk_free(&p);

    // The same with s overwritten first in every iteration: no value flows.
    pk_spec_t s2 = {.src = VEC_KERNEL("            o = T.alloc_ub((16, 64), 'float32')\n"
                                      "            s = T.alloc_ub((16, 64), 'float32')\n"
                                      "            t = T.alloc_ub((16, 64), 'float32')\n",
                                      "                T.tile.fill(o, 0.0)\n"
                                      "                for k in T.serial(3):\n"
                                      "                    T.tile.fill(s, 2.0)\n"
                                      "                    T.tile.add(s, s, 1.0)\n"
                                      "                    T.tile.add(o, o, s)\n"
                                      "                    T.tile.fill(t, 2.0)\n"
                                      "                    T.tile.add(o, o, t)\n"
                                      "                T.copy(o, Y[r0, 0])\n")};
    if (compile_ok(t, &p, &s2, plan_only)) {
        CHECK_EQ(addr(&p, "s"), addr(&p, "t"));
        check_same_results(t, &p, &s2);
    }
    pk_free(&p);
}

TEST(memplan_rows_written_by_a_loop_cover_the_buffer)
{
    // g is rebuilt row by row (both branches write row r) in every iteration,
    // so its value is not carried and h may take its place after its last use.
    const char *bufs = "            o = T.alloc_ub((16, 64), 'float32')\n"
                       "            g = T.alloc_ub((16, 64), 'float32')\n"
                       "            h = T.alloc_ub((16, 64), 'float32')\n";
    const char *body_full = "                T.copy(X[r0, 0], o)\n"
                            "                for it in T.serial(2):\n"
                            "                    for r in T.serial(16):\n"
                            "                        if r % 2 == 0:\n"
                            "                            T.tile.fill(g[r, :], 3.0)\n"
                            "                        else:\n"
                            "                            T.tile.fill(g[r, :], 1.0)\n"
                            "                    T.tile.add(o, o, g)\n"
                            "                    T.tile.exp(h, o)\n"
                            "                    T.tile.add(o, o, h)\n"
                            "                T.copy(o, Y[r0, 0])\n";
    char src[4096];
    snprintf(src, sizeof src, VEC_KERNEL("%s", "%s"), bufs, body_full);
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "g"), addr(&p, "h"));
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
    // Rows 0..14 only: row 15 of the previous iteration is still read.
    char body_part[1024];
    snprintf(body_part, sizeof body_part, "%s", body_full);
    char *at = strstr(body_part, "T.serial(16)");
    memcpy(at, "T.serial(15)", 12);
    snprintf(src, sizeof src, VEC_KERNEL("%s", "%s"), bufs, body_part);
    if (compile_ok(t, &p, &s, plan_only)) CHECK(!ranges_overlap(&p, "g", "h"));
    pk_free(&p);
}

TEST(memplan_pinned_buffers_keep_their_address)
{
    pk_spec_t s = {.src = VEC_KERNEL("            o = T.alloc_ub((16, 64), 'float32')\n"
                                     "            a = T.alloc_ub((16, 64), 'float32')\n"
                                     "            b = T.alloc_ub((16, 64), 'float32')\n"
                                     "            c = T.alloc_ub((16, 64), 'float32')\n"
                                     "            T.annotate_address({b: 0})\n",
                                     "                T.copy(X[r0, 0], o)\n"
                                     "                T.tile.exp(a, o)\n"
                                     "                T.tile.add(o, o, a)\n"
                                     "                T.tile.exp(c, o)\n"
                                     "                T.tile.add(o, o, c)\n"
                                     "                T.tile.fill(b, 1.0)\n"
                                     "                T.tile.add(o, o, b)\n"
                                     "                T.copy(o, Y[r0, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "b"), 0);
        CHECK(pk_buffer(p.k, "b")->addr_pinned);
        CHECK(!ranges_overlap(&p, "a", "b"));
        CHECK(!ranges_overlap(&p, "c", "b"));
        CHECK_EQ(addr(&p, "o"), 4096); // right after the pin
        CHECK_EQ(addr(&p, "a"), 8192);
        CHECK_EQ(addr(&p, "c"), 8192); // a is dead by then
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
}

// Buffers that two pipes use keep their own ranges while everything fits:
// sharing would make the loads into b wait for the stores out of a.
TEST(memplan_no_address_shared_across_pipes_when_it_fits)
{
    pk_spec_t s = {.src = VEC_KERNEL("            a = T.alloc_ub((16, 64), 'float32')\n"
                                     "            b = T.alloc_ub((16, 64), 'float32')\n"
                                     "            u = T.alloc_ub((16, 64), 'float32')\n"
                                     "            w = T.alloc_ub((16, 64), 'float32')\n",
                                     "                T.copy(X[r0, 0], a)\n"
                                     "                T.tile.exp(u, a)\n"
                                     "                T.tile.add(a, a, u)\n"
                                     "                T.copy(a, Y[r0, 0])\n"
                                     "                T.copy(X[r0, 0], b)\n"
                                     "                T.tile.mul(w, b, 2.0)\n"
                                     "                T.tile.add(b, b, w)\n"
                                     "                T.copy(b, Z[r0, 0])\n")};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK(!ranges_overlap(&p, "a", "b"));
        CHECK_EQ(addr(&p, "u"), addr(&p, "w")); // vector-only temporaries still share
        CHECK(!ranges_overlap(&p, "u", "a") && !ranges_overlap(&p, "u", "b"));
        REQUIRE(p.k->plan_note != NULL);
        CHECK_STREQ(p.k->plan_note, "  UB: 12288 B, no address shared across pipes\n");
        tl_buf_t ir;
        tl_buf_init(&ir);
        tl_ir_print_kernel(&ir, p.k);
        CHECK_CONTAINS(tl_buf_cstr(&ir),
                       "memplan\n  UB: 12288 B, no address shared across pipes\nbody\n");
        tl_buf_free(&ir);
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
}

// Two 96 KiB buffers of the load/store pipes fit UB only at one address: b
// takes a's range, the note says why, and small (which fits beside them)
// still gets a range of its own.
TEST(memplan_shares_across_pipes_when_needed_to_fit)
{
    const char *src =
        PRELUDE "@tilelang.jit(out_idx=[1, 2], pass_configs=CFG)\n"
                "def k():\n"
                "    @T.prim_func\n"
                "    def main(X: T.Tensor((48, 1024), 'float32'), Y: T.Tensor((48, 1024), "
                "'float32'),\n"
                "             Z: T.Tensor((48, 1024), 'float32')):\n"
                "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                "            r0 = vid * 24\n"
                "            a = T.alloc_ub((24, 1024), 'float32')\n"
                "            b = T.alloc_ub((24, 1024), 'float32')\n"
                "            small = T.alloc_ub((1, 1024), 'float32')\n"
                "            with T.Scope('V'):\n"
                "                T.copy(X[r0, 0], a)\n"
                "                T.tile.exp(a, a)\n"
                "                T.copy(a, Y[r0, 0])\n"
                "                T.copy(X[r0, 0], b)\n"
                "                T.tile.mul(b, b, 2.0)\n"
                "                T.copy(b, Z[r0, 0])\n"
                "                T.copy(X[r0, 0], small)\n"
                "                T.copy(small, Y[r0, 0])\n"
                "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "a"), 0);
        CHECK_EQ(addr(&p, "b"), 0);
        CHECK(!ranges_overlap(&p, "small", "a") && !ranges_overlap(&p, "small", "b"));
        REQUIRE(p.k->plan_note != NULL);
        CHECK_STREQ(p.k->plan_note,
                    "  UB: 102400 B, shared across pipes where needed: without sharing addresses "
                    "across pipes the buffers need 200704 B, more than the 196352 B of UB; 'b' "
                    "(mte2/mte3/v) over 'a' (mte2/mte3/v)\n");
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
}

TEST(memplan_scope_alignment)
{
    // L0A/L0B addresses are multiples of 512 B, L0C of 64 B, UB and L1 of 32 B;
    // sizes are rounded up the same way (declaration order with planning off).
    const char *src =
        PRELUDE "@tilelang.jit(out_idx=[2], pass_configs=CFG)\n"
                "def k():\n"
                "    @T.prim_func\n"
                "    def main(A: T.Tensor((16, 16), 'float16'), B: T.Tensor((16, 16), 'float16'),\n"
                "             C: T.Tensor((16, 16), 'float32')):\n"
                "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                "            a1 = T.alloc_L1((16, 16), 'float16')\n"
                "            b1 = T.alloc_L1((16, 16), 'float16')\n"
                "            odd = T.alloc_ub((3,), 'float32')\n"
                "            a0 = T.alloc_L0A((16, 8), 'float16')\n"
                "            a0b = T.alloc_L0A((16, 16), 'float16')\n"
                "            b0 = T.alloc_L0B((16, 16), 'float16')\n"
                "            c0 = T.alloc_L0C((2, 4), 'float32')\n"
                "            c1 = T.alloc_L0C((16, 16), 'float32')\n"
                "            with T.Scope('C'):\n"
                "                T.copy(A[0, 0], a1)\n"
                "                T.copy(B[0, 0], b1)\n"
                "                T.copy(a1[:, 0:8], a0)\n"
                "                T.copy(a1, a0b)\n"
                "                T.copy(b1, b0)\n"
                "                T.mma(a0b, b0, c1, init=True)\n"
                "                T.copy(c1, C[0, 0])\n"
                "            with T.Scope('V'):\n"
                "                T.tile.fill(odd, 0.0)\n"
                "    return main\n";
    pk_spec_t s = {.src = src, .configs = {"TL_ASCEND_MEMORY_PLANNING=False"}};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "a1"), 0);
        CHECK_EQ(addr(&p, "b1"), 512);
        CHECK_EQ(addr(&p, "odd"), 0);
        CHECK_EQ(addr(&p, "a0"), 0);
        CHECK_EQ(addr(&p, "a0b"), 512); // a0's 256 B take a 512-byte slot
        CHECK_EQ(addr(&p, "b0"), 0);
        CHECK_EQ(addr(&p, "c0"), 0);
        CHECK_EQ(addr(&p, "c1"), 64); // c0's 32 B take a 64-byte slot
    }
    pk_free(&p);
    // Planned: every address still aligned.
    pk_spec_t on = {.src = src};
    if (compile_ok(t, &p, &on, plan_only)) {
        for (int i = 0; i < p.k->buffers.len; i++) {
            const tl_buffer_t *b = p.k->buffers.items[i];
            if (b->scope != TL_SCOPE_GM) CHECK_EQ(b->addr % tl_memplan_align(b->scope), 0);
        }
        CHECK_EQ(tl_memplan_align(TL_SCOPE_L0A), 512);
        CHECK_EQ(tl_memplan_align(TL_SCOPE_L0C), 64);
        CHECK_EQ(tl_memplan_align(TL_SCOPE_UB), 32);
    }
    pk_free(&p);
}

// Two L0C accumulators that cannot be live together fit only by sharing: the
// shape of upstream's sparse attention at h = 64, d = 512 (16 KiB + 128 KiB).
TEST(memplan_accumulators_share_l0c)
{
    const char *src = PRELUDE
        "@tilelang.jit(out_idx=[2, 3], pass_configs=CFG)\n"
        "def k(h=64, d=512, n=3):\n"
        "    @T.prim_func\n"
        "    def main(Q: T.Tensor((h, d), 'bfloat16'), KV: T.Tensor((n, 64, d), 'bfloat16'),\n"
        "             S: T.Tensor((n, h, 64), 'float32'), O: T.Tensor((n, h, d), 'float32')):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            q_l1 = T.alloc_L1((h, d), 'bfloat16')\n"
        "            kv_l1 = T.alloc_L1((64, d), 'bfloat16')\n"
        "            p_l1 = T.alloc_L1((h, 64), 'bfloat16')\n"
        "            s_l0c = T.alloc_L0C((h, 64), 'float32')\n"
        "            o_l0c = T.alloc_L0C((h, d), 'float32')\n"
        "            with T.Scope('C'):\n"
        "                T.copy(Q[0, 0], q_l1)\n"
        "                for t in T.serial(n):\n"
        "                    T.copy(KV[t, 0, 0], kv_l1)\n"
        "                    T.gemm_v0(q_l1, kv_l1, s_l0c, transpose_B=True, init=True)\n"
        "                    T.copy(s_l0c, S[t, 0, 0])\n"
        "                    T.copy(KV[t, 0, 0:64], p_l1)\n"
        "                    T.gemm_v0(p_l1, kv_l1, o_l0c, init=True)\n"
        "                    T.copy(o_l0c, O[t, 0, 0])\n"
        "    return main\n";
    pk_spec_t s = {.src = src};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "s_l0c"), 0);
        CHECK_EQ(addr(&p, "o_l0c"), 0);
        CHECK_CONTAINS(p.k->plan_note,
                       "  L0C: 131072 B, shared across pipes where needed: without sharing "
                       "addresses across pipes the buffers need 147456 B, more than the 131072 B "
                       "of L0C; 'o_l0c' (m/fix) over 's_l0c' (m/fix)\n");
        check_same_results(t, &p, &s);
    }
    pk_free(&p);
    // Without planning they do not fit, and the message says so.
    pk_spec_t off = {.src = src, .configs = {"TL_ASCEND_MEMORY_PLANNING=False"}};
    CHECK(pk_compile(&p, &off, plan_only) == TL_ERR_COMPILE);
    const char *text = tl_diag_text(&p.d);
    CHECK_CONTAINS(text, "error: L0C over capacity: 'o_l0c' does not fit; with memory planning off "
                         "(TL_ASCEND_MEMORY_PLANNING) every buffer has its own range and the L0C "
                         "buffers need 147456 B, 16384 B more than the 131072 B of L0C: 's_l0c' "
                         "(float32[64, 64]) 16384 B, 'o_l0c' (float32[64, 512]) 131072 B");
    CHECK_CONTAINS(text, "note: with memory planning on, the buffers live at the same time need at "
                         "most 131072 B");
    pk_free(&p);
}

TEST(memplan_bump_placement_when_off)
{
    pk_spec_t s = {.src = VEC_KERNEL("            a = T.alloc_ub((16, 64), 'float32')\n"
                                     "            odd = T.alloc_ub((5,), 'float32')\n"
                                     "            b = T.alloc_ub((16, 64), 'float32')\n",
                                     "                T.copy(X[r0, 0], a)\n"
                                     "                T.copy(a, Y[r0, 0])\n"
                                     "                T.tile.fill(odd, 0.0)\n"
                                     "                T.copy(X[r0, 0], b)\n"
                                     "                T.copy(b, Z[r0, 0])\n"),
                   .configs = {"TL_ASCEND_MEMORY_PLANNING=False"}};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        CHECK_EQ(addr(&p, "a"), 0);
        CHECK_EQ(addr(&p, "odd"), 4096);
        CHECK_EQ(addr(&p, "b"), 4096 + 32);
    }
    pk_free(&p);
}

TEST(memplan_over_capacity_names_the_live_buffers)
{
    // big1 and big2 (96 KiB each) are live together with small: 196640 B, 32
    // over the 196608 B of the hardware; early is dead by then and is not listed.
    pk_spec_t s = {.src = VEC_KERNEL("            early = T.alloc_ub((16, 64), 'float32')\n"
                                     "            big1 = T.alloc_ub((384, 64), 'float32')\n"
                                     "            big2 = T.alloc_ub((384, 64), 'float32')\n"
                                     "            small = T.alloc_ub((8,), 'float32')\n",
                                     "                T.copy(X[r0, 0], early)\n"
                                     "                T.copy(early, Y[r0, 0])\n"
                                     "                T.tile.fill(big1, 0.0)\n"
                                     "                T.tile.fill(small, 1.0)\n"
                                     "                T.tile.fill(big2, 1.0)\n"
                                     "                T.tile.add(big1, big1, big2)\n"
                                     "                T.copy(big1[0:16, :], Y[r0, 0])\n"
                                     "                T.copy(small, Z[r0, 0:8])\n")};
    pk_t p;
    CHECK(pk_compile(&p, &s, plan_only) == TL_ERR_COMPILE);
    const char *text = tl_diag_text(&p.d);
    CHECK_CONTAINS(text, "k.py:13:20: error: UB over capacity: the buffers live together need "
                         "196640 B, 32 B more than the 196608 B of UB; live at the peak: 'big1' "
                         "(float32[384, 64]) 98304 B, 'big2' (float32[384, 64]) 98304 B, 'small' "
                         "(float32[8]) 32 B");
    CHECK_CONTAINS(text, "k.py:20:17: note: the UB peak is at this statement");
    CHECK(!strstr(text, "'early'"));
    pk_free(&p);

    // The reference pipeline keeps going with the executor's own placement.
    if (compile_ok(t, &p, &s, (const pk_pass_fn[]){tl_pass_memplan_ref, NULL})) {
        CHECK_CONTAINS(tl_diag_text(&p.d), "warning: UB over capacity");
        CHECK_EQ(addr(&p, "big1"), -1);
    }
    pk_free(&p);
}

// Past the 196352 B upstream's build claims of UB but inside the 196608 B of
// the hardware: a warning naming the buffers in the reserve, planned or not
// (upstream's elementwise_add.py: three 64 KiB tiles, planning off).
TEST(memplan_runtime_reserve_is_a_warning)
{
    pk_spec_t s = {.src = VEC_KERNEL("            a = T.alloc_ub((256, 64), 'float32')\n"
                                     "            b = T.alloc_ub((256, 64), 'float32')\n"
                                     "            c = T.alloc_ub((256, 64), 'float32')\n",
                                     "                T.tile.fill(a, 0.0)\n"
                                     "                T.tile.fill(b, 1.0)\n"
                                     "                T.tile.add(c, a, b)\n"
                                     "                T.copy(c[0:16, :], Y[r0, 0])\n")};
    for (int planning = 0; planning < 2; planning++) {
        s.configs[0] = planning ? NULL : "TL_ASCEND_MEMORY_PLANNING=False";
        pk_t p;
        if (compile_ok(t, &p, &s, plan_only)) {
            CHECK_EQ(addr(&p, "c"), 131072);
            CHECK_CONTAINS(tl_diag_text(&p.d),
                           "k.py:13:17: warning: UB: the buffers reach byte 196608, 256 B past the "
                           "196352 B that upstream's Ascend C build claims for them");
            CHECK_CONTAINS(tl_diag_text(&p.d), "'c' (float32[256, 64]) 65536 B at 131072");
        }
        pk_free(&p);
    }
    // 32 B more is past the hardware: an error
    s.src = VEC_KERNEL("            a = T.alloc_ub((256, 64), 'float32')\n"
                       "            b = T.alloc_ub((256, 64), 'float32')\n"
                       "            c = T.alloc_ub((256, 64), 'float32')\n"
                       "            d = T.alloc_ub((8,), 'float32')\n",
                       "                T.tile.fill(a, 0.0)\n"
                       "                T.tile.fill(b, 1.0)\n"
                       "                T.tile.fill(d, 1.0)\n"
                       "                T.tile.add(c, a, b)\n"
                       "                T.copy(c[0:16, :], Y[r0, 0])\n"
                       "                T.copy(d, Z[r0, 0:8])\n");
    s.configs[0] = NULL;
    pk_t p;
    CHECK(pk_compile(&p, &s, plan_only) == TL_ERR_COMPILE);
    CHECK_CONTAINS(tl_diag_text(&p.d), "32 B more than the 196608 B of UB");
    pk_free(&p);
}

TEST(memplan_sparse_attention_fits_at_model_shape)
{
    pk_spec_t s = {.path = "kernels/ds_v4/sparse_attn.py", .args = {"h=64", "d=512"}};
    pk_t p;
    if (compile_ok(t, &p, &s, plan_only)) {
        for (int i = 0; i < p.k->buffers.len; i++) {
            const tl_buffer_t *b = p.k->buffers.items[i];
            if (b->scope != TL_SCOPE_GM) CHECK(b->addr >= 0);
        }
    }
    pk_free(&p);
}

TEST(memplan_kernels_run_unchanged)
{
    pk_spec_t specs[] = {
        {.path = "kernels/examples/flash_attention.py",
         .args = {"batch=1", "heads=2", "seq_q=64", "seq_kv=128", "dim=64"}},
        {.path = "kernels/ds_v4/sparse_attn.py",
         .args = {"h=16", "d=64"},
         .dims = {"b=1", "m=2", "n=90", "topk=100"},
         .fills = {"topk_idxs=int:-1:89"}},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(specs); i++) {
        pk_t p;
        if (compile_ok(t, &p, &specs[i], plan_only)) check_same_results(t, &p, &specs[i]);
        pk_free(&p);
    }
}
