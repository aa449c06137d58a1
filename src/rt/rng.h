// Deterministic random numbers for test inputs: the same seed gives the same
// tensor bit for bit on every machine, compiler and optimisation level.
//
// The generator is xoshiro256** seeded by splitmix64. Floating values use only
// operations IEEE 754 specifies exactly (+ - * / sqrt); the normal distribution
// uses the Marsaglia polar method with a logarithm written here, not libm's.
// Fills write in row-major order and round to the tensor's dtype with RINT.
#ifndef TL_RT_RNG_H
#define TL_RT_RNG_H

#include "rt/tensor.h"

typedef struct {
    uint64_t s[4];
    double spare; // second value of the last normal pair
    bool has_spare;
} tl_rng_t;

// splitmix64: advances *state and returns the next output.
uint64_t tl_rng_splitmix64(uint64_t *state);
void tl_rng_seed(tl_rng_t *r, uint64_t seed);
uint64_t tl_rng_next(tl_rng_t *r);
double tl_rng_uniform(tl_rng_t *r);             // [0, 1), 53 random bits
uint64_t tl_rng_below(tl_rng_t *r, uint64_t n); // [0, n) without bias; n > 0
double tl_rng_normal(tl_rng_t *r);              // mean 0, standard deviation 1
// Natural logarithm of x > 0 from + - * / only (within 1 ulp of libm's log).
double tl_rng_log(double x);

// Uniform in [lo, hi) before rounding to the dtype (rounding may reach hi).
tl_status_t tl_rng_fill_uniform(tl_rng_t *r, tl_tensor_t *t, double lo, double hi, tl_diag_t *d);
tl_status_t tl_rng_fill_normal(tl_rng_t *r, tl_tensor_t *t, double mean, double std, tl_diag_t *d);
// Integers uniform in [lo, hi] (inclusive); the range must fit an integer dtype.
tl_status_t tl_rng_fill_int(tl_rng_t *r, tl_tensor_t *t, int64_t lo, int64_t hi, tl_diag_t *d);
// Every row (the last dimension, of length k) gets k distinct integers from
// [0, n) in random order (k <= n), e.g. top-k attention indices.
tl_status_t tl_rng_fill_distinct(tl_rng_t *r, tl_tensor_t *t, int64_t n, tl_diag_t *d);

#endif
