// Golden sparse attention with attention sink (src/ref/sparse_attn.c):
// hand-computed cases and properties from dsv4_ops.md §2.
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "rt/rng.h"

static tl_sparse_attn_params_t shape(int64_t b, int64_t m, int64_t h, int64_t d, int64_t n,
                                     int64_t k, float scale)
{
    tl_sparse_attn_params_t p = {.b = b, .m = m, .h = h, .d = d, .n = n, .k = k, .scale = scale};
    return p;
}

TEST(ref_sparse_attn_one_valid_slot)
{
    // Slot 1 -> row 2; slots 0, 2, 3 are -1, >= n and < -1: masked. Rows 0 and 1
    // are NaN and must never be read.
    // x = 0.5 * (1*2 + 0.5*4) = 2;  w = e^2 / (e^2 + e^sink), sink = 1
    //   = 1 / (1 + e^-1) = 0.7310585786;  out = w * {2, 4}
    float q[] = {1.0f, 0.5f};
    float kv[] = {NAN, NAN, NAN, NAN, 2.0f, 4.0f};
    float sink[] = {1.0f};
    int32_t idx[] = {-1, 2, 3, -5};
    float out[2];
    tl_sparse_attn_params_t p = shape(1, 1, 1, 2, 3, 4, 0.5f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink, idx, out, NULL) == TL_OK);
    CHECK_NEAR(out[0], 1.4621171573, 1e-6);
    CHECK_NEAR(out[1], 2.9242343145, 1e-6);
}

TEST(ref_sparse_attn_no_sink_is_plain_softmax)
{
    // x0 = q.(1,0) = 1, x1 = q.(0,1) = 2; plain softmax over the two slots.
    float q[] = {1.0f, 2.0f};
    float kv[] = {1.0f, 0.0f, 0.0f, 1.0f};
    int32_t idx[] = {0, 1};
    float sink_minf[] = {-INFINITY};
    double w0 = exp(1.0) / (exp(1.0) + exp(2.0)), w1 = exp(2.0) / (exp(1.0) + exp(2.0));
    float out[2], out2[2];
    tl_sparse_attn_params_t p = shape(1, 1, 1, 2, 2, 2, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink_minf, idx, out, NULL) == TL_OK);
    CHECK_NEAR(out[0], w0, 1e-7);
    CHECK_NEAR(out[1], w1, 1e-7);
    // No sink tensor at all means the same thing.
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, NULL, idx, out2, NULL) == TL_OK);
    CHECK_NEAR(out2[0], w0, 1e-7);
    CHECK_NEAR(out2[1], w1, 1e-7);
}

TEST(ref_sparse_attn_duplicates_count_twice)
{
    // Slots {0, 0, 1}: x0 = 1 twice, x1 = 2, sink 0.5:
    //   out = (2 e^1 (1,0) + e^2 (0,1)) / (2 e^1 + e^2 + e^0.5)
    float q[] = {1.0f, 2.0f};
    float kv[] = {1.0f, 0.0f, 0.0f, 1.0f};
    int32_t idx[] = {0, 0, 1};
    float sink[] = {0.5f};
    double z = 2 * exp(1.0) + exp(2.0) + exp(0.5);
    float out[2];
    tl_sparse_attn_params_t p = shape(1, 1, 1, 2, 2, 3, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink, idx, out, NULL) == TL_OK);
    CHECK_NEAR(out[0], 2 * exp(1.0) / z, 1e-7);
    CHECK_NEAR(out[1], exp(2.0) / z, 1e-7);
}

