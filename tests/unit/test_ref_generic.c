// Generic goldens (src/ref/generic.c): add, GEMM with fusion, softmax, layer
// norm, RMS norm and dense attention on hand-computed cases, plus a cross-check
// of dense attention against the independent sparse attention golden.
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "rt/rng.h"

TEST(ref_generic_add)
{
    // fp32: exact sums. bf16 (8 significant bits, spacing 2^-7 at 1):
    //   1 + 2^-8 is a tie -> 1 (even); 1 + 3*2^-9 is 3/4 of the spacing -> 1 + 2^-7.
    // fp16: 65504 + 8 -> 65504; 65504 + 16 = 65520, the tie with 65536 -> Inf.
    float a[] = {1, 2.5f, -3}, b[] = {2, 0.25f, 3}, out[3];
    REQUIRE(tl_generic_add(a, b, out, 3, TL_REF_EXACT, NULL) == TL_OK);
    CHECK(out[0] == 3 && out[1] == 2.75f && out[2] == 0);
    float c[] = {1, 1}, e[] = {0x1p-8f, 3 * 0x1p-9f};
    REQUIRE(tl_generic_add(c, e, out, 2, TL_REF_BF16, NULL) == TL_OK);
    CHECK(out[0] == 1.0f && out[1] == 1.0078125f);
    float f[] = {65504, 65504}, g[] = {8, 16};
    REQUIRE(tl_generic_add(f, g, out, 2, TL_REF_F16, NULL) == TL_OK);
    CHECK(out[0] == 65504.0f && isinf(out[1]));
}

