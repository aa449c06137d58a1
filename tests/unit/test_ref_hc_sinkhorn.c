// Golden hc_split_sinkhorn (src/ref/hc_sinkhorn.c): hand-computed small cases
// with a large eps (so its placement shows) and the doubly-stochastic properties
// of dsv4_ops.md §3.
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "rt/rng.h"

TEST(ref_hc_sinkhorn_hc1_by_hand)
{
    // z = mixes * scale + base = {1*0.5+0.5, 2*0.25-0.5, 3*2+1} = {1, 0, 7}
    // pre = sigmoid(1) + 0.125 = 0.7310585786 + 0.125;  post = 3 * sigmoid(0) = 1.5
    // comb (eps = 1/4): softmax of one value = 1, +eps = 5/4; column: (5/4)/(5/4+1/4) = 5/6
    //   iters 2: row (5/6)/(5/6+1/4) = 10/13; column (10/13)/(10/13+1/4) = 40/53
    //   iters 3: row 160/213; column 640/853
    float mixes[] = {1, 2, 3}, scale[] = {0.5f, 0.25f, 2}, base[] = {0.5f, -0.5f, 1};
    tl_hc_sinkhorn_params_t p = {
        .n = 1, .hc = 1, .iters = 1, .eps = 0.25f, .pre_eps = 0.125f, .post_mult = 3};
    double expect[] = {5.0 / 6, 40.0 / 53, 640.0 / 853};
    for (int it = 1; it <= 3; it++) {
        float pre, post, comb;
        p.iters = it;
        REQUIRE(tl_hc_sinkhorn_ref(&p, mixes, scale, base, &pre, &post, &comb, NULL) == TL_OK);
        CHECK_NEAR(pre, 0.8560585786, 1e-7);
        CHECK_NEAR(post, 1.5, 1e-7);
        CHECK_NEAR(comb, expect[it - 1], 1e-7);
    }
}

TEST(ref_hc_sinkhorn_hc2_by_hand)
{
    // hc = 2: t < 2 use scale[0] (pre), 2 <= t < 4 scale[1] (post), t >= 4 scale[2].
    //   z = {2*0.5, -2*0.5, 4*0.25, 0*0.25 | 0.5*2, ((1+ln3)/2)*2, 0, 0}
    //     = {1, -1, 1, 0 | 1, 1+ln3, 0, 0}
    //   pre = {sigmoid(1), sigmoid(-1)} = {0.7310585786, 0.2689414214} (pre_eps 0)
    //   post = 2 * {sigmoid(1), sigmoid(0)} = {1.4621171573, 1}
    // comb, eps = 1/4: softmax rows (shift-free) {1/4, 3/4}, {1/2, 1/2}; +eps -> {1/2, 1}, {3/4,
    // 3/4}
    //   columns: sums + eps = 3/2 and 2 -> [[1/3, 1/2], [1/2, 3/8]]
    //   iters 2: rows / (sum + eps): [[4/13, 6/13], [4/9, 1/3]];
    //            columns / (sum + eps): [[144/469, 72/163], [208/469, 52/163]]
    float mixes[] = {2, -2, 4, 0, 0.5f, 1.04930614f, 0, 0};
    float scale[] = {0.5f, 0.25f, 2}, base[8] = {0};
    tl_hc_sinkhorn_params_t p = {.n = 1, .hc = 2, .iters = 1, .eps = 0.25f, .post_mult = 2};
    float pre[2], post[2], comb[4];
    REQUIRE(tl_hc_sinkhorn_ref(&p, mixes, scale, base, pre, post, comb, NULL) == TL_OK);
    CHECK_NEAR(pre[0], 0.7310585786, 1e-7);
    CHECK_NEAR(pre[1], 0.2689414214, 1e-7);
    CHECK_NEAR(post[0], 1.4621171573, 1e-7);
    CHECK_NEAR(post[1], 1.0, 1e-7);
    double it1[] = {1.0 / 3, 0.5, 0.5, 0.375};
    for (int i = 0; i < 4; i++) CHECK_NEAR(comb[i], it1[i], 1e-7);
    p.iters = 2;
    REQUIRE(tl_hc_sinkhorn_ref(&p, mixes, scale, base, pre, post, comb, NULL) == TL_OK);
    double it2[] = {144.0 / 469, 72.0 / 163, 208.0 / 469, 52.0 / 163};
    for (int i = 0; i < 4; i++) CHECK_NEAR(comb[i], it2[i], 1e-7);
}

// N tokens of V4-shaped input (hc = 4, 24 mixes): mixes ~ N(0, sd), scale and
// base ~ U[0, 1) like the upstream test.
static void random_inputs(tl_rng_t *r, int64_t n, double sd, float *mixes, float *scale,
                          float *base)
{
    for (int64_t i = 0; i < n * 24; i++) mixes[i] = (float)(sd * tl_rng_normal(r));
    for (int i = 0; i < 3; i++) scale[i] = (float)tl_rng_uniform(r);
    for (int i = 0; i < 24; i++) base[i] = (float)tl_rng_uniform(r);
}

