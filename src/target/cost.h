// What an instruction costs on the modeled chip: the one pricing of the
// schedule pass (pass/schedule_cost.c, from the IR's constant extents) and the
// simulator (npu/sim_inst.c, from the executed operands). Both describe the
// instruction's work in a tl_work_t; the numbers come from the arch table
// (arch.c).
//
// The price of a GM transfer is its uncontended cost at the core's own rate:
// the simulator replaces its occupancy by its memory model's (the L2 lines it
// finds, the chip's shared bandwidth: sim_time.c) and waits at most `miss`
// more when a line misses the L2; the schedule pass prices a cold L2 (lat +
// miss) and a warm one (lat).
#ifndef TL_TARGET_COST_H
#define TL_TARGET_COST_H

#include "target/arch.h"

// V ops that the A2 / A3 library (Ascend C, dav_c220) implements as several
// dependent instructions: priced as that sequence (cost.c).
typedef enum {
    TL_LIBCALL_NONE,
    TL_LIBCALL_VEC_INDEX, // CreateVecIndex: a first block of scalar stores, then Adds
    TL_LIBCALL_XOR,       // Xor (no xor instruction): And, Or, Not, And
    TL_LIBCALL_SIGMOID,   // Sigmoid: Muls, Exp, Adds, Duplicate, Div per 255 repeats
    TL_LIBCALL_SILU,      // Silu: Muls, Exp, Adds, Div over the whole count
    TL_LIBCALL_SIN,       // Sin: 27 float steps (and two casts for half)
} tl_libcall_t;

typedef struct {
    tl_pipe_t pipe; // where it runs (tl_op_pipe)
    tl_cost_t cost; // the op's cost class (ir/ops.h)
    // MTE1 / MTE2 / MTE3: bytes moved (the destination's side); V: bytes of
    // the widest operand
    int64_t bytes;
    int64_t elems;  // FIX: elements moved; V: the most elements of an operand
    tl_scope_t dst; // MTE1 / MTE3 / FIX: the destination's scope
    int reads;      // V: operands read (two or more: the binary rate)
    // V: bytes read plus bytes written over all operands (0: estimated as
    // bytes x (reads + 1))
    int64_t moved;
    tl_dtype_t in;   // M: the input dtype
    bool in_s4;      // M: the inputs are packed int4 (mad_s4; `in` is their uint8 bytes)
    int64_t m, n, k; // M: the mmad's shape
    // VSORT: (value, index) pairs sorted or merged and the 4-way merge rounds
    // after Sort32 (tl_tileop_sort_work); merge_only: no Sort32 pass. 0 pairs:
    // priced as a vector op of `bytes`.
    int64_t sort_pairs;
    int sort_rounds;
    bool merge_only;
    int64_t slow_repeats; // V: 256 B source repeats at vec_reduce_repeat_cycles each
    tl_libcall_t lib;     // V: priced as the library's instruction sequence
    int elem_size;        // V (lib): bytes of an element of the destination
} tl_work_t;

typedef struct {
    int64_t occ;  // cycles the pipe is busy
    int64_t lat;  // cycles from the end of occ until the result is ready
    int64_t miss; // a GM read: extra latency when a line misses the L2
    // V (lib): cycles the scalar unit spends beyond issuing one instruction
    // (the library call's scalar stores and the issue of its other instructions)
    int64_t scalar;
} tl_price_t;

tl_price_t tl_cost_price(const tl_arch_t *a, const tl_work_t *w);

// Cycles of a scalar instruction that accesses an element in scope s (a
// register: TL_SCOPE_VAR; GM goes through the data cache), a store when store;
// barrier: the kernel's build puts a PIPE_ALL barrier before a UB store
// (TL_ASCEND_AUTO_SYNC), priced with it.
int64_t tl_cost_scalar(const tl_arch_t *a, tl_scope_t s, bool store, bool barrier);

#endif
