// Issue 19's copy-shape matrix: every pair of a GM region and a UB region
// below, copied both ways (GM -> UB, then the whole UB buffer written out; UB
// -> GM into a patterned tensor), is either right or a located error. Right:
// the reference executor, the simulator and the CPU target give the same
// bytes, with no race. An error: every backend stops, and the message carries
// file:line:col of the T.copy with its source line and a caret. The rule they
// share is ir/copy_plan.h (docs/language.md, "Copy shapes"); a few pairs have
// hand-checked values (the LSE store of the sparse MLA kernels: a UB [M, 1]
// column into a GM row [M] moves all M elements). With $PTO_ISA_DIR (make
// check-pto) every pair also runs on --target pto: the same bytes as the
// reference, or the same located error.
#include "../test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/backend.h"
#include "driver/compile.h"
#include "rt/tensor.h"

// GM tensors: A [8, 40], V [40], X [2, 3, 40], C [8, 9] (rows of 36 B, one
// after another), Y [4, 2, 8] (float32).
static const char *const gm_regions[] = {
    "A[0:8, 0:40]",     // the whole tensor
    "A[1:5, 8:24]",     // a box inside it
    "A[1:5, 3:19]",     // a box at an unaligned column
    "A[6:10, 32:48]",   // clipped at both edges
    "A[0:8, 5:6]",      // a column [8, 1]
    "A[2, 0:16]",       // a row
    "A[3, 8:16]",       // a row of 8 (the LSE's GM side: LSE[tok, r0 : r0 + M])
    "V[0:8]",           // a 1-D row (the LSE's GM side)
    "V[36:44]",         // a 1-D row clipped at the end
    "X[0:2, 1, 0:16]",  // rows of a 3-D tensor (a unit middle dimension)
    "X[0:2, 0:2, 0:8]", // a 3-D box whose rows do not fold (dimension 1 is not whole)
    "A[1, 2]",          // a start point: the UB region's extents, right-aligned
    "C[0:8, 0:9]",      // compact rows (one burst into a compact tile)
    "C[6:10, 0:9]",     // compact rows clipped at the tensor's edge
    "C[0:8, 0:4]",      // rows of 16 B, 36 B apart
    "Y[0:4, 0:2, 0:8]", // a 3-D box whose rows fold: 8 rows of 8
    "Y[2:6, 0:2, 0:4]", // folded rows, the outermost dimension clipped, 4 columns
};

// UB buffers and the region of each the copy names.
static const struct {
    const char *shape, *region;
} ub_regions[] = {
    {"[8, 40]", "u"},            // the whole tile
    {"[8, 1]", "u"},             // a column tile (the LSE's UB side)
    {"[8]", "u"},                // a 1-D tile
    {"[4, 16]", "u"},            // a smaller tile
    {"[8, 48]", "u[:, 0:40]"},   // a column slice of a wider tile
    {"[4, 16]", "u[2, 0:16]"},   // one row of a tile
    {"[16, 16]", "u[0:8, 0:8]"}, // a corner
    {"[2, 16]", "u"},            // two rows
    {"[8, 9]", "u"},             // compact rows of 36 B
    {"[4, 2, 8]", "u"},          // a 3-D tile
    {"[8, 16]", "u[:, 0:8]"},    // a column slice of a 32-byte-row tile
    {"[8, 16]", "u[2:6, 8:16]"}, // a block inside it
};

enum { NGM = sizeof gm_regions / sizeof *gm_regions, NUB = sizeof ub_regions / sizeof *ub_regions };

static int64_t numel_of(const char *shape)
{
    int64_t n = 1;
    for (const char *p = shape; *p; p++)
        if (*p >= '0' && *p <= '9') n *= strtoll(p, (char **)&p, 10), p--;
    return n;
}