TEST(ref_sparse_attn_all_masked_and_infinite_sink_give_zero)
{
    float q[] = {1.0f, 2.0f, 3.0f, 4.0f}; // h = 2
    float kv[] = {NAN, NAN, NAN, NAN};
    int32_t masked[] = {-1, 2, -1};
    float sink[] = {0.0f, 3.0f};
    float out[4] = {7, 7, 7, 7};
    tl_sparse_attn_params_t p = shape(1, 1, 2, 2, 2, 3, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink, masked, out, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(out[i] == 0.0f);

    // sink = +inf takes all the mass even with a valid slot.
    float kv1[] = {1.0f, 1.0f};
    int32_t one[] = {0};
    float inf_sink[] = {INFINITY, INFINITY};
    for (int i = 0; i < 4; i++) out[i] = 7;
    p = shape(1, 1, 2, 2, 1, 1, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv1, inf_sink, one, out, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(out[i] == 0.0f);

    // k = 0 and n = 0 are valid empty problems.
    for (int i = 0; i < 4; i++) out[i] = 7;
    p = shape(1, 1, 2, 2, 0, 3, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, NULL, sink, masked, out, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(out[i] == 0.0f);
    for (int i = 0; i < 4; i++) out[i] = 7;
    p = shape(1, 1, 2, 2, 1, 0, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv1, sink, NULL, out, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(out[i] == 0.0f);
}

TEST(ref_sparse_attn_stabiliser_includes_sink)
{
    // sink 1000 >> x = 0: out = v e^-1000 / (1 + e^-1000) = 0, not NaN (the
    // kernels' keys-only max would overflow exp(sink - m)).
    float q[] = {1.0f, 0.0f};
    float kv[] = {0.0f, 1.0f};
    int32_t idx[] = {0};
    float big_sink[] = {1000.0f};
    float out[2];
    tl_sparse_attn_params_t p = shape(1, 1, 1, 2, 1, 1, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, big_sink, idx, out, NULL) == TL_OK);
    CHECK(out[0] == 0.0f && out[1] == 0.0f);
    // x = 1000 >> sink 0: weight 1 / (1 + e^-1000) = 1.
    float q2[] = {1000.0f, 0.0f}, kv2[] = {1.0f, 0.5f}, sink0[] = {0.0f};
    REQUIRE(tl_sparse_attn_ref(&p, q2, kv2, sink0, idx, out, NULL) == TL_OK);
    CHECK(out[0] == 1.0f && out[1] == 0.5f);
}

TEST(ref_sparse_attn_round_p_bf16)
{
    // d = 1, q = -1, rows {0}, {1}: x0 = 0, x1 = -1, no sink; M = 0.
    //   p1 = e^-1 = 0.36787944 = 0x3EBC5AB2 -> bf16 0x3EBC = 0.3671875 (low half < 0x8000)
    //   out = (1 * 0 + 0.3671875 * 1) / (1 + e^-1) = 0.2684355718   (Z unrounded)
    //   unrounded: e^-1 / (1 + e^-1) = 0.2689414214
    float q[] = {-1.0f}, kv[] = {0.0f, 1.0f};
    int32_t idx[] = {0, 1};
    float out;
    tl_sparse_attn_params_t p = shape(1, 1, 1, 1, 2, 2, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, NULL, idx, &out, NULL) == TL_OK);
    CHECK_NEAR(out, 0.2689414214, 1e-7);
    p.p_prec = TL_REF_BF16;
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, NULL, idx, &out, NULL) == TL_OK);
    CHECK_NEAR(out, 0.2684355718, 1e-7);
}

