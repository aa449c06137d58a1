// The sorting ops against plain C references: sort and topk (float32 with an
// in-place -inf pad, float16 through float with RINT indices), merge_sort
// (stable across lists, index bits copied), gather_mask (fixed patterns,
// pattern buffers, whole 256-byte repeats), init_sort_buf and brcb_experiment.
#include "test_tileop.h"

#include "rt/rng.h"

#include <math.h>

// Reference: the positions of v[0..n) in descending order, ties by position
// (selection of the largest remaining, not a merge tree).
static void ref_order(const float *v, int n, int *order)
{
    char used[4096] = {0};
    for (int k = 0; k < n; k++) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (best < 0 || v[i] > v[best])) best = i;
        used[best] = 1;
        order[k] = best;
    }
}

TEST(tileop_sort_float32_pads_in_place)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_SORT);
    float src[128], orig[128], dst[256], want[128];
    for (int i = 0; i < 128; i++) src[i] = orig[i] = (float)((i * 37) % 11) - 5.0f; // many ties
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F32, 256)), OV(UB(src, TL_F32, 128)), OI(100)) == TL_OK);
    for (int i = 0; i < 100; i++) CHECK(src[i] == orig[i]);
    for (int i = 100; i < 128; i++) CHECK(isinf(src[i]) && src[i] < 0);
    int order[128];
    memcpy(want, src, sizeof want);
    ref_order(want, 128, order);
    for (int k = 0; k < 128; k++) {
        CHECK(dst[2 * k] == want[order[k]]);
        CHECK(dst[2 * k + 1] == (float)order[k]);
    }
    // actual_num 0 sorts nothing; more than the source holds is an error.
    float small[32];
    CHECK(RUN(&f, op, OV(UB(dst, TL_F32, 256)), OV(UB(small, TL_F32, 32)), OI(33)) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "runs past its end");
    fx_free(&f);
}

TEST(tileop_topk_float32_prefix_and_bounds)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_TOPK);
    float src[256], dst[48], copy[256];
    tl_rng_t r;
    tl_rng_seed(&r, 7);
    for (int i = 0; i < 256; i++) src[i] = (float)tl_rng_below(&r, 50);
    for (int i = 0; i < 48; i++) dst[i] = 99.0f;
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F32, 48)), OV(UB(src, TL_F32, 256)), OI(20), OI(200)) ==
            TL_OK);
    memcpy(copy, src, sizeof copy);
    for (int i = 200; i < 256; i++) CHECK(isinf(src[i]));
    int order[256];
    ref_order(copy, 256, order);
    for (int k = 0; k < 20; k++) {
        CHECK(dst[2 * k] == copy[order[k]]);
        CHECK(dst[2 * k + 1] == (float)order[k]);
    }
    for (int i = 40; i < 48; i++) CHECK(dst[i] == 99.0f); // 2*K = 40 is already 32-byte aligned
    // 2*K rounded up to 8 floats must fit the destination.
    CHECK(RUN(&f, op, OV(UB(dst, TL_F32, 48)), OV(UB(src, TL_F32, 256)), OI(21), OI(200)) == TL_OK);
    CHECK(RUN(&f, op, OV(UB(dst, TL_F32, 40)), OV(UB(src, TL_F32, 256)), OI(21), OI(200)) ==
          TL_ERR_RUNTIME);
    CHECK(RUN(&f, op, OV(UB(dst, TL_F32, 48)), OV(UB(src, TL_F32, 256)), OI(20), OI(257)) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "span of 'dst'");
    fx_free(&f);
}

TEST(tileop_topk_float16_rounds_indices)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_TOPK);
    static uint16_t src[4096];
    uint16_t dst[16];
    for (int i = 0; i < 4096; i++) src[i] = hf((float)(i % 7));
    src[2049] = hf(100.0f); // the largest, at a position float16 cannot hold
    src[5] = hf(50.0f);
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F16, 16)), OV(UB(src, TL_F16, 4096)), OI(3), OI(4096)) ==
            TL_OK);
    CHECK(hf2f(dst[0]) == 100.0f);
    CHECK(hf2f(dst[1]) == 2048.0f); // 2049 rounds to even
    CHECK(hf2f(dst[2]) == 50.0f);
    CHECK(hf2f(dst[3]) == 5.0f);
    CHECK(hf2f(dst[4]) == 6.0f);
    CHECK(hf2f(dst[5]) == 6.0f);      // the first 6, at position 6
    CHECK(hf2f(src[2049]) == 100.0f); // float16 sources are not padded or changed
    fx_free(&f);
}

