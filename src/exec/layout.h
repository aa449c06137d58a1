// The memory layout of a kernel's blocks, one place for every backend that
// runs a kernel in host memory (the reference executor, the simulator through
// it, the CPU target): the address of every on-chip buffer in its agent's
// scratchpad and the bytes of each scratchpad in use. A buffer sits at its
// planned or pinned address (buf->addr >= 0, memory planning), else after the
// previous one of its scope in declaration order (32-byte aligned, around the
// pinned ones); alloc_var registers are numbered in their own space. Both
// backends placing buffers alike is what makes aliasing buffers (memory
// planning reuses addresses) behave alike on them.
#ifndef TL_EXEC_LAYOUT_H
#define TL_EXEC_LAYOUT_H

#include "ir/ir.h"
#include "ir/side.h"

typedef struct {
    int64_t *addr;                  // per buffer id: byte address in its scratchpad (-1: GM)
    int64_t extent[TL_SCOPE_COUNT]; // bytes of each scratchpad in use
    int64_t cap[TL_SCOPE_COUNT];    // its capacity
} tl_layout_t;

// Lays out k's buffers. capacity: bytes per scope (NULL, or 0 for a scope: the
// chip model's hardware bytes, times `threads` for the UB of a kernel whose
// one vector agent stands for `threads` AIVs). A buffer past its capacity, or
// still in a developer scope, is an error at the buffer. Free with
// tl_layout_free (also after an error).
tl_status_t tl_layout_build(tl_layout_t *l, const tl_kernel_t *k, const int64_t *capacity,
                            tl_diag_t *d);
void tl_layout_free(tl_layout_t *l);
// Capacities that never limit a kernel (64 MiB per scope): the reference
// semantics do not depend on scratchpad sizes (memory planning and the
// simulator check the real ones).
void tl_layout_unbounded(int64_t capacity[TL_SCOPE_COUNT]);

// Whether scratchpad s is agent a's (L1, L0A, L0B, L0C: the AIC's; UB: each
// AIV's own).
bool tl_layout_owns(tl_agent_t a, tl_scope_t s);

#endif
