// Inline GM <-> UB copies of the generated C (src/cpu/cgen_copy.c) against
// the reference executor, bit for bit: tiles walked over a tensor whose
// edges clip them (the rest of the UB tile zero-filled, the GM side written
// only inside the tensor), start-point operands on either side, a GM row
// into a row of a 2-D tile (unit dimensions dropped), a column copy (left
// to the runtime), and UB -> GM rows at an unaligned column of a tensor
// large enough for streaming stores. The module must have the inline forms
// (so the comparison is not vacuous). A GM start outside the tensor takes
// the runtime's path and its error message.
#include "../test.h"
#include "test_cpu_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "exec/exec.h"
#include "front/front.h"
#include "pass/pass.h"

static const char *copy_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[2, 3, 4, 5])\n"
    "def copies(M, N, BIG=1025, bad=0):\n"
    "    R = 8\n"
    "    C = 16\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((M, N), 'float32'), V: T.Tensor((M,), 'float32'),\n"
    "             O: T.Tensor((M, N), 'float32'), S: T.Tensor((M,), 'float32'),\n"
    "             P: T.Tensor((M, C), 'float32'), Q: T.Tensor((BIG, 2048), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, 2 * R), is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub([R, C], 'float32')\n"
    "            v = T.alloc_ub([R], 'float32')\n"
    "            col = T.alloc_ub([R, 1], 'float32')\n"
    "            one = T.alloc_ub([1], 'float32')\n"
    "            q = T.alloc_ub([2, 1000], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                r0 = cid * 2 * R + vid * R\n"
    "                for c in T.serial(T.ceildiv(N, C)):\n"
    "                    T.copy(A[r0 : r0 + R, c * C : c * C + C], a)\n"
    "                    T.tile.add(a, a, 0.5)\n"
    "                    T.copy(a, O[r0 : r0 + R, c * C : c * C + C])\n"
    "                T.copy(A[r0, 0], a)\n"
    "                T.copy(a, P[r0, 0])\n"
    "                T.copy(V[r0 : r0 + R], a[1, 0:R])\n"
    "                T.copy(a[1, 0:R], v)\n"
    "                T.copy(V[r0 : r0 + R], col)\n"
    "                T.tile.add(v, v, col)\n"
    "                T.copy(v, S[r0 : r0 + R])\n"
    "                T.copy(V[r0 - bad * M], one)\n"
    "                T.tile.fill(q, 0.25)\n"
    "                T.tile.add(q[1, 0:R], q[1, 0:R], v)\n"
    "                T.copy(q, Q[cid * 4 + vid * 2 : cid * 4 + vid * 2 + 2, 3 + vid : 1003 + "
    "vid])\n"
    "                T.copy(one, Q[BIG - 1, cid * 2 + vid])\n"
    "\n"
    "    return main\n";

static double value(int64_t i)
{
    static const double sp[] = {NAN, INFINITY, -0.0, 1e-40, -3e9};
    if (i % 7 == 3) return sp[(i / 7) % 5];
    return ((double)((i * 40503) % 2001) - 1000.0) / 9.7;
}

static tl_tensor_t *tensor(int nd, const int64_t *shape, int64_t seed)
{
    tl_tensor_t *x;
    if (tl_tensor_create(&x, TL_F32, nd, shape, NULL)) return NULL;
    for (size_t i = 0; i < tl_tensor_numel(x); i++)
        tl_tensor_set_flat(x, i, value((int64_t)i + seed));
    return x;
}

