// Scalar values with the IR's dtype semantics, shared by the reference
// executor (its scalar expressions) and the CPU target (its constants and
// conversions), so that both compute the same bits: integers computed in 64
// bits and wrapped to their dtype, floats rounded (RINT) to theirs; casts by
// dtype.h (float -> int truncates and saturates, NaN -> 0; int -> int wraps as
// the IR's constant folder does).
#ifndef TL_EXEC_NUM_H
#define TL_EXEC_NUM_H

#include "base/buf.h"
#include "base/dtype.h"

// A scalar value: floats in f (already rounded to t), everything else in i
// (wrapped to t; uint64 keeps its bits).
typedef struct {
    tl_dtype_t t;
    int64_t i;
    double f;
} tl_num_t;

tl_num_t tl_num_cast(tl_num_t v, tl_dtype_t t);
tl_num_t tl_num_int(int64_t v, tl_dtype_t t); // the integer v cast to t
bool tl_num_true(tl_num_t v);
bool tl_num_same(tl_num_t a, tl_num_t b); // equal values (NaN equals NaN)
void tl_num_print(tl_buf_t *b, tl_num_t v);
tl_num_t tl_num_load(tl_dtype_t t, const uint8_t *p);
void tl_num_store(tl_dtype_t t, uint8_t *p, tl_num_t v); // v converted to t
// v wrapped to the width of integer type t (two's complement); bool is v != 0.
int64_t tl_num_wrap(int64_t v, tl_dtype_t t);
// f rounded to float type t (RINT), as a double.
double tl_num_round(tl_dtype_t t, double f);

#endif
