// Narrow floats: every bit pattern decoded; every pair of adjacent values of
// each format probed at its midpoint and just either side, from float32 and
// float64 sources, in every mode; overflow thresholds; subnormal, zero, Inf and
// NaN inputs; the inline fast paths against the generic routine. Expected
// values come from the bit fields decoded in this file, not from src/base.
#include "../test.h"

#include <float.h>
#include <math.h>

#include "base/dtype.h"

typedef struct {
    tl_dtype_t t;
    int ebits, mbits, bias;
    bool fn; // no Inf; only S.1..1.1..1 is NaN; saturates
} fmt_t;

static const fmt_t fmts[] = {
    {TL_BF16, 8, 7, 127, false},
    {TL_F16, 5, 10, 15, false},
    {TL_F8E4M3, 4, 3, 7, true},
    {TL_F8E5M2, 5, 2, 15, false},
};

static const tl_round_t modes[] = {TL_CAST_NONE, TL_CAST_RINT,  TL_CAST_ROUND, TL_CAST_FLOOR,
                                   TL_CAST_CEIL, TL_CAST_TRUNC, TL_CAST_ODD};

static unsigned sign_bit(const fmt_t *f)
{
    return 1u << (f->ebits + f->mbits);
}

// Largest finite positive pattern.
static unsigned max_pat(const fmt_t *f)
{
    unsigned mmask = (1u << f->mbits) - 1, emask = (1u << f->ebits) - 1;
    return f->fn ? (emask << f->mbits) | (mmask - 1) : ((emask - 1) << f->mbits) | mmask;
}

static unsigned inf_pat(const fmt_t *f)
{
    return ((1u << f->ebits) - 1) << f->mbits;
}

// The value of pattern p from its fields.
static double value_of(const fmt_t *f, unsigned p)
{
    unsigned mmask = (1u << f->mbits) - 1, emask = (1u << f->ebits) - 1;
    unsigned m = p & mmask, e = (p >> f->mbits) & emask;
    double s = p & sign_bit(f) ? -1.0 : 1.0;
    if (!f->fn && e == emask) return m ? NAN : s * INFINITY;
    if (f->fn && e == emask && m == mmask) return NAN;
    if (e == 0) return s * ldexp(m, 1 - f->bias - f->mbits);
    return s * ldexp(m + (1u << f->mbits), (int)e - f->bias - f->mbits);
}

static unsigned enc_f32(tl_dtype_t t, float x, tl_round_t mode)
{
    switch (t) {
    case TL_BF16: return tl_f32_to_bf16(x, mode);
    case TL_F16: return tl_f32_to_f16(x, mode);
    case TL_F8E4M3: return tl_f32_to_f8e4m3(x, mode);
    default: return tl_f32_to_f8e5m2(x, mode);
    }
}

static float dec(tl_dtype_t t, unsigned p)
{
    switch (t) {
    case TL_BF16: return tl_bf16_to_f32((uint16_t)p);
    case TL_F16: return tl_f16_to_f32((uint16_t)p);
    case TL_F8E4M3: return tl_f8e4m3_to_f32((uint8_t)p);
    default: return tl_f8e5m2_to_f32((uint8_t)p);
    }
}

static unsigned enc_f64(tl_dtype_t t, double x, tl_round_t mode)
{
    uint16_t out = 0;
    tl_store_f64(t, &out, 0, x, mode);
    return tl_dtype_size(t) == 1 ? *(uint8_t *)&out : out;
}

// Every bit pattern decodes to the value of its fields and encodes back (NaN
// payloads may change; the sign and NaN-ness may not; -0 is kept).
TEST(decode_all_patterns)
{
    for (size_t k = 0; k < TL_ARRAY_LEN(fmts); k++) {
        const fmt_t *f = &fmts[k];
        int fails = 0;
        for (unsigned p = 0; p < 2 * sign_bit(f) && fails < 5; p++) {
            double want = value_of(f, p);
            float got = dec(f->t, p);
            bool neg = (p & sign_bit(f)) != 0;
            bool ok = (signbit(got) != 0) == neg;
            ok = ok && (isnan(want) ? isnan(got) : (double)got == want);
            unsigned back = enc_f32(f->t, got, TL_CAST_RINT);
            bool back_neg = (back & sign_bit(f)) != 0;
            ok = ok && (isnan(want) ? isnan(value_of(f, back)) && back_neg == neg : back == p);
            if (!ok) {
                fails++;
                tl_test_fail(t, __FILE__, __LINE__, "%s pattern 0x%x: got %a want %a back 0x%x",
                             tl_dtype_name(f->t), p, got, want, back);
            }
        }
    }
}