// M x N with tiles of 8 x 16 (R = 8: a GM row of R float32 is whole 32-byte blocks in a UB row):
// both edges clip unless M % 16 == 0 and N % 16 == 0.
static void copy_case(tl_test_t *t, int64_t m, int64_t n, const char *bad)
{
    tl_arena_t arena;
    tl_diag_t d, dx;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_diag_init(&dx);
    tl_kernel_t *k = NULL;
    char mv[16], nv[16];
    snprintf(mv, sizeof mv, "%" PRId64, m);
    snprintf(nv, sizeof nv, "%" PRId64, n);
    tl_front_arg_t fa[] = {{"M", mv}, {"N", nv}, {"bad", bad}};
    REQUIRE((k = tl_test_cpu_kernel(&arena, &d, "copies.py", copy_src, 3, fa)));
    int64_t s2[2] = {m, n}, s1[1] = {m};
    tl_tensor_t *a = tensor(2, s2, 0), *v = tensor(1, s1, 5);
    REQUIRE(a && v);
    tl_exec_opts_t eo = {0};
    tl_exec_t *x;
    REQUIRE(tl_exec_create(&x, k, &eo, &dx) == TL_OK);
    tl_cpu_t *c;
    REQUIRE(tl_cpu_create(&c, k, NULL, &d) == TL_OK);
    tl_exec_set_tensor(x, "A", a);
    tl_exec_set_tensor(x, "V", v);
    tl_bind_set_tensor(tl_cpu_args(c), "A", a);
    tl_bind_set_tensor(tl_cpu_args(c), "V", v);
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    CHECK(tl_test_count(src, "big_);") >= 2); // rows with streaming stores
    CHECK(tl_test_count(src, "memset(M") >= 1);
    if (*bad == '1') {
        CHECK(tl_exec_run(x) == TL_ERR_RUNTIME);
        CHECK(tl_cpu_run(c) == TL_ERR_RUNTIME);
        CHECK_CONTAINS(tl_diag_text(&dx),
                       "region of 'V' starts at [-16] with extents [1]: negative index");
        CHECK_CONTAINS(tl_diag_text(&d),
                       "region of 'V' starts at [-16] with extents [1]: negative index");
        goto out;
    }
    REQUIRE(tl_exec_run(x) == TL_OK);
    REQUIRE(tl_cpu_run(c) == TL_OK);
    static const char *outs[] = {"O", "S", "P", "Q"};
    for (int o = 0; o < 4; o++) {
        tl_tensor_t *want = tl_exec_tensor(x, outs[o]),
                    *got = tl_bind_tensor(tl_cpu_args(c), outs[o]);
        REQUIRE(want && got);
        size_t len = tl_tensor_numel(want);
        int nbad = 0;
        for (size_t i = 0; i < len; i++)
            if (memcmp((float *)want->data + i, (float *)got->data + i, 4) && nbad++ < 5)
                tl_test_fail(t, __FILE__, __LINE__,
                             "M=%" PRId64 " N=%" PRId64 " %s[%zu]: cpu %g, reference %g", m, n,
                             outs[o], i, tl_tensor_get_flat(got, i), tl_tensor_get_flat(want, i));
        CHECK_EQ(nbad, 0);
    }
    CHECK_EQ(d.nerrors, 0);
out:
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    tl_tensor_destroy(a);
    tl_tensor_destroy(v);
    tl_diag_free(&d);
    tl_diag_free(&dx);
    tl_arena_free(&arena);
}

TEST(cpu_copy_inline_copies_match_the_reference)
{
    copy_case(t, 16, 64, "0"); // no clipping
    copy_case(t, 13, 37, "0"); // tiles clipped at the bottom and right edges
    copy_case(t, 5, 9, "0");   // tiles wider than the tensor
}

TEST(cpu_copy_start_outside_the_tensor_is_the_runtime_error)
{
    copy_case(t, 16, 32, "1");
}

// UB buffers read in place: `a` (a row of X) and `b` (two rows) are written
// only by whole-buffer copies of X and read only by inline loops, so the
// loops read X where it lies when the copy is one run of X (b only when
// N == C) and not clipped (N >= C); `s` is also read by a runtime op (exp)
// and is always copied.
static const char *view_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1, 2])\n"
    "def views(M, N, C=32):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((M, N), 'float32'), Y: T.Tensor((M, C), 'float32'),\n"
    "             Z: T.Tensor((M, C), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, 4), is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub([1, C], 'float32')\n"
    "            b = T.alloc_ub([2, C], 'float32')\n"
    "            y = T.alloc_ub([2, C], 'float32')\n"
    "            s = T.alloc_ub([1, C], 'float32')\n"
    "            z = T.alloc_ub([1, C], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                r0 = cid * 4 + vid * 2\n"
    "                for j in T.serial(2):\n"
    "                    i = 1 - j\n"
    "                    T.copy(X[r0 + i, 0:C], a)\n"
    "                    T.tile.add(y[i, :], a[0, :], 1.0)\n"
    "                T.copy(X[r0 : r0 + 2, 0:C], b)\n"
    "                T.tile.mul(y, y, b)\n"
    "                T.copy(y, Y[r0 : r0 + 2, :])\n"
    "                T.copy(X[r0 + 1, 0:C], s)\n"
    "                T.tile.exp(z, s)\n"
    "                T.tile.add(z, z, s)\n"
    "                T.copy(z, Z[r0 + 1, :])\n"
    "\n"
    "    return main\n";

