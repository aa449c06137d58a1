// tilec's float32 e^x (tl_expf), the exp of the tile ops (T.tile.exp,
// sigmoid, silu) on every backend. It is computed in double precision with
// IEEE operations only (fma included, which C specifies exactly), so any
// implementation doing the same operations - the AVX-512 one of
// src/cpu/cpufast.c - gives the same bits, on any host and C library:
//
//   k = x * 8/ln2 rounded to an integer (nearest, ties even), k = 8m + j
//   r = x - k * ln2/8                  (two fma steps, ln2/8 = TL_FEXP_L1 + TL_FEXP_L2)
//   p = 1 + r + r^2/2! + ... + r^8/8!  (Horner, fma; |r| <= ln2/16 + tiny)
//   e^x = p * 2^(j/8) * 2^m            (tl_fexp_tab[j] with m added to its exponent)
//
// rounded once to float. Before that rounding the relative error is a few
// 2^-53, so the result is the correctly rounded e^x except where e^x lies
// within that of a halfway point between floats (see the exhaustive check
// in docs/cpu.md). x is clamped to [-150, 100] first (the float results
// there are already 0 and +inf); NaN gives a quiet NaN with its payload.
#ifndef TL_BASE_FEXP_H
#define TL_BASE_FEXP_H

#define TL_FEXP_INV_L 0x1.71547652b82fep+3  // 8 / ln2
#define TL_FEXP_L1    0x1.62e42fefa39efp-4  // ln2/8, high part
#define TL_FEXP_L2    0x1.abc9e3b39803fp-59 // ln2/8 - TL_FEXP_L1
#define TL_FEXP_SHIFT 0x1.8p52              // adding it rounds to an integer
#define TL_FEXP_LO    -150.0
#define TL_FEXP_HI    100.0

// 2^(j/8), j = 0..7, rounded to double.
extern const double tl_fexp_tab[8];
// 1/k! for k = 8 down to 2, rounded to double (the Horner order).
extern const double tl_fexp_poly[7];

float tl_expf(float x);

#endif
