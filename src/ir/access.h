// Which buffers a statement reads and writes, for the passes that reason about
// data flow (memory planning, software pipelining, T.Parallel lowering).
//
// A tile op's operands follow the op table's signature letters (w written,
// r/v read, x read and written), with the attributes that change them: a gemm
// whose `init` is the constant true only writes C, a reduction with `clear`
// only writes its output. Scalar loads anywhere in a statement's expressions
// are reads; a scalar store writes one element.
//
// A write is *full* when it certainly overwrites every element of its buffer:
// the destination region covers the whole buffer and the op writes all of it
// (copies from GM fill the rest of the region with the pad value -- 16- and
// 32-bit types; for the others the GM box must be as large as the region; a
// count operand must cover the buffer; a compare writes one bit a source
// element, so its mask is full when those bits fill it; gather and
// reinterpretcast are never full). Passes use full writes to know that a value
// does not flow in from earlier code.
//
// A read is *bounded* when it reads no element outside its region (a scalar
// load: its element): a copy, a tile op whose count operand (if any) is a
// constant within the region, a reduction; never gather, which reads where
// its indices say. Liveness uses it to see a read covered by an earlier
// partial write of the same region.
#ifndef TL_IR_ACCESS_H
#define TL_IR_ACCESS_H

#include "ir/ir.h"

enum { TL_ACCESS_READ = 1, TL_ACCESS_WRITE = 2 };

typedef struct {
    tl_buffer_t *buf;
    unsigned mode;             // TL_ACCESS_READ | TL_ACCESS_WRITE
    bool full;                 // a write of every element of the buffer (see above)
    bool covers;               // a write of every element of its region (or its element)
    const tl_region_t *region; // tile-op operand or print region, else NULL
    int n;                     // scalar load / store: indices
    tl_expr_t *const *idx;
    bool bounded; // a read of no element outside its region (or its element)
} tl_access_t;

typedef void (*tl_access_fn)(void *arg, const tl_access_t *a);

// The accesses of statement s itself: a leaf's operands, stores and loads; for
// a compound statement only its own expressions (loop bounds, conditions), not
// its body.
void tl_access_stmt(const tl_stmt_t *s, tl_access_fn fn, void *arg);
// The accesses of s and of every statement inside it, except the subtree
// `skip` (NULL: none).
void tl_access_tree(const tl_stmt_t *s, const tl_stmt_t *skip, tl_access_fn fn, void *arg);
// The scalar loads in e (and in the indices of those loads).
void tl_access_expr(const tl_expr_t *e, tl_access_fn fn, void *arg);
// Whether region r covers every element of its (on-chip) buffer.
bool tl_access_region_whole(const tl_region_t *r);

#endif
