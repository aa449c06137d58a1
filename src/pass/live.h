// Buffer lifetimes over the structured program, for memory planning and the
// passes that must know whether a value flows around a loop.
//
// Every leaf statement gets a position in program order (a compound
// statement's header, its loop bounds or condition, gets one too). A buffer is
// live from its first to its last access, widened by the loops (inner loops
// first):
//  - a buffer accessed both before a loop and inside it is live for the whole
//    loop (a value defined before and used inside must survive every iteration);
//  - a buffer first accessed inside a loop whose value is carried around the
//    loop's back edge (read in the body before the body certainly overwrote all
//    of it) or out of the loop (read by the code after the loop, to the end of
//    the kernel, before that code certainly overwrote it) is live for the whole
//    loop.
// "Certainly overwrote" is a must-write analysis: full writes (access.h), the
// intersection of both branches of an if, what the then-branch of an earlier if
// on the same condition wrote (a condition with no loads: it cannot change in
// the iteration), and loops with constant bounds that write one slice per
// iteration and so cover the buffer (a row per iteration, `x[i, :]` for i in
// range(rows), scalar stores `b[j]` for j in range(n)).
#ifndef TL_PASS_LIVE_H
#define TL_PASS_LIVE_H

#include "ir/ir.h"

typedef struct {
    int start, end; // first and last live position (inclusive); start < 0: never accessed
} tl_live_range_t;

typedef struct {
    int npos;
    const tl_stmt_t **at;   // the statement at each position
    tl_live_range_t *range; // per buffer id
} tl_live_t;

tl_status_t tl_live_compute(const tl_kernel_t *k, tl_live_t *out);
// Upstream's intervals (tilelang-ascend src/transform/ascend_memory_planning.cc,
// LivenessAnalysis + ReorderKillPoints): first to last access, the end moved
// to the end of a loop only for a buffer accessed before the loop and in it.
// A buffer first accessed in a loop is not live before that access in any
// iteration, even when its value is carried around the back edge or read
// after the loop, so another buffer may share its bytes there (memplan's last
// resort, with a warning).
tl_status_t tl_live_compute_upstream(const tl_kernel_t *k, tl_live_t *out);
void tl_live_free(tl_live_t *l);

// Whether some value of b is read in one iteration of `loop` (a for or while
// statement) before the iteration certainly overwrote all of b.
bool tl_live_carried(const tl_kernel_t *k, const tl_stmt_t *loop, const tl_buffer_t *b);
// Whether a break or continue in s leaves s (those of nested loops do not).
bool tl_live_escapes(const tl_stmt_t *s);

#endif
