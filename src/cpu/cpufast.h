// Faster specialisations of tile ops for the CPU backend, chosen per call:
// each handles a common case (contiguous float32 spans in UB, ...) with the
// exact semantics of the tile-op library and leaves every other case, errors
// included, to tl_tileop_run.
#ifndef TL_CPU_CPUFAST_H
#define TL_CPU_CPUFAST_H

#include "exec/tileop.h"

// True when this CPU has the AVX-512 subsets the specialisations are built
// for; without them every call goes to the library.
bool tl_cpufast_available(void);

// Runs the call if a specialisation applies; false leaves it to the library.
bool tl_cpufast_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);

#endif