// topk's DataCopy of 2*K elements rounded up to 32 bytes: K = 10 float16 writes
// 32 halves, 12 past a [20] buffer, into its 32-byte allocation padding (upstream's
// testing topk, K = 10 into a [2 * K] buffer); only the 20 that are the buffer's
// are stored.
TEST(tileop_topk_rounded_write_ends_in_the_padding)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_TOPK);
    uint16_t src[64], dst[24], wide[32];
    for (int i = 0; i < 64; i++) src[i] = hf((float)((i * 37) % 64));
    for (int i = 0; i < 24; i++) dst[i] = 0xBEEF;
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F16, 20)), OV(UB(src, TL_F16, 64)), OI(10), OI(64)) == TL_OK);
    REQUIRE(RUN(&f, op, OV(UB(wide, TL_F16, 32)), OV(UB(src, TL_F16, 64)), OI(10), OI(64)) ==
            TL_OK);
    for (int i = 0; i < 20; i++) CHECK(dst[i] == wide[i]);
    for (int i = 20; i < 24; i++) CHECK(dst[i] == 0xBEEF);
    CHECK(hf2f(dst[0]) == 63.0f && hf2f(dst[2]) == 62.0f && hf2f(dst[18]) == 54.0f);
    fx_free(&f);
}

TEST(tileop_merge_sort_stable_across_lists)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_MERGE_SORT);
    // Three descending lists of (value, tag) with values shared between lists.
    float l[3][16], out[48 + 4];
    for (int q = 0; q < 3; q++)
        for (int j = 0; j < 8; j++) {
            l[q][2 * j] = (float)(10 - j - (q == 1 ? j % 2 : 0));
            uint32_t tag = 0xA0000000u | (uint32_t)(q << 8 | j);
            memcpy(&l[q][2 * j + 1], &tag, 4);
        }
    for (int i = 0; i < 52; i++) out[i] = -1.0f;
    REQUIRE(RUN(&f, op, OV(UB(out, TL_F32, 52)), OV(UB(l[0], TL_F32, 16)), OV(UB(l[1], TL_F32, 16)),
                OV(UB(l[2], TL_F32, 16))) == TL_OK);
    // Reference: all pairs by value descending, ties by (list, position).
    int taken[3] = {0};
    for (int k = 0; k < 24; k++) {
        int best = -1;
        for (int q = 0; q < 3; q++)
            if (taken[q] < 8 && (best < 0 || l[q][2 * taken[q]] > l[best][2 * taken[best]]))
                best = q;
        CHECK(out[2 * k] == l[best][2 * taken[best]]);
        CHECK(memcmp(&out[2 * k + 1], &l[best][2 * taken[best] + 1], 4) == 0);
        taken[best]++;
    }
    CHECK(out[48] == -1.0f);
    uint16_t h[8];
    CHECK(RUN(&f, op, OV(UB(out, TL_F32, 52)), OV(UB(h, TL_F16, 8)), OV(UB(l[1], TL_F32, 16))) ==
          TL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(fx_err(&f), "float32");
    fx_free(&f);
}