// The kernel of pair (g, u), direction `in` (GM -> UB) or out (UB -> GM): the
// UB tile starts as F's first elements and ends up in D.
static void kernel_source(char *s, size_t cap, int g, int u, bool in)
{
    const char *gr = gm_regions[g], *ur = ub_regions[u].region;
    int64_t n = numel_of(ub_regions[u].shape);
    snprintf(s, cap,
             "import tilelang\n"
             "import tilelang.language as T\n"
             "\n"
             "@tilelang.jit(out_idx=[6], pass_configs={'tl.ascend_auto_sync': True})\n"
             "def pair():\n"
             "    @T.prim_func\n"
             "    def main(A: T.Tensor((8, 40), 'float32'), V: T.Tensor((40,), 'float32'),\n"
             "             X: T.Tensor((2, 3, 40), 'float32'), C: T.Tensor((8, 9), 'float32'),\n"
             "             Y: T.Tensor((4, 2, 8), 'float32'), F: T.Tensor((1024,), 'float32'),\n"
             "             D: T.Tensor((1024,), 'float32')):\n"
             "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
             "            u = T.alloc_ub(%s, 'float32')\n"
             "            with T.Scope('V'):\n"
             "                if vid == 0:\n"
             "                    T.copy(F[0:%" PRId64 "], u)\n"
             "                    T.copy(%s, %s)\n" // line 16
             "                    T.copy(u, D[0:%" PRId64 "])\n"
             "\n"
             "    return main\n",
             ub_regions[u].shape, n, in ? gr : ur, in ? ur : gr, n);
}

enum { COPY_LINE = 16 };

// What one backend did with a kernel: an error (its text), or the bytes of
// A, V, X, C, Y and D after the run.
typedef struct {
    bool ok;
    char text[600];
    tl_buf_t bytes;
} outcome_t;

static tl_tensor_t *patterned(int nd, const int64_t *shape, double base, double step)
{
    tl_tensor_t *x;
    if (tl_tensor_create(&x, TL_F32, nd, shape, NULL)) return NULL;
    for (size_t i = 0; i < tl_tensor_numel(x); i++)
        tl_tensor_set_flat(x, i, base + step * (double)i);
    return x;
}

static void run_on(const tl_backend_t *be, const char *src, outcome_t *o)
{
    tl_arena_t arena;
    tl_diag_t d;
    tl_arena_init(&arena);
    tl_diag_init(&d);
    memset(o, 0, sizeof *o);
    tl_compile_opts_t co = {.path = "pair.py", .source = src, .pipeline = be->pipeline};
    tl_kernel_t *k = NULL;
    tl_bind_t *b = NULL;
    void *self = NULL;
    static const int64_t sa[] = {8, 40}, sv[] = {40}, sx[] = {2, 3, 40}, sc[] = {8, 9},
                         sy[] = {4, 2, 8}, sf[] = {1024};
    enum { NT = 6 };
    tl_tensor_t *t[NT] = {patterned(2, sa, 0.5, 1),       patterned(1, sv, 1000, 1),
                          patterned(1 + 2, sx, 2000, 1),  patterned(2, sc, 3000, 1),
                          patterned(1 + 2, sy, 4000, 1), patterned(1, sf, -1, -1)};
    static const char *const names[] = {"A", "V", "X", "C", "Y", "F"};
    tl_backend_opts_t bo = {0};
    bo.cpu.jit.cflags = "-O0";
    tl_status_t st = tl_compile(&arena, &co, &d, &k);
    if (st == TL_OK) st = tl_bind_create(&b, k, &d);
    for (int i = 0; i < NT && st == TL_OK; i++) st = tl_bind_set_tensor(b, names[i], t[i]);
    if (st == TL_OK) st = tl_bind_check(b);
    if (st == TL_OK) st = be->create(&self, k, &bo, &d);
    if (st == TL_OK) st = be->run(self, b);
    o->ok = st == TL_OK;
    snprintf(o->text, sizeof o->text, "%s", tl_diag_text(&d));
    if (o->ok) {
        for (int i = 0; i < NT - 1; i++)
            tl_buf_putn(&o->bytes, (const char *)t[i]->data, tl_tensor_numel(t[i]) * 4);
        tl_tensor_t *dd = tl_bind_tensor(b, "D");
        if (dd) tl_buf_putn(&o->bytes, (const char *)dd->data, tl_tensor_numel(dd) * 4);
    }
    if (self) be->destroy(self);
    tl_bind_destroy(b);
    for (int i = 0; i < NT; i++) tl_tensor_destroy(t[i]);
    tl_diag_free(&d);
    tl_arena_free(&arena);
}

