// Static memory hazards for the synchronisation passes (cross_sync, intra_sync):
// which part of which buffer a statement touches, on which hardware pipe, and
// whether two such accesses may touch a common 32-byte granule (the unit the
// simulator's race detector tracks).
//
// An access is a box (a start expression and a constant extent per dimension,
// as copies, gemm and reduction inputs touch memory) or a flat span from the
// region origin (vector operands). Scalar loads and stores are one-element
// boxes on PIPE_S; the scalar loads inside a tile op's operands (a UB element
// as src1, an index read from UB) happen on PIPE_S when the op issues.
// T.gemm_v0 reads its L1 operands on MTE1 and works on L0C on M, as the device
// helper (and the simulator) do.
//
// Two accesses are compared in given iterations of their loops: the caller
// says, per variable, whether its value is the same for both (EQ), strictly
// larger for the second (LATER: the second runs in a later iteration of that
// loop) or unrelated (ANY). Let-bound variables whose value reads no memory are
// replaced by their definitions; other lets follow their innermost loop.
#ifndef TL_PASS_HAZARD_H
#define TL_PASS_HAZARD_H

#include "ir/ir.h"

typedef enum { TL_HAZARD_EQ, TL_HAZARD_LATER, TL_HAZARD_ANY } tl_hazard_rel_t;

typedef struct {
    const tl_stmt_t *stmt;
    const tl_buffer_t *buf;
    tl_pipe_t pipe;
    bool write;
    bool flat; // a flat span of `len` elements from the origin `start`
    int ndim;
    const tl_expr_t *start[TL_MAX_DIMS]; // NULL means 0
    int64_t ext[TL_MAX_DIMS];            // box extents; -1: up to the end of the dimension
    int64_t len;                         // flat: elements; -1: up to the end of the buffer
} tl_hazard_access_t;

typedef struct tl_hazard_ctx tl_hazard_ctx_t;

// Let definitions and their loops, collected from k's body once.
tl_hazard_ctx_t *tl_hazard_ctx_new(const tl_kernel_t *k);
void tl_hazard_ctx_free(tl_hazard_ctx_t *c);

// The accesses of statement s itself (a leaf's memory; a compound statement's
// own bounds or condition). Registers (alloc_var) are not memory here.
typedef void (*tl_hazard_fn)(void *arg, const tl_hazard_access_t *a);
void tl_hazard_stmt(const tl_stmt_t *s, tl_hazard_fn fn, void *arg);

// Relation of variable v between the two accesses compared.
typedef tl_hazard_rel_t (*tl_hazard_rel_fn)(void *arg, const tl_var_t *v);

// Whether a and b may touch a common 32-byte granule (false only when proven
// disjoint). Buffers without a planned address never alias each other.
bool tl_hazard_overlap(const tl_hazard_ctx_t *c, const tl_hazard_access_t *a,
                       const tl_hazard_access_t *b, tl_hazard_rel_fn rel, void *arg);

// Whether the expression mentions variable v (directly or through any let).
bool tl_hazard_mentions(const tl_hazard_ctx_t *c, const tl_expr_t *e, const tl_var_t *v);

#endif