TEST(tileop_gather_mask_patterns)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_GATHER_MASK);
    float src[128], dst[64];
    for (int i = 0; i < 128; i++) src[i] = (float)i;
    static const struct {
        int pattern, mod, rem;
    } cases[] = {{1, 2, 0}, {2, 2, 1}, {3, 4, 0}, {4, 4, 1}, {5, 4, 2}, {6, 4, 3}, {7, 1, 0}};
    for (size_t c = 0; c < TL_ARRAY_LEN(cases); c++) {
        op.pattern = cases[c].pattern;
        memset(dst, 0, sizeof dst);
        // 40 elements of the region: one whole 64-element repeat is read.
        tl_view_t sv = tv_sub(UB(src, TL_F32, 128), DIMS(0), DIMS(40));
        REQUIRE(RUN(&f, op, OV(UB(dst, TL_F32, 64)), OV(sv)) == TL_OK);
        int o = 0;
        for (int i = 0; i < 64; i++)
            if (i % cases[c].mod == cases[c].rem) CHECK(dst[o++] == (float)i);
    }
    // A uint32 pattern buffer: bits LSB first, the same for every repeat.
    uint32_t pat[2] = {0x80000001u, 0x1u}; // elements 0, 31, 32 of each repeat
    op.pattern = 0;
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F32, 64)), OV(UB(src, TL_F32, 128)),
                OV(UB(pat, TL_U32, 2))) == TL_OK);
    float want[] = {0, 31, 32, 64, 95, 96};
    for (int i = 0; i < 6; i++) CHECK(dst[i] == want[i]);
    // A repeat past the end of the buffer, and too little room in dst.
    float s40[40];
    op.pattern = 2;
    CHECK(RUN(&f, op, OV(UB(dst, TL_F32, 64)), OV(UB(s40, TL_F32, 40))) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "runs past its end");
    CHECK(RUN(&f, op, OV(UB(dst, TL_F32, 16)), OV(UB(src, TL_F32, 64))) == TL_ERR_RUNTIME);
    fx_free(&f);
}

TEST(tileop_init_sort_buf_whole_repeats)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_INIT_SORT_BUF);
    uint32_t b[200];
    memset(b, 0, sizeof b);
    REQUIRE(RUN(&f, op, OV(UB(b, TL_U32, 200)), OI(190), OI(0)) == TL_OK);
    for (int i = 0; i < 128; i++) CHECK_EQ(b[i], i % 2 ? 0xFFFFFFFFu : 0xFF800000u);
    for (int i = 128; i < 200; i++) CHECK_EQ(b[i], 0u); // 190 / 64 = 2 whole repeats
    uint16_t h[64];
    CHECK(RUN(&f, op, OV(UB(h, TL_F16, 64)), OI(64), OI(0)) == TL_ERR_UNSUPPORTED);
    fx_free(&f);
}

TEST(tileop_brcb_blocks_and_strides)
{
    fx_t f;
    fx_init(&f);
    tl_op_t op = top(TL_OP_BRCB);
    float src[16], dst[8 * 8 * 3];
    for (int i = 0; i < 16; i++) src[i] = (float)(i + 1);
    // Contiguous blocks (strides 1, 8): element k of src fills dst[8k .. 8k+8).
    memset(dst, 0, sizeof dst);
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F32, 192)), OV(UB(src, TL_F32, 16)), OI(2), OI(1), OI(8)) ==
            TL_OK);
    for (int i = 0; i < 128; i++) CHECK(dst[i] == (float)(i / 8 + 1));
    for (int i = 128; i < 192; i++) CHECK(dst[i] == 0.0f);
    // Block stride 2, repeat stride 1: the second repeat's blocks land between the first's.
    memset(dst, 0, sizeof dst);
    REQUIRE(RUN(&f, op, OV(UB(dst, TL_F32, 192)), OV(UB(src, TL_F32, 16)), OI(2), OI(2), OI(1)) ==
            TL_OK);
    for (int b = 0; b < 16; b++)
        CHECK(dst[8 * b + 3] == (float)(b % 2 ? 8 + b / 2 + 1 : b / 2 + 1));
    // float16: 16 copies per block; too small a destination is an error.
    uint16_t hs[8], hd[128];
    for (int i = 0; i < 8; i++) hs[i] = hf((float)i);
    REQUIRE(RUN(&f, op, OV(UB(hd, TL_F16, 128)), OV(UB(hs, TL_F16, 8)), OI(1), OI(0), OI(8)) ==
            TL_OK);
    for (int i = 0; i < 128; i++) CHECK(hf2f(hd[i]) == (float)(i / 16));
    CHECK(RUN(&f, op, OV(UB(hd, TL_F16, 100)), OV(UB(hs, TL_F16, 8)), OI(1), OI(1), OI(8)) ==
          TL_ERR_RUNTIME);
    CHECK_CONTAINS(fx_err(&f), "runs past its end");
    fx_free(&f);
}