// The float at element i of A (0), V (1), X (2), D (3), C (4) or Y (5) in an
// outcome's bytes.
static float value_at(const outcome_t *o, int which, int64_t i)
{
    static const int64_t off[] = {0, 320, 360, 736, 600, 672};
    float f;
    memcpy(&f, o->bytes.data + (off[which] + i) * 4, 4);
    return f;
}

typedef struct {
    int g, u;
    bool in, pto; // pto: the pair on --target pto against the reference
} pair_t;

// The pairs the reference runs that the pto target does not lower yet (each
// refused with a located "not lowered to PTO yet"): loads into a column block
// of a UB tile, 3- and 4-dimensional GM boxes (upstream's folded leading
// dimensions), and rows under 32 bytes (PTO tiles need 32-byte rows). A listed
// pair that starts to run on pto fails the test until it is taken off the list.
static const char pto_gaps[] = " ";

static bool pto_gap(const pair_t *p)
{
    char key[32];
    snprintf(key, sizeof key, " %s_g%d_u%d ", p->in ? "in" : "out", p->g, p->u);
    return strstr(pto_gaps, key) != NULL;
}

static void pair_test(tl_test_t *t, void *arg)
{
    const pair_t *p = arg;
    char src[2048];
    kernel_source(src, sizeof src, p->g, p->u, p->in);
    static const char *const backends[] = {"ref", "sim", "cpu"}, *const with_pto[] = {"ref", "pto"};
    const char *const *be_names = p->pto ? with_pto : backends;
    int nbe = p->pto ? 2 : 3;
    outcome_t o[3];
    for (int i = 0; i < nbe; i++) {
        const tl_backend_t *be = tl_backend_find(be_names[i]);
        REQUIRE(be);
        if (i > 0) setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 0);
        run_on(be, src, &o[i]);
    }
    FILE *table =
        getenv("TILEC_COPY_MATRIX") && !p->pto ? fopen(getenv("TILEC_COPY_MATRIX"), "a") : NULL;
    if (table) { // the table of docs/language.md
        const char *e = strstr(o[0].text, "error: ");
        fprintf(table, "| `%s` | `%s` of `%s` | %s | %.*s |\n",
                p->in ? gm_regions[p->g] : ub_regions[p->u].region,
                p->in ? ub_regions[p->u].region : gm_regions[p->g], ub_regions[p->u].shape,
                p->in ? "GM -> UB" : "UB -> GM", e ? (int)strcspn(e + 7, "\n") : 2,
                e ? e + 7 : "ok");
        fclose(table);
    }
    if (p->pto && pto_gap(p)) {
        if (o[1].ok || !o[0].ok || !strstr(o[1].text, "not lowered to PTO yet"))
            tl_test_fail(t, __FILE__, __LINE__,
                         "listed as a pto gap, but ref %s and pto %s (update pto_gaps):\n%s",
                         o[0].ok ? "ran" : "failed", o[1].ok ? "ran" : "failed", o[1].text);
        else
            tl_test_skip(t, "not lowered to PTO yet (a known gap: pto_gaps)");
        for (int i = 0; i < nbe; i++) tl_buf_free(&o[i].bytes);
        return;
    }
    char where[32];
    snprintf(where, sizeof where, "pair.py:%d:", COPY_LINE);
    for (int i = 1; i < nbe; i++) {
        if (o[i].ok != o[0].ok)
            tl_test_fail(t, __FILE__, __LINE__, "%s %s but ref %s:\n%s\n%s", be_names[i],
                         o[i].ok ? "ran" : "failed", o[0].ok ? "ran" : "failed", o[i].text,
                         o[0].text);
        else if (o[0].ok && (o[i].bytes.len != o[0].bytes.len ||
                             memcmp(o[i].bytes.data, o[0].bytes.data, o[0].bytes.len)))
            tl_test_fail(t, __FILE__, __LINE__, "%s and ref differ", be_names[i]);
    }
    for (int i = 0; i < nbe; i++) {
        if (o[i].ok) continue;
        CHECK_CONTAINS(o[i].text, where);
        CHECK_CONTAINS(o[i].text, "T.copy");
        CHECK_CONTAINS(o[i].text, "^");
    }
    for (int i = 0; i < nbe; i++) tl_buf_free(&o[i].bytes);
}

