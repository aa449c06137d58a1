// AVX-512 forms of the tile ops built on tl_expf (base/fexp.h): the same
// operations on 8 doubles at a time, so the same bits as the scalar code of
// the tile-op library (tileop_unary.c).
#ifndef TL_CPU_FEXP_AVX512_H
#define TL_CPU_FEXP_AVX512_H

#include <stdint.h>

#include "ir/ir.h"

// d[i] = op(a[i]) for i < n, op exp (tl_expf), sigmoid (1 / (1 + tl_expf(-x)))
// or silu (x / (1 + tl_expf(-x))) in float32; d and a the same or disjoint.
// The AVX-512 code (TL_X86_64, GCC) needs a caller that checked AVX-512F
// (cpufast.c); elsewhere this is the scalar loop.
void tl_fexp_avx512(tl_opcode_t op, float *d, const float *a, int64_t n);

#endif
