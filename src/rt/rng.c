// Deterministic generator (xoshiro256** + splitmix64) and tensor fills.
//
// Bit-exact results need every floating operation rounded once, as IEEE 754
// says: forbid contracting a*b+c into an FMA here (GCC's default in GNU mode,
// and what -march=native would make profitable).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "rt/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t tl_rng_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void tl_rng_seed(tl_rng_t *r, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < 4; i++) r->s[i] = tl_rng_splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t tl_rng_next(tl_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double tl_rng_uniform(tl_rng_t *r)
{
    return (double)(tl_rng_next(r) >> 11) * 0x1p-53;
}

uint64_t tl_rng_below(tl_rng_t *r, uint64_t n)
{
    // Reject the lowest (2^64 mod n) values so that every residue is equally likely.
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = tl_rng_next(r);
        if (x >= threshold) return x % n;
    }
}

double tl_rng_log(double x)
{
    if (!(x > 0)) return x == 0 ? -INFINITY : NAN;
    if (x == INFINITY) return x;
    // x = m * 2^e with m in [sqrt(1/2), sqrt(2)), taken apart exactly from the bits.
    int e = 0;
    if (x < 0x1p-1022) x *= 0x1p54, e = -54;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    e += (int)((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
    double m;
    memcpy(&m, &bits, sizeof m);
    if (m > 1.4142135623730951) m *= 0.5, e++;
    // With f = m - 1 (exact) and s = f / (2 + f): log(m) = 2 atanh(s) = 2s + s R,
    // R = 2 z/3 + 2 z^2/5 + ... (z = s^2, |s| <= 0.172: 12 terms are plenty).
    // 2s = f - s f, and s f = h - s h with h = f^2 / 2, so log(m) = f - (h - s (h + R)),
    // which keeps the large term f exact.
    double f = m - 1, s = f / (2 + f), z = s * s, h = 0.5 * f * f, R = 0;
    for (int k = 12; k >= 1; k--) R = (R + 2.0 / (2 * k + 1)) * z;
    // ln 2 split so that e * LN2_HI is exact for |e| < 2^11.
    const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
    return e * LN2_HI - ((h - (s * (h + R) + e * LN2_LO)) - f);
}

double tl_rng_normal(tl_rng_t *r)
{
    if (r->has_spare) {
        r->has_spare = false;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2 * tl_rng_uniform(r) - 1;
        v = 2 * tl_rng_uniform(r) - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double f = sqrt(-2 * tl_rng_log(s) / s);
    r->spare = v * f;
    r->has_spare = true;
    return u * f;
}

tl_status_t tl_rng_fill_uniform(tl_rng_t *r, tl_tensor_t *t, double lo, double hi, tl_diag_t *d)
{
    if (!(lo < hi) || !isfinite(hi - lo))
        return tl_diag_fail(d, TL_ERR_ARG, "rng: uniform range [%g, %g) is empty or not finite", lo,
                            hi);
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    if (tl_tensor_numel(t) == 0) return TL_OK;
    do {
        double v;
        do v = lo + (hi - lo) * tl_rng_uniform(r);
        while (v >= hi); // the product can round up to hi
        tl_tensor_set(t, idx, v);
    } while (tl_tensor_next_index(t, idx));
    return TL_OK;
}

tl_status_t tl_rng_fill_normal(tl_rng_t *r, tl_tensor_t *t, double mean, double std, tl_diag_t *d)
{
    if (!isfinite(mean) || !isfinite(std) || std < 0)
        return tl_diag_fail(d, TL_ERR_ARG,
                            "rng: normal(mean %g, std %g) needs a finite mean and std >= 0", mean,
                            std);
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    if (tl_tensor_numel(t) == 0) return TL_OK;
    do tl_tensor_set(t, idx, mean + std * tl_rng_normal(r));
    while (tl_tensor_next_index(t, idx));
    return TL_OK;
}

// Integers in [lo, lo + n - 1] (n == 0 means the whole 64-bit range).
static int64_t draw_int(tl_rng_t *r, int64_t lo, uint64_t n)
{
    uint64_t x = n ? tl_rng_below(r, n) : tl_rng_next(r);
    return (int64_t)((uint64_t)lo + x);
}

static void store_int(tl_tensor_t *t, const int64_t *idx, int64_t v)
{
    if (tl_dtype_is_float(t->dtype))
        tl_tensor_set(t, idx, (double)v);
    else
        tl_tensor_set_i64(t, idx, v);
}

// Whether every integer in [lo, hi] is an exact value of an integer dtype.
static bool int_range_fits(tl_dtype_t dt, int64_t lo, int64_t hi)
{
    if (tl_dtype_is_float(dt)) return true;
    if (dt == TL_U64) return lo >= 0;
    return (double)lo >= tl_dtype_min(dt) && (double)hi <= tl_dtype_max(dt);
}

tl_status_t tl_rng_fill_int(tl_rng_t *r, tl_tensor_t *t, int64_t lo, int64_t hi, tl_diag_t *d)
{
    if (lo > hi)
        return tl_diag_fail(d, TL_ERR_ARG, "rng: integer range [%lld, %lld] is empty",
                            (long long)lo, (long long)hi);
    if (!int_range_fits(t->dtype, lo, hi))
        return tl_diag_fail(d, TL_ERR_ARG, "rng: integer range [%lld, %lld] does not fit %s",
                            (long long)lo, (long long)hi, tl_dtype_name(t->dtype));
    uint64_t n = (uint64_t)hi - (uint64_t)lo + 1;
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    if (tl_tensor_numel(t) == 0) return TL_OK;
    do store_int(t, idx, draw_int(r, lo, n));
    while (tl_tensor_next_index(t, idx));
    return TL_OK;
}

// Largest n such that 0 .. n-1 are all exact in a float dtype: 2^p + 1.
static double float_exact_count(tl_dtype_t dt)
{
    switch (dt) {
    case TL_F8E5M2: return 0x1p3 + 1;
    case TL_F8E4M3: return 0x1p4 + 1;
    case TL_BF16: return 0x1p8 + 1;
    case TL_F16: return 0x1p11 + 1;
    case TL_F32: return 0x1p24 + 1;
    default: return 0x1p53 + 1;
    }
}

// A sparse Fisher-Yates shuffle: only the positions that were swapped are
// stored, in an open-addressing table of (position, value) pairs.
typedef struct {
    int64_t *keys, *vals;
    size_t mask;
} swaps_t;

static size_t slot(const swaps_t *w, int64_t key)
{
    size_t h = (size_t)((uint64_t)key * 0x9e3779b97f4a7c15ull >> 20) & w->mask;
    while (w->keys[h] >= 0 && w->keys[h] != key) h = (h + 1) & w->mask;
    return h;
}

static int64_t swaps_get(const swaps_t *w, int64_t pos)
{
    size_t h = slot(w, pos);
    return w->keys[h] < 0 ? pos : w->vals[h];
}

static void swaps_put(swaps_t *w, int64_t pos, int64_t val)
{
    size_t h = slot(w, pos);
    w->keys[h] = pos;
    w->vals[h] = val;
}

tl_status_t tl_rng_fill_distinct(tl_rng_t *r, tl_tensor_t *t, int64_t n, tl_diag_t *d)
{
    if (t->ndim < 1)
        return tl_diag_fail(d, TL_ERR_ARG, "rng: distinct fill needs a tensor of rank >= 1");
    int64_t k = t->shape[t->ndim - 1];
    if (n < k)
        return tl_diag_fail(d, TL_ERR_ARG, "rng: cannot draw %lld distinct integers from [0, %lld)",
                            (long long)k, (long long)n);
    bool fits = tl_dtype_is_float(t->dtype) ? (double)n <= float_exact_count(t->dtype)
                                            : int_range_fits(t->dtype, 0, n - 1);
    if (!fits)
        return tl_diag_fail(d, TL_ERR_ARG, "rng: integers up to %lld are not all exact in %s",
                            (long long)(n - 1), tl_dtype_name(t->dtype));
    if (tl_tensor_numel(t) == 0) return TL_OK;
    size_t cap = 16;
    while (cap < 2 * (size_t)k) cap *= 2;
    swaps_t w = {malloc(cap * sizeof(int64_t)), malloc(cap * sizeof(int64_t)), cap - 1};
    if (!w.keys || !w.vals) {
        free(w.keys);
        free(w.vals);
        return tl_diag_fail(d, TL_ERR_NOMEM, "rng: out of memory");
    }
    int64_t idx[TL_TENSOR_MAX_DIMS] = {0};
    do {
        int64_t j = idx[t->ndim - 1];
        if (j == 0) memset(w.keys, 0xff, cap * sizeof(int64_t)); // a new row: all empty (-1)
        int64_t pick = j + (int64_t)tl_rng_below(r, (uint64_t)(n - j));
        int64_t vj = swaps_get(&w, j), vp = swaps_get(&w, pick);
        swaps_put(&w, pick, vj); // position j is never drawn again
        store_int(t, idx, vp);
    } while (tl_tensor_next_index(t, idx));
    free(w.keys);
    free(w.vals);
    return TL_OK;
}