TEST_GENERATOR(copy_matrix)
{
    static pair_t pairs[NGM * NUB * 2 * 2];
    const char *isa = getenv("PTO_ISA_DIR");
    int n = 0;
    for (int pto = 0; pto <= (isa && *isa); pto++)
        for (int g = 0; g < NGM; g++)
            for (int u = 0; u < NUB; u++)
                for (int in = 1; in >= 0; in--) {
                    pairs[n] = (pair_t){g, u, in, pto};
                    char name[64];
                    snprintf(name, sizeof name, "copy_matrix:%s_g%d_u%d%s", in ? "in" : "out", g, u,
                             pto ? "@pto" : "");
                    tl_test_add(name, pair_test, &pairs[n++]);
                }
}

// Hand-checked pairs, on the reference executor (the matrix shows the other
// backends agree).
static void ref_pair(tl_test_t *t, int g, int u, bool in, outcome_t *o)
{
    char src[2048];
    kernel_source(src, sizeof src, g, u, in);
    run_on(tl_backend_find("ref"), src, o);
    if (!o->ok) tl_test_fail(t, __FILE__, __LINE__, "%s", o->text);
}

TEST(copy_matrix_lse_column_moves_every_element)
{
    outcome_t o;
    // UB [8, 1] -> A[3, 8:16] (the sparse MLA kernels' T.copy(lse_ub, LSE[tok, r0 : r0 +
    // M_CHUNK])): the 8 elements of the column (F's -1 .. -8), not one
    ref_pair(t, 6, 1, false, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 320; i++) {
        bool in = i >= 3 * 40 + 8 && i < 3 * 40 + 16;
        CHECK(value_at(&o, 0, i) == (in ? -1.0f - (float)(i - 128) : (float)i + 0.5f));
    }
    tl_buf_free(&o.bytes);
    // the same into a 1-D V[0:8], and back from V[0:8] into the column
    ref_pair(t, 7, 1, false, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 40; i++)
        CHECK(value_at(&o, 1, i) == (i < 8 ? -1.0f - (float)i : 1000.0f + (float)i));
    tl_buf_free(&o.bytes);
    ref_pair(t, 7, 1, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 8; i++) CHECK(value_at(&o, 3, i) == 1000.0f + (float)i);
    tl_buf_free(&o.bytes);
}

