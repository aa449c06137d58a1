// The cpu backend's tile-op specialisations (src/cpu/cpufast.c) against the
// tile-op library on the same operands, bit for bit: data with NaN, +-0,
// infinities, subnormals and values past the int8 range; in-place and
// out-of-place; explicit counts; every specialised op. Each case also checks
// that the specialisation took the call (so the comparison is not vacuous).
#include "test_tileop.h"

#include <math.h>
#include <stdlib.h>

#include "cpu/cpufast.h"

enum { R = 8, C = 72, NE = R * C };

static float special(int i)
{
    static const float sp[] = {0.0f,   -0.0f,   INFINITY, -INFINITY, NAN,  1e-40f, -3e-39f,
                               300.5f, -127.5f, 126.5f,   65519.0f,  2.5f, -2.5f,  1e30f};
    if (i % 7 == 3) return sp[(i / 7) % (int)(sizeof sp / sizeof sp[0])];
    return (float)((i * 2654435761u) % 20001) / 37.0f - 270.0f;
}

typedef struct {
    float a[NE], b[NE], d1[NE], d2[NE], v[R];
    uint16_t h[NE];
    uint8_t o1[NE * 4], o2[NE * 4];
} bufs_t;

static void init(bufs_t *x)
{
    for (int i = 0; i < NE; i++) {
        x->a[i] = special(i);
        x->b[i] = special(i * 5 + 1);
        x->d1[i] = x->d2[i] = special(i + 9);
        x->h[i] = tl_f32_to_bf16(special(i), TL_CAST_RINT);
    }
    for (int i = 0; i < R; i++) x->v[i] = special(i * 3 + 2) + (i == 0 ? 0 : 0.25f);
    memset(x->o1, 0x5a, sizeof x->o1);
    memset(x->o2, 0x5a, sizeof x->o2);
}

static tl_view_t ub(void *p, tl_dtype_t t, int rows, int cols)
{
    return tv(p, (size_t)(rows * cols * tl_dtype_size(t)), t, TL_SCOPE_UB, "u", 2,
              DIMS(rows, cols));
}

// NaN results compare equal whatever their sign and payload: which NaN operand
// an addition returns depends on how the compiler ordered the operands.
static void canon_nans(void *p, size_t bytes)
{
    float *f = p;
    for (size_t i = 0; i < bytes / 4; i++)
        if (f[i] != f[i]) f[i] = NAN;
}

// Runs op on (dst1, srcs) with the specialisation and on (dst2, srcs) with the
// library; args[0] is the destination and gets the two buffers.
static void same(tl_test_t *t, tl_op_t *op, int n, tl_operand_t *args, void *dst1, void *dst2,
                 size_t bytes, const char *what)
{
    fx_t f;
    fx_init(&f);
    bool inplace = args[1].view.data == dst1; // then the source is the destination in both runs
    args[0].view.data = dst1;
    tl_opcall_t c1 = tcall(op, n, args);
    bool took = tl_cpufast_run(&f.ctx, &c1);
    args[0].view.data = dst2;
    if (inplace) args[1].view.data = dst2;
    tl_opcall_t c2 = tcall(op, n, args);
    tl_status_t st = tl_tileop_run(&f.ctx, &c2);
    if (args[0].view.dtype == TL_F32) canon_nans(dst1, bytes), canon_nans(dst2, bytes);
    if (!took || st != TL_OK || memcmp(dst1, dst2, bytes) != 0)
        tl_test_fail(t, __FILE__, __LINE__, "%s: took=%d status=%d same=%d %s", what, took, (int)st,
                     memcmp(dst1, dst2, bytes) == 0, fx_err(&f));
    fx_free(&f);
}