TEST(ref_sparse_attn_round_scores_and_output_bf16)
{
    // q.k = 1*1 + 1*2^-8 = 1.00390625: a bf16 tie between 1 and 1 + 2^-7 -> even -> 1.
    // One slot, sink 0: w = e^x / (e^x + 1).
    //   unrounded x = 1.00390625: w = 0.7318259005
    //   rounded   x = 1:          w = e / (e + 1) = 0.7310585786
    //   out bf16: 0.7310585786 = 0x3F3B26A8 -> 0x3F3B = 0.73046875
    float q[] = {1.0f, 1.0f}, kv[] = {1.0f, 0.00390625f}, sink[] = {0.0f};
    int32_t idx[] = {0};
    float out[2];
    tl_sparse_attn_params_t p = shape(1, 1, 1, 2, 1, 1, 1.0f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink, idx, out, NULL) == TL_OK);
    CHECK_NEAR(out[0], 0.7318259005, 1e-7);
    p.qk_prec = TL_REF_BF16;
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink, idx, out, NULL) == TL_OK);
    CHECK_NEAR(out[0], 0.7310585786, 1e-7);
    CHECK_NEAR(out[1], 0.7310585786 / 256, 1e-9);
    p.out_prec = TL_REF_BF16;
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, sink, idx, out, NULL) == TL_OK);
    CHECK(out[0] == 0.73046875f);
}

TEST(ref_sparse_attn_layout)
{
    // b = 2, m = 2, h = 2, d = 3, n = 2: query (bi, i) picks row (bi + i) % 2 of
    // its own batch's kv and nothing else, so with no sink every head's output is
    // exactly that row: kv[bi][r][c] = 100 bi + 10 r + c.
    float q[2 * 2 * 2 * 3], kv[2 * 2 * 3], out[2 * 2 * 2 * 3];
    for (int i = 0; i < 24; i++) q[i] = (float)(i % 5) - 2.0f;
    for (int bi = 0; bi < 2; bi++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 3; c++) kv[(bi * 2 + r) * 3 + c] = (float)(100 * bi + 10 * r + c);
    int32_t idx[2 * 2 * 2];
    for (int bi = 0; bi < 2; bi++)
        for (int i = 0; i < 2; i++) {
            idx[(bi * 2 + i) * 2 + 0] = -1;
            idx[(bi * 2 + i) * 2 + 1] = (bi + i) % 2;
        }
    tl_sparse_attn_params_t p = shape(2, 2, 2, 3, 2, 2, 0.3f);
    REQUIRE(tl_sparse_attn_ref(&p, q, kv, NULL, idx, out, NULL) == TL_OK);
    for (int bi = 0; bi < 2; bi++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int c = 0; c < 3; c++)
                    CHECK(out[((bi * 2 + i) * 2 + j) * 3 + c] ==
                          (float)(100 * bi + 10 * ((bi + i) % 2) + c));
}

// Random problem: q, kv, sink ~ N(0,1); every slot row distinct, some -1.
typedef struct {
    tl_sparse_attn_params_t p;
    float *q, *kv, *sink, *out;
    int32_t *idx;
} problem_t;

static void problem_init(problem_t *pr, uint64_t seed)
{
    pr->p = shape(1, 3, 4, 8, 16, 6, 0.35f);
    tl_rng_t r;
    tl_rng_seed(&r, seed);
    size_t nq = 3 * 4 * 8, nkv = 16 * 8;
    pr->q = malloc(nq * sizeof(float));
    pr->out = malloc(nq * sizeof(float));
    pr->kv = malloc(nkv * sizeof(float));
    pr->sink = malloc(4 * sizeof(float));
    pr->idx = malloc(3 * 6 * sizeof(int32_t));
    for (size_t i = 0; i < nq; i++) pr->q[i] = (float)tl_rng_normal(&r);
    for (size_t i = 0; i < nkv; i++) pr->kv[i] = (float)tl_rng_normal(&r);
    for (int i = 0; i < 4; i++) pr->sink[i] = (float)tl_rng_normal(&r);
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < 6; s++) pr->idx[i * 6 + s] = s == i ? -1 : (int32_t)(s * 3 + i) % 16;
}

static void problem_free(problem_t *pr)
{
    free(pr->q), free(pr->kv), free(pr->sink), free(pr->out), free(pr->idx);
}