TEST(copy_matrix_hand_checked_boxes)
{
    outcome_t o;
    // A[1:5, 3:19] into a [4, 16] tile: row r is A[1 + r, 3 .. 18]
    ref_pair(t, 2, 3, true, &o);
    REQUIRE(o.ok);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 16; c++)
            CHECK(value_at(&o, 3, r * 16 + c) == (float)((1 + r) * 40 + 3 + c) + 0.5f);
    tl_buf_free(&o.bytes);
    // V[36:44] clipped to 4 elements into a [8] tile: the rest is the pad value 0
    ref_pair(t, 8, 2, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 8; i++) CHECK(value_at(&o, 3, i) == (i < 4 ? 1036.0f + (float)i : 0.0f));
    tl_buf_free(&o.bytes);
    // a [4, 16] tile into A[6:10, 32:48]: rows 6 and 7, columns 32 .. 39 only
    ref_pair(t, 3, 3, false, &o);
    REQUIRE(o.ok);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 40; c++) {
            bool in = r >= 6 && c >= 32;
            float want = in ? -1.0f - (float)((r - 6) * 16 + c - 32) : (float)(r * 40 + c) + 0.5f;
            CHECK(value_at(&o, 0, r * 40 + c) == want);
        }
    tl_buf_free(&o.bytes);
}

// The shapes of upstream's newer lowering (tilelang-ascend #1231, #1537):
// compact rows as one burst, folded leading dimensions, the UB buffer's row
// pitch for a column slice (and the pad fill of its whole rows).
TEST(copy_matrix_compact_and_folded)
{
    outcome_t o;
    // C[0:8, 0:9] into a compact [8, 9] tile: one burst, D = C
    ref_pair(t, 12, 8, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 72; i++) CHECK(value_at(&o, 3, i) == 3000.0f + (float)i);
    tl_buf_free(&o.bytes);
    // C[6:10, 0:9]: 2 rows left; the tile is first set to the pad value (0), the burst
    // of 18 elements is completed to 32 bytes with its first element (C[6, 0])
    ref_pair(t, 13, 8, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 72; i++)
        CHECK(value_at(&o, 3, i) == (i < 18 ? 3054.0f + (float)i : i < 24 ? 3054.0f : 0.0f));
    tl_buf_free(&o.bytes);
    // ... and back: the compact tile (F's -1 .. -72) into C[6:10, 0:9] moves 18 elements
    ref_pair(t, 13, 8, false, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 72; i++)
        CHECK(value_at(&o, 4, i) == (i < 54 ? 3000.0f + (float)i : -1.0f - (float)(i - 54)));
    tl_buf_free(&o.bytes);
    // Y[0:4, 0:2, 0:8] into a [4, 2, 8] tile: 8 folded rows, D = Y
    ref_pair(t, 15, 9, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 64; i++) CHECK(value_at(&o, 3, i) == 4000.0f + (float)i);
    tl_buf_free(&o.bytes);
    // Y[2:6, 0:2, 0:4]: the outermost dimension clipped to 2, so 4 rows of 4 at the
    // tile's pitch 8; the rest the pad value
    ref_pair(t, 16, 9, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 64; i++)
        CHECK(value_at(&o, 3, i) == (i < 32 && i % 8 < 4 ? 4032.0f + (float)i : 0.0f));
    tl_buf_free(&o.bytes);
    // V[0:8] into u[2:6, 8:16] of an [8, 16] tile (F's -1 .. -128): the pad fill is
    // 4 rows of the buffer's 16 from the region's start (elements 40 .. 103)
    ref_pair(t, 7, 11, true, &o);
    REQUIRE(o.ok);
    for (int i = 0; i < 128; i++) {
        float want = i >= 40 && i < 48 ? 1000.0f + (float)(i - 40) : i >= 40 && i < 104 ? 0.0f
                                                                                      : -1.0f - (float)i;
        CHECK(value_at(&o, 3, i) == want);
    }
    tl_buf_free(&o.bytes);
    // rows of 16 B 36 B apart into the compact tile: upstream's compile-time error
    outcome_t e;
    char src[2048];
    kernel_source(src, sizeof src, 14, 8, true);
    run_on(tl_backend_find("ref"), src, &e);
    CHECK(!e.ok);
    CHECK_CONTAINS(e.text, "Unsupported strided sub-32B copy: copies of several rows with a "
                           "non-32-byte-aligned UB row pitch require compact full rows");
    tl_buf_free(&e.bytes);
}
