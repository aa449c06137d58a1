// Per-thread scratch buffers for the GEMM tile ops (operand copies, packed
// panels). A fresh allocation per call faults its pages in on every gemm
// (large blocks come from mmap); these grow to the largest request and live
// until their thread exits.
#ifndef TL_EXEC_TILEOP_GEMM_SCRATCH_H
#define TL_EXEC_TILEOP_GEMM_SCRATCH_H

#include <stddef.h>

// Independent buffers of one thread: a caller may hold all of them at once.
typedef enum {
    TL_GEMM_SCRATCH_A,    // op(A) as the kernels read it
    TL_GEMM_SCRATCH_B,    // op(B) as the kernels read it
    TL_GEMM_SCRATCH_TMP,  // staging (rows before a transpose, accumulators)
    TL_GEMM_SCRATCH_PACK, // packed B panels of the SIMD kernels
    TL_GEMM_SCRATCH_COUNT
} tl_gemm_scratch_slot_t;

// At least `size` bytes, 64-byte aligned, owned by the calling thread and
// kept (contents unspecified) until the next request for the same slot; NULL
// when out of memory.
void *tl_gemm_scratch(tl_gemm_scratch_slot_t slot, size_t size);

#endif