// The expected pattern for a value strictly between lo and hi (adjacent, same
// sign; pl/ph their patterns). where < 0: nearer lo, 0: midpoint, > 0: nearer hi.
static unsigned expect_between(unsigned pl, unsigned ph, bool neg, int where, tl_round_t mode)
{
    unsigned small = neg ? ph : pl, big = neg ? pl : ph; // by magnitude
    unsigned even = pl & 1 ? ph : pl, odd = pl & 1 ? pl : ph;
    switch (mode) {
    case TL_CAST_NONE:
    case TL_CAST_RINT: return where < 0 ? pl : where > 0 ? ph : even;
    case TL_CAST_ROUND: return where < 0 ? pl : where > 0 ? ph : big;
    case TL_CAST_FLOOR: return pl;
    case TL_CAST_CEIL: return ph;
    case TL_CAST_TRUNC: return small;
    default: return odd;
    }
}

TEST(adjacent_midpoints_all_modes)
{
    for (size_t k = 0; k < TL_ARRAY_LEN(fmts); k++) {
        const fmt_t *f = &fmts[k];
        int fails = 0;
        for (unsigned s = 0; s < 2; s++) {
            for (unsigned p = 0; p < max_pat(f) && fails < 8; p++) {
                unsigned pa = p | (s ? sign_bit(f) : 0), pb = pa + 1;
                double a = value_of(f, pa), b = value_of(f, pb);
                if (s) a = p ? a : -0.0;
                bool neg = s != 0;
                unsigned pl = neg ? pb : pa, ph = neg ? pa : pb;
                double lo = neg ? b : a, hi = neg ? a : b, mid = (lo + hi) / 2;
                float midf = (float)mid;
                REQUIRE((double)midf == mid); // the midpoint is exact in float32
                double pts64[3] = {nextafter(mid, lo), mid, nextafter(mid, hi)};
                float pts32[3] = {nextafterf(midf, (float)lo), midf, nextafterf(midf, (float)hi)};
                for (size_t mi = 0; mi < TL_ARRAY_LEN(modes); mi++) {
                    tl_round_t m = modes[mi];
                    for (int w = 0; w < 3; w++) {
                        unsigned want = expect_between(pl, ph, neg, w - 1, m);
                        unsigned g32 = enc_f32(f->t, pts32[w], m);
                        unsigned g64 = enc_f64(f->t, pts64[w], m);
                        if (g32 != want || g64 != want) {
                            fails++;
                            tl_test_fail(t, __FILE__, __LINE__,
                                         "%s %s between %a and %a, point %d: f32 0x%x f64 0x%x "
                                         "want 0x%x",
                                         tl_dtype_name(f->t), tl_round_name(m), lo, hi, w - 1, g32,
                                         g64, want);
                        }
                    }
                    // Exact values stay put in every mode.
                    if (enc_f32(f->t, (float)a, m) != pa || enc_f64(f->t, a, m) != pa) {
                        fails++;
                        tl_test_fail(t, __FILE__, __LINE__, "%s %s exact %a not kept",
                                     tl_dtype_name(f->t), tl_round_name(m), a);
                    }
                }
            }
        }
    }
}