TEST(cpu_fast_binary_and_unary_ops_match_the_library)
{
    if (!tl_cpufast_available()) {
        tl_test_skip(t, "this CPU lacks AVX-512 (F, BW, DQ, VL): the specialisations are off");
        return;
    }
    static const tl_opcode_t bin[] = {TL_OP_ADD, TL_OP_SUB, TL_OP_MUL,
                                      TL_OP_DIV, TL_OP_MAX, TL_OP_MIN};
    static const tl_opcode_t un[] = {TL_OP_ABS,        TL_OP_RELU, TL_OP_ROUND,   TL_OP_SQRT,
                                     TL_OP_RECIPROCAL, TL_OP_EXP,  TL_OP_SIGMOID, TL_OP_SILU};
    bufs_t *x = malloc(sizeof *x);
    for (size_t i = 0; i < TL_ARRAY_LEN(bin); i++)
        for (int form = 0; form < 3; form++) { // tensor, scalar, in place
            init(x);
            tl_op_t op = top(bin[i]);
            tl_operand_t args[3] = {OV(ub(x->d1, TL_F32, R, C)), OV(ub(x->a, TL_F32, R, C)),
                                    form == 1 ? OF(-3.7) : OV(ub(x->b, TL_F32, R, C))};
            if (form == 2) {
                memcpy(x->d1, x->a, sizeof x->a);
                memcpy(x->d2, x->a, sizeof x->a);
                args[1] = OV(ub(x->d1, TL_F32, R, C)); // reads the destination
            }
            same(t, &op, 3, args, x->d1, x->d2, sizeof x->d1, tl_op_info(bin[i])->name);
        }
    for (size_t i = 0; i < TL_ARRAY_LEN(un); i++) {
        init(x);
        tl_op_t op = top(un[i]);
        tl_operand_t args[3] = {OV(ub(x->d1, TL_F32, R, C)), OV(ub(x->a, TL_F32, R, C)), OI(100)};
        same(t, &op, 3, args, x->d1, x->d2, sizeof x->d1, tl_op_info(un[i])->name);
    }
    init(x);
    tl_op_t op = top(TL_OP_CLAMP);
    tl_operand_t args[5] = {OV(ub(x->d1, TL_F32, R, C)), OV(ub(x->a, TL_F32, R, C)), OF(-127),
                            OF(127), OI(NE)};
    same(t, &op, 5, args, x->d1, x->d2, sizeof x->d1, "clamp");
    free(x);
}

TEST(cpu_fast_casts_match_the_library)
{
    if (!tl_cpufast_available()) {
        tl_test_skip(t, "this CPU lacks AVX-512 (F, BW, DQ, VL): the specialisations are off");
        return;
    }
    static const struct {
        tl_dtype_t dt, st;
    } pairs[] = {{TL_F32, TL_I32},  {TL_I16, TL_F32}, {TL_I32, TL_F32},  {TL_I8, TL_F16},
                 {TL_F32, TL_BF16}, {TL_F32, TL_F16}, {TL_BF16, TL_F32}, {TL_F16, TL_F32},
                 {TL_I16, TL_F16},  {TL_I32, TL_F16}};
    bufs_t *x = malloc(sizeof *x);
    for (size_t i = 0; i < TL_ARRAY_LEN(pairs); i++)
        for (int mode = 0; mode < 2; mode++) {
            init(x);
            uint8_t src[NE * 4];
            tl_dtype_t st = pairs[i].st, dt = pairs[i].dt;
            tl_round_t m = mode ? TL_CAST_NONE : TL_CAST_RINT;
            if (!tl_cast_on_ascend(dt, st, m, NULL))
                continue; // the library's error (test_tileop_unary)
            for (int k = 0; k < NE; k++) {
                float v = special(k);
                if (st == TL_I32) ((int32_t *)src)[k] = (int32_t)(k * 2654435761u) >> (k % 9);
                if (st == TL_F32) ((float *)src)[k] = v;
                if (st == TL_F16) ((uint16_t *)src)[k] = tl_f32_to_f16(v, TL_CAST_RINT);
                if (st == TL_BF16) ((uint16_t *)src)[k] = tl_f32_to_bf16(v, TL_CAST_RINT);
            }
            tl_op_t op = top(TL_OP_CAST);
            op.round = m;
            tl_operand_t args[3] = {OV(ub(x->o1, dt, R, C)), OV(ub(src, st, R, C)), OI(NE - 5)};
            char what[64];
            snprintf(what, sizeof what, "cast %s -> %s", tl_dtype_name(st), tl_dtype_name(dt));
            same(t, &op, 3, args, x->o1, x->o2, sizeof x->o1, what);
        }
    free(x);
}