// A kernel of M = 8 rows and one more integer argument, its input X
// [8, cols] and the reference / cpu pair that runs it.
typedef struct {
    tl_arena_t arena;
    tl_diag_t d;
    tl_tensor_t *x;
    tl_exec_t *e;
    tl_cpu_t *c;
} pair_case_t;

static bool pair_open(pair_case_t *p, const char *file, const char *src, const char *arg,
                      int64_t value, int64_t cols)
{
    char v[16];
    snprintf(v, sizeof v, "%" PRId64, value);
    tl_front_arg_t fa[] = {{"M", "8"}, {arg, v}};
    tl_arena_init(&p->arena);
    tl_diag_init(&p->d);
    tl_kernel_t *k = tl_test_cpu_kernel(&p->arena, &p->d, file, src, 2, fa);
    int64_t s2[2] = {8, cols};
    p->x = k ? tensor(2, s2, 3) : NULL;
    return p->x && tl_test_cpu_pair(k, NULL, &p->d, &p->e, &p->c);
}

static void pair_close(pair_case_t *p)
{
    tl_tensor_destroy(p->x);
    tl_cpu_destroy(p->c);
    tl_exec_destroy(p->e);
    tl_arena_free(&p->arena);
    tl_diag_free(&p->d);
}

static void view_case(tl_test_t *t, int64_t n)
{
    pair_case_t pc;
    REQUIRE(pair_open(&pc, "views.py", view_src, "N", n, n));
    tl_cpu_t *c = pc.c;
    static const char *ins[] = {"X"}, *outs[] = {"Y", "Z"};
    char label[32];
    snprintf(label, sizeof label, "N=%" PRId64, n);
    REQUIRE(tl_test_cpu_compare(t, pc.e, c, ins, &pc.x, 1, outs, 2, label));
    // a and b are read in place, s is not: a pointer per copy (the loop over
    // i is unrolled by the unroll pass, so a's two copies have one each)
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    CHECK_EQ(tl_test_count(src, " = (uint8_t *)(G"), 3);
    CHECK_EQ(tl_test_count(src, "tlc_pf_box(&Q, V"), 3); // the loops issue these
    CHECK(tl_test_count(src, "tlc_pf_take(&Q") >= 2);
    // into L2 (prefetcht1): to L1 they held its miss buffers that the loop's
    // own loads wait for (act_quant 1.87 -> 1.65 ms on 2 Zen 5 vCPUs)
    CHECK(tl_test_count(src, "__builtin_prefetch(") >= 1);
    CHECK_EQ(tl_test_count(src, ", 0, 2), f"), tl_test_count(src, "__builtin_prefetch("));
    CHECK_EQ(pc.d.nerrors, 0);
    pair_close(&pc);
}

TEST(cpu_copy_buffers_read_in_place_match_the_reference)
{
    view_case(t, 32); // rows and row pairs in place
    view_case(t, 37); // rows in place, row pairs copied
    view_case(t, 25); // clipped: copied, the rest zero-filled
}