// Values at and around the overflow threshold, plus Inf.
TEST(overflow_thresholds)
{
    for (size_t k = 0; k < TL_ARRAY_LEN(fmts); k++) {
        const fmt_t *f = &fmts[k];
        double max = value_of(f, max_pat(f));
        double ulp = max - value_of(f, max_pat(f) - 1);
        double thr = max + ulp / 2; // ties go to the even neighbour: Inf
        // Neighbours in float64 and in float32, so both sources probe each side.
        double pts[] = {max,
                        nextafter(max, INFINITY),
                        nextafterf((float)max, INFINITY),
                        nextafter(thr, 0),
                        nextafterf((float)thr, 0),
                        thr,
                        nextafter(thr, INFINITY),
                        nextafterf((float)thr, INFINITY),
                        thr + ulp / 4,
                        2 * max,
                        FLT_MAX,
                        1e300,
                        INFINITY};
        for (size_t i = 0; i < TL_ARRAY_LEN(pts); i++) {
            for (unsigned s = 0; s < 2; s++) {
                double x = s ? -pts[i] : pts[i];
                unsigned sb = s ? sign_bit(f) : 0;
                for (size_t mi = 0; mi < TL_ARRAY_LEN(modes); mi++) {
                    tl_round_t m = modes[mi];
                    bool to_inf;
                    if (isinf(x) || i == 0)
                        to_inf = isinf(x); // exact values
                    else if (m == TL_CAST_NONE || m == TL_CAST_RINT || m == TL_CAST_ROUND)
                        to_inf = pts[i] >= thr;
                    else
                        to_inf = (m == TL_CAST_FLOOR && s) || (m == TL_CAST_CEIL && !s);
                    unsigned want = sb | (to_inf && !f->fn ? inf_pat(f) : max_pat(f));
                    unsigned g64 = enc_f64(f->t, x, m);
                    CHECK_EQ(g64, want);
                    if ((double)(float)x == x) CHECK_EQ(enc_f32(f->t, (float)x, m), want);
                    if (g64 != want)
                        tl_test_fail(t, __FILE__, __LINE__, "%s %s %a", tl_dtype_name(f->t),
                                     tl_round_name(m), x);
                }
            }
        }
    }
}

TEST(nan_zero_and_f32_subnormals)
{
    for (size_t k = 0; k < TL_ARRAY_LEN(fmts); k++) {
        const fmt_t *f = &fmts[k];
        unsigned sb = sign_bit(f);
        unsigned qnan =
            f->fn ? inf_pat(f) | ((1u << f->mbits) - 1) : inf_pat(f) | (1u << (f->mbits - 1));
        float snan = tl_f32_from_bits(0x7f800001u), nsnan = tl_f32_from_bits(0xff800001u);
        for (size_t mi = 0; mi < TL_ARRAY_LEN(modes); mi++) {
            tl_round_t m = modes[mi];
            CHECK_EQ(enc_f32(f->t, NAN, m), qnan);
            CHECK_EQ(enc_f32(f->t, -NAN, m), sb | qnan);
            CHECK_EQ(enc_f32(f->t, snan, m), qnan); // signalling NaN comes out quiet
            CHECK_EQ(enc_f32(f->t, nsnan, m), sb | qnan);
            CHECK_EQ(enc_f64(f->t, -NAN, m), sb | qnan);
            CHECK_EQ(enc_f32(f->t, 0.0f, m), 0);
            CHECK_EQ(enc_f32(f->t, -0.0f, m), sb);
            CHECK_EQ(enc_f64(f->t, -0.0, m), sb);
        }
        // float32 subnormals: for the formats with a smaller exponent range all
        // of them are below half the smallest subnormal.
        if (f->t == TL_BF16) continue;
        float tiny[] = {FLT_TRUE_MIN, 0x1p-130f, nextafterf(FLT_MIN, 0)};
        for (size_t i = 0; i < TL_ARRAY_LEN(tiny); i++) {
            for (unsigned s = 0; s < 2; s++) {
                float x = s ? -tiny[i] : tiny[i];
                unsigned z = s ? sb : 0;
                CHECK_EQ(enc_f32(f->t, x, TL_CAST_RINT), z);
                CHECK_EQ(enc_f32(f->t, x, TL_CAST_ROUND), z);
                CHECK_EQ(enc_f32(f->t, x, TL_CAST_TRUNC), z);
                CHECK_EQ(enc_f32(f->t, x, TL_CAST_ODD), z | 1);
                CHECK_EQ(enc_f32(f->t, x, TL_CAST_FLOOR), s ? z | 1 : z);
                CHECK_EQ(enc_f32(f->t, x, TL_CAST_CEIL), s ? z : z | 1);
            }
        }
    }
    // bfloat16 keeps float32's exponent range: its subnormals come from f32 ones.
    CHECK_EQ(tl_f32_to_bf16(tl_f32_from_bits(0x00008000u), TL_CAST_RINT), 0x0000); // tie -> even
    CHECK_EQ(tl_f32_to_bf16(tl_f32_from_bits(0x00008000u), TL_CAST_ROUND), 0x0001);
    CHECK_EQ(tl_f32_to_bf16(tl_f32_from_bits(0x00018000u), TL_CAST_RINT), 0x0002);
    CHECK_EQ(tl_f32_to_bf16(tl_f32_from_bits(0x80028000u), TL_CAST_RINT), 0x8002);
    CHECK_EQ(tl_f32_to_bf16(tl_f32_from_bits(0x80028000u), TL_CAST_ROUND), 0x8003);
    CHECK_EQ(tl_f32_to_bf16(FLT_TRUE_MIN, TL_CAST_CEIL), 0x0001);
    CHECK_EQ(tl_f32_to_bf16(-FLT_TRUE_MIN, TL_CAST_FLOOR), 0x8001);
    CHECK_EQ(tl_f32_to_bf16(-FLT_TRUE_MIN, TL_CAST_CEIL), 0x8000);
    CHECK_EQ(tl_f32_to_bf16(tl_f32_from_bits(0x007fffffu), TL_CAST_RINT), 0x0080); // -> FLT_MIN
}

