// The PTO target: a kernel after the NPU pipeline written as PTO-ISA C++
// (pto-isa's tile instructions, https://gitcode.com/cann/pto-isa) that a CANN
// toolchain builds for the A2/A3 NPU, and run on pto-isa's own CPU
// implementation of those instructions (docs/pto.md).
//
//   tl_buf_t cpp, h;
//   tl_pto_emit(k, &cpp, &h, &diag);              // NAME.cpp, NAME_launch.h
//
//   tl_pto_t *p;
//   tl_pto_opts_t o = {.pto_isa = "/path/to/pto-isa"};
//   tl_pto_create(&p, k, &o, &diag);               // emits, builds (cached)
//   tl_pto_run(p, args);                           // a bound tl_bind_t
//
// A run builds the kernel with the host C++ compiler against pto-isa's CPU
// implementation (-D__CPU_SIM) and tilec's harness (support.c), and runs it in
// a child process: pto-isa reports errors with assert(), and tilec's library
// never exits. The executable is cached like the CPU target's modules.
#ifndef TL_PTO_PTO_H
#define TL_PTO_PTO_H

#include "base/buf.h"
#include "exec/bind.h"
#include "ir/ir.h"

// Writes the kernel (k from the NPU pipeline) as PTO-ISA C++ into cpp and its
// host launch header into launch_h (may be NULL). An op or construct the
// emitter does not lower is a located error naming it.
tl_status_t tl_pto_emit(const tl_kernel_t *k, tl_buf_t *cpp, tl_buf_t *launch_h, tl_diag_t *d);

// The support header the emitted code includes ("tilec_pto.h") and the harness.
extern const char tl_pto_support_h[];
extern const char tl_pto_harness_c[];

typedef struct {
    const char *pto_isa;   // a pto-isa checkout; NULL: $PTO_ISA_DIR
    const char *cxx;       // NULL: $TILEC_PTO_CXX, else clang++-19 when present, else c++
    const char *cache_dir; // NULL: the CPU target's (rt/proc.h)
    int wave;              // blocks run at once (0: 8)
} tl_pto_opts_t;

typedef struct tl_pto tl_pto_t;

tl_status_t tl_pto_create(tl_pto_t **out, const tl_kernel_t *k, const tl_pto_opts_t *o,
                          tl_diag_t *d);
// Runs the kernel on a bound argument set; outputs land in its tensors.
tl_status_t tl_pto_run(tl_pto_t *p, tl_bind_t *args);
bool tl_pto_cached(const tl_pto_t *p);    // the executable came from the cache
double tl_pto_build_s(const tl_pto_t *p); // seconds in the compiler (0 when cached)
double tl_pto_run_s(const tl_pto_t *p);   // seconds of the last run (the child process)
int64_t tl_pto_blocks(const tl_pto_t *p); // blocks of the last run
void tl_pto_destroy(tl_pto_t *p);         // NULL is fine

#endif