// UB buffers written in place: an inline loop writes `y` (and the int8 `q`,
// into a tensor large enough for streaming stores), which a copy then moves
// whole to a row of Y (of W); nothing reads them after the copy, so the loop
// stores straight into Y when the row is not clipped (K >= C; the rows go
// last first, so a clipped row written whole would show in the next). The
// two rows of `y2` go to Y2 in place only when they are one run (K == C). Three stay in UB and are
// copied: `z` is read again after its copy (R), a set-aside copy reads T's row (into P) between the
// loop that writes `t` and t's copy to that row, and the loop after the rows
// reads `u` before writing it (GM outputs start as NaN: a loop that read
// them instead of UB would give NaN).
static const char *out_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1, 2, 3, 4, 5, 6, 7, 8])\n"
    "def outs(M, K, C=32, BIG=32768):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((M, C), 'float32'), Y: T.Tensor((M, K), 'float32'),\n"
    "             Z: T.Tensor((M, C), 'float32'), U: T.Tensor((M, C), 'float32'),\n"
    "             T_: T.Tensor((M, C), 'float32'), P: T.Tensor((M, C), 'float32'),\n"
    "             R: T.Tensor((M, C), 'float32'), W: T.Tensor((M * BIG, C), 'int8'),\n"
    "             Y2: T.Tensor((M, K), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, 4), is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub([1, C], 'float32')\n"
    "            y = T.alloc_ub([1, C], 'float32')\n"
    "            z = T.alloc_ub([1, C], 'float32')\n"
    "            u = T.alloc_ub([1, C], 'float32')\n"
    "            t = T.alloc_ub([1, C], 'float32')\n"
    "            o = T.alloc_ub([1, C], 'float32')\n"
    "            q = T.alloc_ub([1, C], 'int8')\n"
    "            h = T.alloc_ub([1, C], 'float16')\n"
    "            x2 = T.alloc_ub([2, C], 'float32')\n"
    "            y2 = T.alloc_ub([2, C], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                r0 = cid * 4 + vid * 2\n"
    "                T.tile.fill(u, 0.5)\n"
    "                for j in T.serial(2):\n"
    "                    i = 1 - j\n"
    "                    T.copy(X[r0 + i, 0:C], a)\n"
    "                    T.tile.add(y, a, 1.0)\n"
    "                    T.tile.mul(z, a, 2.0)\n"
    "                    T.tile.sub(t, a, 3.0)\n"
    "                    T.copy(T_[r0 + i, 0:C], o)\n"
    "                    T.tile.clamp(a, a, -100.0, 100.0, C)\n"
    "                    T.tile.round(a, a, C)\n"
    "                    T.tile.cast(h, a, mode='CAST_RINT', count=C)\n"
    "                    T.tile.cast(q, h, mode='CAST_RINT', count=C)\n"
    "                    T.copy(y, Y[r0 + i, 0:C])\n"
    "                    T.copy(z, Z[r0 + i, :])\n"
    "                    T.copy(t, T_[r0 + i, :])\n"
    "                    T.copy(q, W[(r0 + i) * BIG, :])\n"
    "                    T.copy(o, P[r0 + i, :])\n"
    "                    T.tile.add(o, z, 1.0)\n"
    "                    T.copy(o, R[r0 + i, :])\n"
    "                T.tile.add(u, u, a)\n"
    "                T.copy(u, U[r0, :])\n"
    "                T.copy(X[r0 : r0 + 2, :], x2)\n"
    "                T.tile.add(y2, x2, 1.5)\n"
    "                T.copy(y2, Y2[r0 : r0 + 2, 0:C])\n"
    "\n"
    "    return main\n";

static void out_case(tl_test_t *t, int64_t k)
{
    pair_case_t pc;
    REQUIRE(pair_open(&pc, "outs.py", out_src, "K", k, 32));
    tl_cpu_t *c = pc.c;
    static const char *ins[] = {"X"}, *outs[] = {"Y", "Z", "U", "T_", "P", "R", "W", "Y2"};
    char label[32];
    snprintf(label, sizeof label, "K=%" PRId64, k);
    REQUIRE(tl_test_cpu_compare(t, pc.e, c, ins, &pc.x, 1, outs, 8, label));
    // y and q may be written in place (a pointer each, the copy run unless
    // the loop did it), with streaming stores into W; u, z and t are copied
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    int targets = tl_test_count(src, "_t = 1;");
    CHECK(targets >= 2);
    CHECK_EQ(tl_test_count(src, "if (!W"), targets);
    CHECK(tl_test_count(src, "_mm_stream_si128((__m128i *)(p") >= 1);
    CHECK(tl_test_count(src, "_s) _mm_sfence();") >= 1);
    // q converts the clamped value, not its round (vcvtps2dq rounds the same
    // way): no rounded temp is converted
    int rounds = 0;
    for (const char *p = src; (p = strstr(p, " = _mm512_roundscale_ps(")); p++) {
        const char *n = p;
        while (n > src && n[-1] != ' ') n--;
        char name[32], use[64];
        snprintf(name, sizeof name, "%.*s", (int)(p - n), n);
        snprintf(use, sizeof use, "_mm512_cvtps_epi32(%s)", name);
        CHECK_EQ(tl_test_count(src, use), 0);
        rounds++;
    }
    CHECK(rounds >= 1);
    CHECK_EQ(pc.d.nerrors, 0);
    pair_close(&pc);
}

TEST(cpu_copy_buffers_written_in_place_match_the_reference)
{
    out_case(t, 32); // y and y2 in place
    out_case(t, 40); // y in place, y2 (not one run of Y2) copied
    out_case(t, 20); // clipped: copied
}

