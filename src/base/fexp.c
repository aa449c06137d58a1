// tl_expf: see fexp.h for the method and why its bits are reproducible.
#include "base/fexp.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

const double tl_fexp_tab[8] = {
    0x1p+0,
    0x1.172b83c7d517bp+0,
    0x1.306fe0a31b715p+0,
    0x1.4bfdad5362a27p+0,
    0x1.6a09e667f3bcdp+0,
    0x1.8ace5422aa0dbp+0,
    0x1.ae89f995ad3adp+0,
    0x1.d5818dcfba487p+0,
};

const double tl_fexp_poly[7] = {1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120,
                                1.0 / 24,    1.0 / 6,    1.0 / 2};

float tl_expf(float x)
{
    if (x != x) return x + x;
    double xd = x < TL_FEXP_LO ? TL_FEXP_LO : x > TL_FEXP_HI ? TL_FEXP_HI : (double)x;
    double t = xd * TL_FEXP_INV_L + TL_FEXP_SHIFT;
    double kd = t - TL_FEXP_SHIFT;
    double r = fma(-kd, TL_FEXP_L1, xd);
    r = fma(-kd, TL_FEXP_L2, r);
    double p = tl_fexp_poly[0];
    for (int i = 1; i < 7; i++) p = fma(p, r, tl_fexp_poly[i]);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    uint64_t tb, sb;
    memcpy(&tb, &t, 8);
    int64_t k = (int64_t)(tb - 0x4338000000000000u); // t's bits minus TL_FEXP_SHIFT's: k
    memcpy(&sb, &tl_fexp_tab[k & 7], 8);
    sb += (uint64_t)(k >> 3) << 52;
    double s;
    memcpy(&s, &sb, 8);
    return (float)(p * s);
}