TEST(ref_generic_gemm_layouts_and_fusion)
{
    // [[1,2,3],[4,5,6]] . [[7,8],[9,10],[11,12]] = [[58, 64], [139, 154]]
    float a[] = {1, 2, 3, 4, 5, 6}, at[] = {1, 4, 2, 5, 3, 6};
    float b[] = {7, 8, 9, 10, 11, 12}, bt[] = {7, 9, 11, 8, 10, 12};
    float expect[] = {58, 64, 139, 154}, c[4];
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            tl_generic_gemm_params_t p = {.m = 2, .n = 2, .k = 3, .trans_a = ta, .trans_b = tb};
            REQUIRE(tl_generic_gemm(&p, ta ? at : a, tb ? bt : b, NULL, NULL, c, NULL) == TL_OK);
            for (int i = 0; i < 4; i++) CHECK(c[i] == expect[i]);
        }
    // + bias {0.5, -1} per column + addend [[1, 1], [2, 2]] = [[59.5, 64], [141.5, 155]]
    float bias[] = {0.5f, -1}, add[] = {1, 1, 2, 2}, fused[] = {59.5f, 64, 141.5f, 155};
    tl_generic_gemm_params_t p = {.m = 2, .n = 2, .k = 3};
    REQUIRE(tl_generic_gemm(&p, a, b, bias, add, c, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(c[i] == fused[i]);
}

TEST(ref_generic_gemm_precision)
{
    // Double accumulation: 1e8 + 1 - 1e8 = 1 (an fp32 running sum gives 0).
    float a[] = {1e8f, 1, -1e8f}, ones[] = {1, 1, 1}, c;
    tl_generic_gemm_params_t p = {.m = 1, .n = 1, .k = 3};
    REQUIRE(tl_generic_gemm(&p, a, ones, NULL, NULL, &c, NULL) == TL_OK);
    CHECK(c == 1.0f);
    // acc_prec bf16: 257 is a tie (spacing 2) -> 256, then + bias 0.5 = 256.5.
    float x = 257, half = 0.5f;
    p.k = 1;
    p.acc_prec = TL_REF_BF16;
    REQUIRE(tl_generic_gemm(&p, &x, ones, &half, NULL, &c, NULL) == TL_OK);
    CHECK(c == 256.5f);
    // out_prec fp16: 1/3 -> 0x3555 = 1365/4096 = 0.333251953125.
    float third = 1.0f / 3;
    p.acc_prec = TL_REF_EXACT;
    p.out_prec = TL_REF_F16;
    REQUIRE(tl_generic_gemm(&p, &third, ones, NULL, NULL, &c, NULL) == TL_OK);
    CHECK(c == 0.333251953125f);
}

TEST(ref_generic_softmax)
{
    // {0,0,0,0} -> 1/4 each; {1000, 1000} -> 1/2 each (no overflow);
    // {-inf, 0, ln 3} -> {0, 1/4, 3/4}; all -inf -> NaN.
    float x[] = {0, 0, 0, 0, 1000, 1000, 0, 0, -INFINITY, 0, 1.09861229f, 0};
    float out[12];
    REQUIRE(tl_generic_softmax(x, out, 1, 4, TL_REF_EXACT, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK(out[i] == 0.25f);
    REQUIRE(tl_generic_softmax(x + 4, out, 2, 2, TL_REF_EXACT, NULL) == TL_OK);
    CHECK(out[0] == 0.5f && out[1] == 0.5f && out[2] == 0.5f && out[3] == 0.5f);
    REQUIRE(tl_generic_softmax(x + 8, out, 1, 3, TL_REF_EXACT, NULL) == TL_OK);
    CHECK(out[0] == 0.0f);
    CHECK_NEAR(out[1], 0.25, 1e-7);
    CHECK_NEAR(out[2], 0.75, 1e-7);
    float minf[] = {-INFINITY, -INFINITY};
    REQUIRE(tl_generic_softmax(minf, out, 1, 2, TL_REF_EXACT, NULL) == TL_OK);
    CHECK(isnan(out[0]) && isnan(out[1]));
}

TEST(ref_generic_layer_norm)
{
    // {1,2,3,4}: mean 2.5, biased var (2.25+0.25+0.25+2.25)/4 = 1.25.
    //   eps 0: (x - 2.5)/sqrt(1.25) = {-1.3416407865, -0.4472135955, +0.447.., +1.341..}
    //   gamma {1,2,1,1}, beta {0,0,1,0}: {-1.3416407865, -0.894427191, 1.4472135955, 1.3416407865}
    //   eps 0.75: var + eps = 2 -> (x - 2.5)/sqrt(2)
    // A constant row normalises to 0 (not NaN) with eps > 0.
    float x[] = {1, 2, 3, 4}, gamma[] = {1, 2, 1, 1}, beta[] = {0, 0, 1, 0}, out[4];
    double plain[] = {-1.3416407865, -0.4472135955, 0.4472135955, 1.3416407865};
    double affine[] = {-1.3416407865, -0.894427191, 1.4472135955, 1.3416407865};
    REQUIRE(tl_generic_layer_norm(x, NULL, NULL, out, 1, 4, 0, TL_REF_EXACT, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(out[i], plain[i], 1e-7);
    REQUIRE(tl_generic_layer_norm(x, gamma, beta, out, 1, 4, 0, TL_REF_EXACT, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(out[i], affine[i], 1e-7);
    REQUIRE(tl_generic_layer_norm(x, NULL, NULL, out, 1, 4, 0.75f, TL_REF_EXACT, NULL) == TL_OK);
    for (int i = 0; i < 4; i++) CHECK_NEAR(out[i], (x[i] - 2.5) / sqrt(2.0), 1e-7);
    float flat[] = {5, 5};
    REQUIRE(tl_generic_layer_norm(flat, NULL, NULL, out, 1, 2, 1e-5f, TL_REF_EXACT, NULL) == TL_OK);
    CHECK(out[0] == 0.0f && out[1] == 0.0f);
}

TEST(ref_generic_rms_norm)
{
    // {3, 4}: mean square 12.5. eps 0: {3, 4}/sqrt(12.5) = {0.8485281374, 1.1313708499}.
    // eps 3.5: sqrt(16) = 4 -> {0.75, 1}; gamma {2, -1} -> {1.5, -1}. Two rows at once.
    float x[] = {3, 4, 3, 4}, gamma[] = {2, -1}, out[4];
    REQUIRE(tl_generic_rms_norm(x, NULL, out, 1, 2, 0, TL_REF_EXACT, NULL) == TL_OK);
    CHECK_NEAR(out[0], 0.8485281374, 1e-7);
    CHECK_NEAR(out[1], 1.1313708499, 1e-7);
    REQUIRE(tl_generic_rms_norm(x, gamma, out, 2, 2, 3.5f, TL_REF_EXACT, NULL) == TL_OK);
    CHECK(out[0] == 1.5f && out[1] == -1.0f && out[2] == 1.5f && out[3] == -1.0f);
}

TEST(ref_generic_attn_by_hand)
{
    // d = 1, q = {1, 2}, k = {1, -1}, v = {10, 20}, scale 1:
    //   query 0 scores {1, -1}: out = (10 e + 20 e^-1) / (e + e^-1)
    //   query 1 scores {2, -2}: out = (10 e^2 + 20 e^-2) / (e^2 + e^-2)
    // causal: query 0 sees key 0 only -> 10; query 1 unchanged.
    float q[] = {1, 2}, k[] = {1, -1}, v[] = {10, 20}, out[2];
    double o0 = (10 * exp(1.0) + 20 * exp(-1.0)) / (exp(1.0) + exp(-1.0));
    double o1 = (10 * exp(2.0) + 20 * exp(-2.0)) / (exp(2.0) + exp(-2.0));
    tl_generic_attn_params_t p = {.b = 1, .h = 1, .sq = 2, .skv = 2, .d = 1, .scale = 1};
    REQUIRE(tl_generic_attn(&p, q, k, v, out, NULL) == TL_OK);
    CHECK_NEAR(out[0], o0, 1e-6);
    CHECK_NEAR(out[1], o1, 1e-6);
    p.causal = true;
    REQUIRE(tl_generic_attn(&p, q, k, v, out, NULL) == TL_OK);
    CHECK(out[0] == 10.0f);
    CHECK_NEAR(out[1], o1, 1e-6);
    // No keys at all: 0.
    p.skv = 0;
    out[0] = out[1] = 7;
    REQUIRE(tl_generic_attn(&p, q, NULL, NULL, out, NULL) == TL_OK);
    CHECK(out[0] == 0.0f && out[1] == 0.0f);
}

TEST(ref_generic_attn_matches_sparse_attn)
{
    // With k = v, h = 1 and every key listed (causal: keys 0..i, rest -1) and no
    // sink, dense attention is the sparse golden's special case.
    enum { S = 9, D = 16 };
    static float q[S * D], kv[S * D], dense[S * D], sparse[S * D];
    int32_t idx[S * S];
    tl_rng_t r;
    tl_rng_seed(&r, 13);
    for (int i = 0; i < S * D; i++) q[i] = (float)tl_rng_normal(&r);
    for (int i = 0; i < S * D; i++) kv[i] = (float)tl_rng_normal(&r);
    for (int causal = 0; causal < 2; causal++) {
        for (int i = 0; i < S; i++)
            for (int j = 0; j < S; j++) idx[i * S + j] = causal && j > i ? -1 : j;
        tl_generic_attn_params_t p = {
            .b = 1, .h = 1, .sq = S, .skv = S, .d = D, .scale = 0.25f, .causal = causal};
        tl_sparse_attn_params_t sp = {.b = 1, .m = S, .h = 1, .d = D, .n = S, .k = S};
        sp.scale = 0.25f;
        REQUIRE(tl_generic_attn(&p, q, kv, kv, dense, NULL) == TL_OK);
        REQUIRE(tl_sparse_attn_ref(&sp, q, kv, NULL, idx, sparse, NULL) == TL_OK);
        for (int i = 0; i < S * D; i++) CHECK_NEAR(dense[i], sparse[i], 1e-6);
        CHECK(dense[0] != dense[D]); // rows differ: a real test
    }
}

TEST(ref_generic_rejects_bad_arguments)
{
    float buf[8] = {0};
    tl_diag_t d;
    tl_diag_init(&d);
    CHECK_EQ(tl_generic_add(buf, NULL, buf, 2, TL_REF_EXACT, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "add: b is NULL");
    tl_generic_gemm_params_t gp = {.m = 1, .n = -1, .k = 1};
    CHECK_EQ(tl_generic_gemm(&gp, buf, buf, NULL, NULL, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "gemm: B has an invalid shape [1, -1]");
    CHECK_EQ(tl_generic_softmax(buf, buf, 1, 2, (tl_ref_prec_t)-1, &d), TL_ERR_ARG);
    CHECK_EQ(tl_generic_layer_norm(buf, buf, buf, buf, -1, 2, 0, TL_REF_EXACT, &d), TL_ERR_ARG);
    CHECK_EQ(tl_generic_rms_norm(NULL, NULL, buf, 1, 2, 0, TL_REF_EXACT, &d), TL_ERR_ARG);
    tl_generic_attn_params_t ap = {.b = 1, .h = 1, .sq = 1, .skv = 1, .d = 1};
    CHECK_EQ(tl_generic_attn(&ap, buf, buf, NULL, buf, &d), TL_ERR_ARG);
    CHECK_CONTAINS(tl_diag_text(&d), "attention: v is NULL");
    CHECK_EQ(tl_generic_attn(NULL, buf, buf, buf, buf, &d), TL_ERR_ARG);
    CHECK_EQ(d.nerrors, 7);
    tl_diag_free(&d);
}
