// Internals of the inline loops of element-wise tile ops (cgen_fuse.c):
// the group of ops a loop runs and its spans, shared by the analysis
// (cgen_fuse.c), the scalar form (cgen_fuse_scalar.c), the AVX-512 form
// (cgen_fuse_avx.c), the row reductions (cgen_fuse_rows.c) and the runs of
// statements (cgen_fuse_run.c).
#ifndef TL_CPU_CGEN_FUSE_INT_H
#define TL_CPU_CGEN_FUSE_INT_H

#include "cpu/cgen.h"

enum { MAX_SPANS = 32, MAX_OPS = 24, MAX_UNITS = 64, MAX_FEET = 128 };

typedef struct {
    const tl_buffer_t *buf;
    const tl_region_t *reg; // its region (the starts identify the span)
    char *off;              // flat element offset (C text)
    int64_t lo, hi;         // bytes of the scratchpad it may touch
    bool vec;               // a row operand: element r for row r
    bool red;               // a row reduction's output: element r for row r
    bool written;
    bool dead;   // written, and no later statement reads it: not stored
    bool refold; // read by a row max/min that refolds it from memory (see join)
    bool early;  // read by an op of the group before (or as) one writes it
    int last;    // opcode of the op that last wrote it in the group (-1: none)
    int out;     // > 0: stored through W<out - 1>, maybe in GM (see "written in place")
} span_t;

typedef struct {
    const tl_stmt_t *s;
    int sp[3];   // group span indices: destination, then sources (-1: none)
    char *sc[2]; // scalar operands (float C text)
    int nspan, nsc;
    bool absmax; // a row max of an abs computed in the group (folded on the bits, see zemit_op)
} fop_t;

typedef struct {
    span_t sp[MAX_SPANS];
    int nsp;
    fop_t op[MAX_OPS];
    int nop;
    int64_t n, cols; // elements; row length of row_expand ops and reductions (0: none)
} group_t;

static inline bool is_reduce(tl_opcode_t code)
{
    return code == TL_OP_REDUCE_MAX || code == TL_OP_REDUCE_MIN;
}

// The operator op o applies element by element (the op table's bin column),
// with a scalar second operand as fuse_analyse passes it: sub's scalar
// negated (an add), div's the reciprocal (a product); TL_BIN_NONE for an op
// without one.
static inline tl_binop_t fuse_binop(const fop_t *o)
{
    tl_binop_t b = tl_op_info(o->s->op.code)->bin;
    if (o->nspan > 2) return b;
    return b == TL_BIN_SUB ? TL_BIN_ADD : b == TL_BIN_DIV ? TL_BIN_MUL : b;
}

// A candidate op before it joins the group.
typedef struct {
    span_t sp[3];
    int nsp;
    char *sc[2];
    int nsc;
    int64_t n, cols;
} cand_t;

// What the vector form knows about a float32 value: every lane lies in
// [lo, hi] or is NaN (known), or is an integer or NaN (integral).
typedef struct {
    bool known, integral;
    double lo, hi;
} vrange_t;

typedef struct {
    tl_cgen_t *g;
    group_t *gr;
    int base;           // name prefix number
    int val[MAX_SPANS]; // temp holding the span's element this iteration, or -1
    int tmp;
    bool tail;               // scalar tail of a vector loop: float16 elements converted one by one
    bool dirty[MAX_SPANS];   // vector form: span written this iteration (stored at its end)
    vrange_t rng[MAX_SPANS]; // vector form: what is known of the value of val[i]
    int exact[MAX_SPANS];    // float16 value of val[i]: the float32 temp it equals, or -1
    int unround[MAX_SPANS];  // val[i] = round(the float32 temp unround[i]), or -1
} emit_t;

// --- analysis (cgen_fuse.c) -------------------------------------------------------------
void fuse_cand_free(cand_t *c);
void fuse_group_free(group_t *gr);
// The span of region operand i of op (count < 0: the region, which must be
// contiguous; else `count` elements from its start).
// Whether two spans never share a byte of the scratchpad.
bool fuse_disjoint(const span_t *a, const span_t *b);
bool fuse_region_span(tl_cgen_t *g, const tl_op_t *op, int i, int64_t count, cand_t *c);
// Operands of op s, if it is one of the supported ops.
bool fuse_analyse(tl_cgen_t *g, const tl_stmt_t *s, cand_t *c);
// Adds candidate c (op s) to the group when its spans allow it; takes c's texts.
bool fuse_join(group_t *gr, const tl_stmt_t *s, cand_t *c);

// --- emission (cgen_fuse_scalar.c, cgen_fuse_avx.c) ----------------------------------------
// The group's loop (both forms).
void fuse_emit(tl_cgen_t *g, group_t *gr);
// Op o in scalar form; sc: its scalar operands.
void fuse_emit_op(emit_t *e, const fop_t *o, const char *const *sc);
// The group's loop in vector form (inside #if TLC_V512).
void fuse_emit_vector(emit_t *e, const char *const (*sc)[2], int64_t cols);

// --- row reductions (cgen_fuse_rows.c) ------------------------------------------------------
const char *fuse_red_fill(const fop_t *o);
void fuse_red_begin(emit_t *e);
void fuse_red_end(emit_t *e, bool refold);
void fuse_red_fold(emit_t *e, const fop_t *o, const char *v);
// A row sum (or a row max / min alone) at s on every lane of mask: emitted, 1; else 0.
int fuse_rsum(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope);

// --- runs of statements (cgen_fuse_run.c) -------------------------------------------------
// Whether leaf s, pushed on `mask`, runs as a tile op on exactly the lanes of *lanes.
bool fuse_op_lanes(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope,
                   unsigned *lanes);

#endif
