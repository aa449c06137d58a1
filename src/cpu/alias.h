// Copy elision for L1 tiles of read-only inputs: on a CPU, copying a tile of
// an input tensor into an L1 scratchpad only to feed a gemm moves every byte
// twice. When an L1 buffer is used only as the destination of plain GM -> L1
// copies (same dtype, no padding, no transpose) and as a gemm operand, and
// the copy reads a kernel input that nothing writes, an unclipped copy of
// the whole buffer is recorded instead of performed and the gemm reads the
// tensor in place (same values: the input cannot change during the run, and
// nothing else reads or writes the buffer). Clipped copies run as usual.
#ifndef TL_CPU_ALIAS_H
#define TL_CPU_ALIAS_H

#include "exec/layout.h"
#include "exec/tileop.h"

typedef struct {
    bool on;
    uint8_t *data; // the GM tensor
    size_t bytes;
    int ndim;
    int64_t shape[TL_MAX_DIMS];
    int64_t start[TL_MAX_DIMS]; // origin of the copied region
} tl_alias_t;

// Per buffer id: L1 buffers that may alias, GM buffers that are read-only
// inputs (heap; NULL when out of memory, which disables elision).
uint8_t *tl_alias_plan(const tl_kernel_t *k, const tl_layout_t *layout);
// A copy src (GM) -> dst (an aliasable L1 buffer): true when it was recorded
// in *a instead of performed; false (and *a off) when it must run.
bool tl_alias_copy(tl_alias_t *a, const tl_view_t *src, const tl_view_t *dst);
// Rewrites the gemm operand view v of an aliased buffer to the tensor region.
void tl_alias_view(const tl_alias_t *a, tl_view_t *v);

#endif