TEST(cpu_fast_row_expand_and_reductions_match_the_library)
{
    if (!tl_cpufast_available()) {
        tl_test_skip(t, "this CPU lacks AVX-512 (F, BW, DQ, VL): the specialisations are off");
        return;
    }
    static const tl_opcode_t rx[] = {TL_OP_ROW_EXPAND_MUL, TL_OP_ROW_EXPAND_SUB,
                                     TL_OP_ROW_EXPAND_DIV};
    bufs_t *x = malloc(sizeof *x);
    for (size_t i = 0; i < TL_ARRAY_LEN(rx); i++) {
        init(x);
        tl_op_t op = top(rx[i]);
        tl_operand_t args[3] = {OV(ub(x->d1, TL_F32, R, C)), OV(ub(x->a, TL_F32, R, C)),
                                OV(tv(x->v, sizeof x->v, TL_F32, TL_SCOPE_UB, "v", 1, DIMS(R)))};
        same(t, &op, 3, args, x->d1, x->d2, sizeof x->d1, tl_op_info(rx[i])->name);
    }
    static const tl_opcode_t red[] = {TL_OP_REDUCE_SUM, TL_OP_REDUCE_MAX, TL_OP_REDUCE_MIN};
    for (size_t i = 0; i < TL_ARRAY_LEN(red); i++)
        for (int data = 0; data < 3; data++) {
            init(x);
            if (data == 1) // rows of signed zeros and rows without NaN: the order-dependent cases
                for (int k = 0; k < NE; k++)
                    x->a[k] = k / C % 2 ? (k % 3 ? 0.0f : -0.0f) : (float)(k % 11) - 20.0f;
            if (data == 2) // finite values of mixed magnitudes: float sums would round
                for (int k = 0; k < NE; k++)
                    x->a[k] =
                        ((float)((k * 40503u) % 1000) - 500.0f) * (k % 5 ? 1.0f : 1e4f) / 7.0f;
            tl_op_t op = top(red[i]);
            op.dim = -1;
            op.clear = true;
            if (data == 2) op.real_shape[0] = R - 2, op.real_shape[1] = C - 5; // valid corner
            float o1[R], o2[R];
            memset(o1, 0, sizeof o1);
            memset(o2, 0, sizeof o2);
            tl_operand_t args[2] = {OV(ub(o1, TL_F32, 1, R)), OV(ub(x->a, TL_F32, R, C))};
            // reductions take (src, out): swap so that the destination is args[0]
            tl_operand_t rargs[2] = {args[1], args[0]};
            fx_t f;
            fx_init(&f);
            tl_opcall_t c1 = tcall(&op, 2, rargs);
            bool took = tl_cpufast_run(&f.ctx, &c1);
            rargs[1].view.data = (uint8_t *)o2;
            tl_opcall_t c2 = tcall(&op, 2, rargs);
            CHECK(tl_tileop_run(&f.ctx, &c2) == TL_OK);
            CHECK(took);
            canon_nans(o1, sizeof o1);
            canon_nans(o2, sizeof o2);
            CHECK(memcmp(o1, o2, sizeof o1) == 0);
            fx_free(&f);
        }
    free(x);
}