TEST(ref_sparse_attn_sink_is_lse_merge)
{
    // FMLA form: out_sink = out_nosink / (1 + exp(sink - lse)), lse = log sum_s exp(x_s).
    problem_t pr;
    problem_init(&pr, 7);
    float *nosink = malloc(3 * 4 * 8 * sizeof(float));
    REQUIRE(tl_sparse_attn_ref(&pr.p, pr.q, pr.kv, pr.sink, pr.idx, pr.out, NULL) == TL_OK);
    REQUIRE(tl_sparse_attn_ref(&pr.p, pr.q, pr.kv, NULL, pr.idx, nosink, NULL) == TL_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            double sum = 0;
            for (int s = 0; s < 6; s++) {
                int32_t row = pr.idx[i * 6 + s];
                if (row < 0) continue;
                double dot = 0;
                for (int c = 0; c < 8; c++)
                    dot += (double)pr.q[(i * 4 + j) * 8 + c] * pr.kv[row * 8 + c];
                sum += exp(0.35f * dot);
            }
            double f = 1.0 / (1.0 + exp(pr.sink[j] - log(sum)));
            for (int c = 0; c < 8; c++) {
                size_t o = (size_t)((i * 4 + j) * 8 + c);
                CHECK_NEAR(pr.out[o], nosink[o] * f, 2e-6);
            }
        }
    free(nosink);
    problem_free(&pr);
}

TEST(ref_sparse_attn_slot_order_and_padding_do_not_matter)
{
    problem_t pr;
    problem_init(&pr, 11);
    REQUIRE(tl_sparse_attn_ref(&pr.p, pr.q, pr.kv, pr.sink, pr.idx, pr.out, NULL) == TL_OK);
    // Reverse every query's slots and append two masked ones (-1 and n).
    int32_t idx2[3 * 8];
    for (int i = 0; i < 3; i++) {
        for (int s = 0; s < 6; s++) idx2[i * 8 + s] = pr.idx[i * 6 + 5 - s];
        idx2[i * 8 + 6] = -1;
        idx2[i * 8 + 7] = 16;
    }
    float out2[3 * 4 * 8];
    tl_sparse_attn_params_t p2 = pr.p;
    p2.k = 8;
    REQUIRE(tl_sparse_attn_ref(&p2, pr.q, pr.kv, pr.sink, idx2, out2, NULL) == TL_OK);
    bool differs = false;
    for (int i = 0; i < 3 * 4 * 8; i++) {
        CHECK_NEAR(out2[i], pr.out[i], 1e-6);
        if (pr.out[i] != pr.out[0]) differs = true;
    }
    CHECK(differs); // the outputs are not trivially constant
    problem_free(&pr);
}

TEST(ref_sparse_attn_rejects_bad_arguments)
{
    float buf[16] = {0};
    int32_t idx[4] = {0};
    tl_diag_t d;
    tl_diag_init(&d);
    tl_sparse_attn_params_t p = shape(1, 1, 1, -2, 1, 1, 1.0f);
    CHECK_EQ(tl_sparse_attn_ref(&p, buf, buf, NULL, idx, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "sparse_attn: q has an invalid shape [1, 1, 1, -2]");
    p = shape(1, 1, 1, 2, 1, 1, 1.0f);
    CHECK_EQ(tl_sparse_attn_ref(&p, buf, NULL, NULL, idx, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "kv is NULL");
    p.p_prec = (tl_ref_prec_t)9;
    CHECK_EQ(tl_sparse_attn_ref(&p, buf, buf, NULL, idx, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "invalid precision");
    p = shape(INT64_MAX / 2, 4, 1, 2, 1, 1, 1.0f);
    CHECK_EQ(tl_sparse_attn_ref(&p, buf, buf, NULL, idx, buf, &d), TL_ERR_ARG);
    CHECK_EQ(tl_sparse_attn_ref(NULL, buf, buf, NULL, idx, buf, NULL), TL_ERR_ARG);
    CHECK_EQ(d.nerrors, 4);
    tl_diag_free(&d);
}
