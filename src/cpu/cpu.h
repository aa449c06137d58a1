// The native CPU backend: a kernel becomes C (cgen), is compiled and cached
// (jit) and runs in-process, blocks spread over a thread pool. Results are
// those of the reference executor (exec.h); the arguments are a binding
// (exec/bind.h), shared with the other backends:
//
//   tl_cpu_t *c;
//   tl_cpu_create(&c, kernel, NULL, &diag);      // generate, compile or load
//   tl_bind_set_tensor(tl_cpu_args(c), "A", a); ...
//   if (tl_cpu_run(c) == TL_OK) out = tl_bind_tensor(tl_cpu_args(c), "C");
//   tl_cpu_destroy(c);
//
// Each pool thread owns one set of scratchpads per agent, reused from block
// to block (not refilled: kernels must not read what they did not write).
// Expert kernels whose agents wait on cross-core flags run the agents of a
// block as coroutines, resumed round-robin as the reference scheduler does;
// kernels with mode-0 flags or T.sync_all run all blocks together on one
// thread. Intra-core pipe syncs are no-ops; T.printf is not supported.
// Pool threads with no block left take parts of the busy blocks' big tile
// ops (gemm_v0 / mma split over C's rows or columns; same bits).
#ifndef TL_CPU_CPU_H
#define TL_CPU_CPU_H

#include "cpu/jit.h"
#include "exec/bind.h"
#include "ir/ir.h"
#include "rt/tensor.h"

typedef struct tl_cpu tl_cpu_t;

typedef struct {
    int threads; // pool threads (the caller included); <= 0: one per CPU
    tl_jit_opts_t jit;
} tl_cpu_opts_t;

tl_status_t tl_cpu_create(tl_cpu_t **out, const tl_kernel_t *k, const tl_cpu_opts_t *o,
                          tl_diag_t *d);
void tl_cpu_destroy(tl_cpu_t *c); // NULL is fine

// The arguments it runs on: its own binding, or another one (tl_cpu_use_args;
// borrowed: the caller keeps it alive; NULL: its own again).
tl_bind_t *tl_cpu_args(tl_cpu_t *c);
void tl_cpu_use_args(tl_cpu_t *c, tl_bind_t *args);

tl_status_t tl_cpu_run(tl_cpu_t *c);
// Parts of tile ops run by pool threads other than their block's since c was
// created (statistics, tests).
int64_t tl_cpu_parts_shared(const tl_cpu_t *c);

// The generated C, and how the module was obtained.
const char *tl_cpu_source(const tl_cpu_t *c);
const tl_jit_t *tl_cpu_jit(const tl_cpu_t *c);

// The C source of k's module without compiling it (tilec ir --emit=c).
tl_status_t tl_cpu_emit(const tl_kernel_t *k, tl_buf_t *out, tl_diag_t *d);

#endif