// UB -> GM copies into a tensor of 8 MiB or more go through streaming stores
// (tileop_copy.c): rows at unaligned offsets, shorter and longer than a cache
// line, land exactly where memmove would put them and nothing else changes.
TEST(cpu_copy_into_a_large_tensor_streams_the_same_bytes)
{
    fx_t f;
    fx_init(&f);
    enum { GR = 2048, GC = 4099, UR = 3, UC = 224 };
    int8_t *g = malloc((size_t)GR * GC), *want = malloc((size_t)GR * GC);
    int8_t u[UR * UC];
    REQUIRE(g && want);
    for (size_t i = 0; i < (size_t)GR * GC; i++) g[i] = want[i] = (int8_t)(i * 31 + 7);
    for (int i = 0; i < UR * UC; i++) u[i] = (int8_t)(i * 17 - 3);
    tl_op_t op = top(TL_OP_COPY);
    static const int64_t at[][3] = {{5, 1, 200}, {700, 3001, 63}, {GR - 3, GC - 65, 65}, {9, 0, 1}};
    for (int c = 0; c < 4; c++) {
        // the UB tile's rows are whole 32-byte blocks (the device reads the box's
        // rows from UB at that pitch)
        int64_t r0 = at[c][0], c0 = at[c][1], n = at[c][2], w = (n + 31) / 32 * 32;
        tl_view_t gv = tv(g, (size_t)GR * GC, TL_I8, TL_SCOPE_GM, "g", 2, DIMS(GR, GC));
        tl_view_t uv = tv_sub(UB(u, TL_I8, UR, w), DIMS(0, 0), DIMS(UR, n));
        REQUIRE(RUN(&f, op, OV(uv), OV(tv_sub(gv, DIMS(r0, c0), DIMS(UR, n)))) == TL_OK);
        for (int r = 0; r < UR; r++) memcpy(want + (r0 + r) * GC + c0, u + r * w, (size_t)n);
    }
    CHECK(!memcmp(g, want, (size_t)GR * GC));
    free(g);
    free(want);
    fx_free(&f);
}

// GM -> UB and UB -> GM tile copies of short contiguous rows (the moves of
// 4 to 64 bytes a row that tileop_copy.c does without a call, and others):
// the box lands where element-by-element copying puts it, pad included.
TEST(cpu_copy_short_rows_move_the_box)
{
    fx_t f;
    fx_init(&f);
    enum { GR = 9, GC = 40 };
    float g[GR * GC], u[6 * 16], back[GR * GC];
    for (int i = 0; i < GR * GC; i++) g[i] = (float)i;
    tl_op_t op = top(TL_OP_COPY);
    static const int cols[] = {1, 2, 3, 4, 8, 16, 5};
    for (int c = 0; c < 7; c++) {
        int n = cols[c], r0 = 2 + c % 3, c0 = 3 * c;
        for (int i = 0; i < 6 * 16; i++) u[i] = -1.0f;
        tl_view_t gv = GM(g, TL_F32, GR, GC);
        REQUIRE(RUN(&f, op, OV(tv_sub(gv, DIMS(r0, c0), DIMS(5, n))),
                    OV(tv_sub(UB(u, TL_F32, 6, 16), DIMS(1, 0), DIMS(5, 16)))) == TL_OK);
        int bad = 0;
        for (int r = 0; r < 6; r++)
            for (int j = 0; j < 16; j++) {
                float want = r == 0 ? -1.0f : j < n ? g[(r0 + r - 1) * GC + c0 + j] : 0.0f;
                bad += u[r * 16 + j] != want;
            }
        CHECK_EQ(bad, 0);
        // back out from a tile whose rows are n columns rounded up to whole
        // 32-byte blocks (the pitch at which the device reads the box's rows)
        float u2[5 * 16];
        int w = (n + 7) / 8 * 8;
        for (int r = 0; r < 5; r++) memcpy(u2 + r * w, u + (r + 1) * 16, sizeof(float) * (size_t)n);
        memcpy(back, g, sizeof back);
        REQUIRE(RUN(&f, op, OV(tv_sub(UB(u2, TL_F32, 5, w), DIMS(0, 0), DIMS(5, n))),
                    OV(tv_sub(GM(back, TL_F32, GR, GC), DIMS(r0 + 1, c0 + 1), DIMS(5, n)))) ==
                TL_OK);
        bad = 0;
        for (int r = 0; r < GR; r++)
            for (int j = 0; j < GC; j++) {
                bool in = r > r0 && r <= r0 + 5 && j > c0 && j <= c0 + n;
                float want = in ? g[(r0 + r - r0 - 1) * GC + c0 + j - c0 - 1] : g[r * GC + j];
                bad += back[r * GC + j] != want;
            }
        CHECK_EQ(bad, 0);
    }
    fx_free(&f);
}
