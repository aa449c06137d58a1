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
    // bytes of each scratchpad an agent has in host memory: its extent, and for
    // the UB of a kernel whose vector op may run past its operand's buffer
    // (tl_overrun_possible) the chip's whole UB, which that op runs into
    int64_t arena[TL_SCOPE_COUNT];
    bool overruns; // tl_overrun_possible
} tl_layout_t;

// Lays out k's buffers (and reports the ops that run past a buffer:
// tl_overrun_report). capacity: bytes per scope (NULL, or 0 for a scope: the
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
// The bytes from buffer b's address to the end of its agent's scratchpad
// arena when a vector op may run past b (UB), else 0 (tl_view_t.reach).
size_t tl_layout_reach(const tl_layout_t *l, const tl_buffer_t *b);

// --- vector ops that run past a buffer (overrun.c; ir/overrun.h) ---
// At each element-wise op whose constant count runs past an operand's buffer,
// a warning naming the UB bytes it reads or writes and the buffers of layout
// l that hold them; an error when it runs past the UB (the device's vector
// core exception).
tl_status_t tl_overrun_report(const tl_kernel_t *k, const tl_layout_t *l, tl_diag_t *d);

#endif