// The inline fast paths give the same bits as the generic routine.
static void check_fast(tl_test_t *t, uint32_t u, tl_round_t mode, int *fails)
{
    static const tl_dtype_t ts[] = {TL_BF16, TL_F16, TL_F8E4M3, TL_F8E5M2};
    float x = tl_f32_from_bits(u);
    tl_xval_t v = tl_dtype_xval_f64(x);
    for (size_t k = 0; k < TL_ARRAY_LEN(ts); k++) {
        unsigned g = (unsigned)tl_dtype_xval_round(ts[k], v, mode), f;
        switch (ts[k]) {
        case TL_BF16: f = tl_f32_to_bf16_fast(x, mode); break;
        case TL_F16: f = tl_f32_to_f16_fast(x, mode); break;
        case TL_F8E4M3: f = tl_f32_to_f8e4m3_fast(x, mode); break;
        default: f = tl_f32_to_f8e5m2_fast(x, mode); break;
        }
        if (mode == TL_CAST_RINT && ts[k] == TL_BF16 && tl_f32_to_bf16_rint(x) != g) f = ~g;
        if (f != g && (*fails)++ < 5)
            tl_test_fail(t, __FILE__, __LINE__, "f32 0x%08x -> %s %s: fast 0x%x generic 0x%x", u,
                         tl_dtype_name(ts[k]), tl_round_name(mode), f, g);
    }
}