// Narrow rows (16 and 32 bytes) move in an inline loop of fixed-size copies
// when not clipped in width; a GM -> UB copy zeroes the padding after each
// row and the rows past the tensor itself. `xa` is 4 x 8 with 4 columns
// copied in: its row sums cover the padding, and W gets every row of it, so
// padding or tail rows left unzeroed (blocks run one after the other on one
// thread: the second sees the first's rows) show. Q and Z are 3-D (a middle
// index dropped); N < 4 clips X's and Y's rows at run time (then the
// general path runs).
static const char *narrow_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[2, 3, 4, 5])\n"
    "def narrow(M, N=4):\n"
    "    R = 4\n"
    "    MP = (M + 7) // 8 * 8\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((M, N), 'float32'), Q: T.Tensor((M, 3, 4), 'float32'),\n"
    "             S: T.Tensor((M,), 'float32'), Y: T.Tensor((M, N), 'float32'),\n"
    "             W: T.Tensor((MP, 8), 'float32'), Z: T.Tensor((M, 3, 4), 'float32')):\n"
    "        with T.Kernel(T.ceildiv(M, 2 * R), is_npu=True) as (cid, vid):\n"
    "            xa = T.alloc_ub([R, 8], 'float32')\n"
    "            qb = T.alloc_ub([R, 8], 'float32')\n"
    "            s = T.alloc_ub([R], 'float32')\n"
    "            with T.Scope('V'):\n"
    "                r0 = cid * 2 * R + vid * R\n"
    "                T.copy(X[r0 : r0 + R, 0:4], xa)\n"
    "                T.reduce_sum(xa, s, dim=-1)\n"
    "                T.copy(s, S[r0 : r0 + R])\n"
    "                T.copy(xa, W[r0 : r0 + R, :])\n"
    "                T.tile.add(xa, xa, 1.0)\n"
    "                T.copy(xa, Y[r0 : r0 + R, 0:4])\n"
    "                T.copy(Q[r0 : r0 + R, 1, :], qb)\n"
    "                T.tile.mul(qb, qb, 2.0)\n"
    "                T.copy(qb, Z[r0 : r0 + R, 2, :])\n"
    "\n"
    "    return main\n";

static void narrow_case(tl_test_t *t, int64_t m, int64_t n)
{
    char mv[16], nv[16], label[32];
    snprintf(mv, sizeof mv, "%" PRId64, m);
    snprintf(nv, sizeof nv, "%" PRId64, n);
    snprintf(label, sizeof label, "M=%" PRId64 " N=%" PRId64, m, n);
    tl_front_arg_t fa[] = {{"M", mv}, {"N", nv}};
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    tl_kernel_t *k = tl_test_cpu_kernel(&arena, &d, "narrow.py", narrow_src, 2, fa);
    int64_t s2[2] = {m, n}, s3[3] = {m, 3, 4};
    tl_tensor_t *in[2] = {tensor(2, s2, 11), tensor(3, s3, 2)};
    tl_exec_opts_t eo = {0};
    tl_cpu_opts_t co = {.threads = 1};
    tl_exec_t *x = NULL;
    tl_cpu_t *c = NULL;
    REQUIRE(k && in[0] && in[1] && tl_exec_create(&x, k, &eo, &d) == TL_OK &&
            tl_cpu_create(&c, k, &co, &d) == TL_OK);
    static const char *ins[] = {"X", "Q"}, *outs[] = {"S", "Y", "W", "Z"};
    CHECK(tl_test_cpu_compare(t, x, c, ins, in, 2, outs, 4, label));
    // every copy has the inline row loop (so the comparison covers it)
    const char *src = tl_cpu_source(c);
    REQUIRE(src);
    CHECK_EQ(tl_test_count(src, "for (int64_t r_ = 0; r_ < "), 6);
    CHECK_EQ(tl_test_count(src, " + 16, 0, 16);"), 2); // the padding of xa, qb
    CHECK_EQ(tl_test_count(src, "for (int64_t r_ = b0; r_ < INT64_C(4)"), 2); // their tails
    CHECK_EQ(d.nerrors, 0);
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    for (int i = 0; i < 2; i++) tl_tensor_destroy(in[i]);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}

TEST(cpu_copy_narrow_rows_match_the_reference)
{
    narrow_case(t, 16, 4); // whole tiles
    narrow_case(t, 13, 4); // the last tile has 1 row: 3 rows zeroed
    narrow_case(t, 11, 3); // rows of X and Y clipped to 3 columns: the general path
}
