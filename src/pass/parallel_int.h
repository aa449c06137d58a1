// Internals of the parallel pass shared by parallel.c (the nests: which
// loops, the body's statements, the checks that make the lowering exact) and
// parallel_lower.c (one element store as vector tile ops).
#ifndef TL_PASS_PARALLEL_INT_H
#define TL_PASS_PARALLEL_INT_H

#include "pass/pass.h"

typedef enum { V_SCALAR, V_ROW, V_COL, V_TILE } vclass_t;

enum { MAX_TEMPS = 64, DST = -2 };

// A value during lowering: elements in a region (real buffer or temporary), or
// a scalar expression.
typedef struct {
    vclass_t cls;
    tl_dtype_t t;
    tl_region_t r;
    tl_expr_t *s;
    int temp;    // temporary index, DST (held in the destination) or -1
    bool is_dst; // a load of the destination (consumed when an op reads it)
} val_t;

typedef struct {
    tl_buffer_t *b;
    vclass_t cls;
    tl_dtype_t t;
    bool mask; // a compare bit mask for values of class cls
    bool busy;
} temp_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    int counter; // temporary names
    // the nest: all its loops, the inner ones vectorised
    int nall;
    tl_stmt_t *loops[TL_MAX_DIMS];
    tl_var_t *var[TL_MAX_DIMS];
    int64_t lo[TL_MAX_DIMS], ext[TL_MAX_DIMS];
    bool known[TL_MAX_DIMS]; // constant bounds
    int first;               // index of the first inner loop
    int n;                   // number of inner loops
    tl_stmt_t *out;
    tl_loc_t loc;
    temp_t temps[MAX_TEMPS];
    int ntemps;
    // failure
    const char *why;
    tl_loc_t why_loc;
    char whybuf[256];
    // the store being lowered
    tl_buffer_t *dst;
    tl_region_t dst_r;
    int pending;    // loads of dst not yet consumed by an op
    bool dst_busy;  // dst holds an intermediate value
    bool no_tiles;  // no temporaries of the nest's full shape (see lower_nest)
    bool dst_plain; // dst_r's extents before its last two are 1 (a broadcast target)
    bool bcast;     // choosing the target of a broadcast
} lower_t;

// Records why the nest is not lowered (the first reason only); returns false.
bool par_fail(lower_t *L, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
// How many loads of buffer b expression e contains.
int par_count_loads(const tl_expr_t *e, const tl_buffer_t *b);
// dst[idx] = value as vector ops appended to L->out, over the inner loops of
// the nest (L->first on); false with L->why when it cannot be.
bool par_lower_store(lower_t *L, tl_buffer_t *dst, int nidx, tl_expr_t *const *idx,
                     tl_expr_t *value, tl_loc_t loc);

#endif