enum { NTOK = 64 };

// Runs N tokens with `iters`; checks the ranges of pre, post and comb and that
// comb's columns sum to 1; returns the worst row-sum error.
static double run_random(tl_test_t *t, uint64_t seed, double sd, int64_t iters)
{
    static float mixes[NTOK * 24], pre[NTOK * 4], post[NTOK * 4], comb[NTOK * 16];
    float scale[3], base[24];
    tl_rng_t r;
    tl_rng_seed(&r, seed);
    random_inputs(&r, NTOK, sd, mixes, scale, base);
    tl_hc_sinkhorn_params_t p = tl_hc_sinkhorn_defaults(NTOK);
    p.iters = iters;
    if (tl_hc_sinkhorn_ref(&p, mixes, scale, base, pre, post, comb, NULL) != TL_OK) {
        CHECK(!"tl_hc_sinkhorn_ref failed");
        return INFINITY;
    }
    double worst_row = 0;
    for (int tok = 0; tok < NTOK; tok++) {
        for (int i = 0; i < 4; i++) {
            CHECK(pre[tok * 4 + i] > 1e-6f && pre[tok * 4 + i] < 1 + 1e-6f);
            CHECK(post[tok * 4 + i] > 0 && post[tok * 4 + i] < 2);
            double col = 0, row = 0;
            for (int j = 0; j < 4; j++) {
                CHECK(comb[tok * 16 + i * 4 + j] > 0);
                col += comb[tok * 16 + j * 4 + i];
                row += comb[tok * 16 + i * 4 + j];
            }
            CHECK_NEAR(col, 1.0, 1e-5); // the last step normalises columns
            worst_row = fmax(worst_row, fabs(row - 1));
        }
    }
    return worst_row;
}

TEST(ref_hc_sinkhorn_doubly_stochastic)
{
    // V4 settings (20 iterations) on N(0,1) mixes: rows are normalised too.
    double rows = run_random(t, 3, 1.0, 20);
    CHECK(rows < 1e-5);
    CHECK(rows > 0); // only approximately: the last step is a column step
    // Very skewed logits (N(0, 4^2)) converge slower: rows are within a few
    // percent after 20 iterations and get much closer with more.
    double rows20 = run_random(t, 4, 4.0, 20), rows200 = run_random(t, 4, 4.0, 200);
    CHECK(rows20 < 0.1);
    CHECK(rows200 < rows20 / 10);
}

TEST(ref_hc_sinkhorn_tokens_are_independent)
{
    // Token 2 of a 3-token call equals a 1-token call on its row, bit for bit.
    float mixes[3 * 24], scale[3], base[24], pre[12], post[12], comb[48];
    float pre1[4], post1[4], comb1[16];
    tl_rng_t r;
    tl_rng_seed(&r, 5);
    random_inputs(&r, 3, 1.0, mixes, scale, base);
    tl_hc_sinkhorn_params_t p = tl_hc_sinkhorn_defaults(3);
    REQUIRE(tl_hc_sinkhorn_ref(&p, mixes, scale, base, pre, post, comb, NULL) == TL_OK);
    p.n = 1;
    REQUIRE(tl_hc_sinkhorn_ref(&p, mixes + 48, scale, base, pre1, post1, comb1, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(pre1[i] == pre[8 + i] && post1[i] == post[8 + i]);
    for (int i = 0; i < 16; i++) CHECK(comb1[i] == comb[32 + i]);
    CHECK(comb[0] != comb[32]); // different tokens give different results
}

TEST(ref_hc_sinkhorn_rejects_bad_arguments)
{
    float buf[64] = {0};
    tl_diag_t d;
    tl_diag_init(&d);
    tl_hc_sinkhorn_params_t p = tl_hc_sinkhorn_defaults(1);
    p.hc = 0;
    CHECK_EQ(tl_hc_sinkhorn_ref(&p, buf, buf, buf, buf, buf, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "hc_split_sinkhorn: hc must be");
    p = tl_hc_sinkhorn_defaults(1);
    p.iters = 0;
    CHECK_EQ(tl_hc_sinkhorn_ref(&p, buf, buf, buf, buf, buf, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "iterations must be >= 1");
    p = tl_hc_sinkhorn_defaults(-1);
    CHECK_EQ(tl_hc_sinkhorn_ref(&p, buf, buf, buf, buf, buf, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "mixes has an invalid shape [-1, 24]");
    p = tl_hc_sinkhorn_defaults(1);
    CHECK_EQ(tl_hc_sinkhorn_ref(&p, buf, NULL, buf, buf, buf, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "hc_scale is NULL");
    // No tokens: nothing is read or written.
    p = tl_hc_sinkhorn_defaults(0);
    CHECK_EQ(tl_hc_sinkhorn_ref(&p, NULL, buf, buf, NULL, NULL, NULL, &d), TL_OK);
    CHECK_EQ(d.nerrors, 4);
    tl_diag_free(&d);
}