TEST(fast_paths_match_generic)
{
    int fails = 0;
    for (size_t mi = 0; mi < TL_ARRAY_LEN(modes); mi++) {
        tl_round_t m = modes[mi];
        uint32_t step = m == TL_CAST_RINT ? 1021 : 65521; // RINT is the hot one: denser
        for (uint64_t u = 0; u < (UINT64_C(1) << 32); u += step)
            check_fast(t, (uint32_t)u, m, &fails);
        // Around every bfloat16 rounding boundary (every 8th for the other modes)...
        static const uint32_t low16[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
        for (uint32_t hi = 0; hi < 0x10000; hi += m == TL_CAST_RINT ? 1 : 8) {
            for (size_t i = 0; i < TL_ARRAY_LEN(low16); i++)
                check_fast(t, hi << 16 | low16[i], m, &fails);
        }
        // ...and every float16 one in its range incl. subnormals (which covers
        // every fp8 boundary).
        static const uint32_t low13[] = {0x0000, 0x0fff, 0x1000, 0x1001, 0x1fff};
        for (uint32_t u = 0x33000000u; u < 0x47800000u; u += m == TL_CAST_RINT ? 0x2000 : 0x6000) {
            for (size_t i = 0; i < TL_ARRAY_LEN(low13); i++) {
                check_fast(t, u | low13[i], m, &fails);
                check_fast(t, 0x80000000u | u | low13[i], m, &fails);
            }
        }
    }
    CHECK_EQ(fails, 0);
    // Decodes: fast path against the exact generic load.
    for (uint32_t b = 0; b < 0x100; b++) {
        uint8_t bb = (uint8_t)b;
        tl_xval_t v4 = tl_dtype_xval_load(TL_F8E4M3, &bb, 0),
                  v5 = tl_dtype_xval_load(TL_F8E5M2, &bb, 0);
        float f4 = tl_f8e4m3_to_f32_fast(bb), f5 = tl_f8e5m2_to_f32_fast(bb);
        if (v4.cls == TL_XV_FINITE)
            CHECK(f4 == (v4.neg ? -1.0 : 1.0) * ldexp((double)v4.mag, v4.exp));
        else
            CHECK(v4.cls == TL_XV_NAN && isnan(f4));
        if (v5.cls == TL_XV_FINITE)
            CHECK(f5 == (v5.neg ? -1.0 : 1.0) * ldexp((double)v5.mag, v5.exp));
        else
            CHECK(v5.cls == TL_XV_NAN ? isnan(f5) : isinf(f5));
    }
    for (uint32_t h = 0; h < 0x10000; h++) {
        uint16_t hh = (uint16_t)h;
        tl_xval_t vb = tl_dtype_xval_load(TL_BF16, &hh, 0), vh = tl_dtype_xval_load(TL_F16, &hh, 0);
        float fb = tl_bf16_to_f32_fast(hh), fh = tl_f16_to_f32_fast(hh);
        if (vb.cls == TL_XV_FINITE)
            CHECK(fb == (vb.neg ? -1.0 : 1.0) * ldexp((double)vb.mag, vb.exp));
        else
            CHECK(vb.cls == TL_XV_NAN ? isnan(fb) : isinf(fb));
        if (vh.cls == TL_XV_FINITE)
            CHECK(fh == (vh.neg ? -1.0 : 1.0) * ldexp((double)vh.mag, vh.exp));
        else
            CHECK(vh.cls == TL_XV_NAN ? isnan(fh) : isinf(fh));
    }
}

// float64 -> narrow must not go through float32 (double rounding).
TEST(f64_sources_round_once)
{
    double d = 1.0 + 0x1p-8 + 0x1p-30; // via f32: 1 + 2^-8, a tie, -> 1.0
    CHECK_EQ(enc_f64(TL_BF16, d, TL_CAST_RINT), 0x3f81);
    CHECK_EQ(enc_f64(TL_BF16, -d, TL_CAST_RINT), 0xbf81);
    double e = 1.0 + 0x1p-11 + 0x1p-40;
    CHECK_EQ(enc_f64(TL_F16, e, TL_CAST_RINT), 0x3c01);
    CHECK_EQ(enc_f64(TL_F8E4M3, 1.0 + 0x1p-4 + 0x1p-50, TL_CAST_RINT), 0x39);
    // ODD then RINT: 1 + 2^-8 + 2^-60 -> bf16 ODD gives the odd neighbour 1 + 2^-7.
    CHECK_EQ(enc_f64(TL_BF16, 1.0 + 0x1p-9 + 0x1p-60, TL_CAST_ODD), 0x3f81);
    CHECK_EQ(enc_f64(TL_BF16, 1.0 + 0x1p-9 + 0x1p-60, TL_CAST_TRUNC), 0x3f80);
    // float64 -> float32 with each mode.
    double g = 1.0 + 0x1p-24;
    CHECK(tl_f64_to_f32(g, TL_CAST_RINT) == 1.0f);
    CHECK(tl_f64_to_f32(g, TL_CAST_ROUND) == 1.0f + 0x1p-23f);
    CHECK(tl_f64_to_f32(g, TL_CAST_CEIL) == 1.0f + 0x1p-23f);
    CHECK(tl_f64_to_f32(-g, TL_CAST_FLOOR) == -1.0f - 0x1p-23f);
    CHECK(tl_f64_to_f32(-g, TL_CAST_TRUNC) == -1.0f);
    CHECK(tl_f64_to_f32(g, TL_CAST_ODD) == 1.0f + 0x1p-23f);
    CHECK(tl_f64_to_f32(1e300, TL_CAST_TRUNC) == FLT_MAX);
    CHECK(isinf(tl_f64_to_f32(1e300, TL_CAST_ROUND)));
    CHECK(tl_f64_to_f32(-1e300, TL_CAST_CEIL) == -FLT_MAX);
    CHECK(tl_f64_to_f32(0x1p-150, TL_CAST_RINT) == 0.0f); // tie with 0
    CHECK(tl_f64_to_f32(0x1p-150, TL_CAST_ROUND) == 0x1p-149f);
    CHECK(tl_f64_to_f32(0x1.8p-149, TL_CAST_RINT) == 0x1p-148f); // tie -> even (2 units)
    CHECK(tl_f64_to_f32(1e-300, TL_CAST_ODD) == 0x1p-149f);
    CHECK(signbit(tl_f64_to_f32(-1e-300, TL_CAST_RINT)));
}
