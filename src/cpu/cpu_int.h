// Internals of the CPU backend shared by cpu.c (API, runs) and cpurt.c (the
// runtime the generated code calls, block scheduling). Not an interface.
#ifndef TL_CPU_CPU_INT_H
#define TL_CPU_CPU_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "cpu/abi.h"
#include "cpu/alias.h"
#include "cpu/cgen.h"
#include "cpu/coro.h"
#include "cpu/cpu.h"
#include "exec/flags.h"
#include "rt/pool.h"
#include "target/arch.h"

typedef struct cpu_worker cpu_worker_t;
typedef struct cpu_block cpu_block_t;

typedef struct {
    cpu_worker_t *w;
    cpu_block_t *blk;
    tl_agent_t id;
    bool present;
    tl_tileop_ctx_t ctx;
    tl_flags_t fl;      // intra-core and cross-core flags (the reference's: exec/flags.h)
    tl_opcall_t *calls; // per site: the op's template (op == NULL: not built yet)
    tl_alias_t *alias;  // per buffer id: L1 tiles read in place (alias.h)
    tl_coro_t *co;      // when the agents run as coroutines
    bool done, progress, at_barrier;
    int64_t barrier_gen;
    int wait_site; // what it is blocked on, for the deadlock report
    int64_t wait_id;
} cpu_agent_t;

struct cpu_block {
    int64_t index;
    tlc_lane_t lanes[TL_AGENT_COUNT]; // contiguous: the module indexes lanes[]
    cpu_agent_t ag[TL_AGENT_COUNT];
};

// One pool thread's state for a run.
struct cpu_worker {
    tl_cpu_t *c;
    tl_diag_t diag;
    int nblocks; // blocks resident at once (1, or all for mode-0 flags / T.sync_all)
    cpu_block_t *blocks;
    uint8_t *mem; // every scratchpad of every agent, one allocation
    int barrier_count, nthreads;
    int64_t barrier_gen;
    tl_status_t st;
    int64_t failed_block; // block that failed (-1: none)
    tl_opcall_t tmp;      // a call rewritten for copy elision
    bool ready;
    int64_t run; // the run its templates were built for
};

enum { CPU_RESIDUAL_MAX = 32 }; // leftover-flag warnings kept per run

typedef struct {
    tl_loc_t loc;
    char text[160];
} tl_cpu_residual_t;

struct tl_cpu {
    const tl_kernel_t *k;
    tl_diag_t *d;
    tl_cpu_opts_t opts;
    tl_side_map_t *sides; // where each statement runs (ir/side.h)
    tl_layout_t layout;   // where the buffers sit (exec/layout.h)
    uint8_t lanes;        // the agents of a block
    bool dev;             // developer mode: one program per block
    bool all_resident;    // all blocks at once (mode-0 flags or T.sync_all)
    bool uses_cross;      // cross-core flags: a block starts with what the block
                          // before it on its core left (exec/flags.h)
    tl_bind_t *args;     // the arguments it runs on (exec/bind.h): own_args or the caller's
    tl_bind_t *own_args; // its own
    tl_cgen_result_t gen;
    char *source; // with the export line
    tl_jit_t jit;
    const tlc_module_t *mod;
    tl_pool_t *pool;
    uint8_t *alias_plan; // alias.h (NULL: no copy elision)
    // per run
    tlc_env_t env;
    int64_t *gi;
    double *gf;
    uint8_t **gm;
    int64_t *gshape;
    int *gndim;
    cpu_worker_t *workers;
    int nworkers;
    atomic_int failed;
    int64_t run; // runs so far
    // statements warned about in this run (once each, as the reference does)
    pthread_mutex_t warn_lock;
    const void **warned;
    int nwarned, capwarned;
    // flags set and never waited for, in the lowest block that left any (the
    // reference warns about its first block's): warned after the run
    int64_t residual_block;
    tl_cpu_residual_t *residual;
    int nresidual;
};

// Warns once per statement and run (thread-safe); the text goes to c->d.
void tl_cpu_warn_once(tl_cpu_t *c, const void *stmt, tl_loc_t loc, const char *fmt, ...)
    TL_PRINTF(4, 5);

extern const tlc_rt_t tl_cpurt_table;

// Sets up a worker for a run (scratchpads, agents, coroutines); resident is
// the number of blocks it runs at once.
tl_status_t tl_cpurt_worker_init(tl_cpu_t *c, cpu_worker_t *w, int resident);
void tl_cpurt_worker_free(cpu_worker_t *w);
// Forgets what a previous run left (op templates over its tensors, errors).
void tl_cpurt_worker_reset(cpu_worker_t *w, int64_t run);
// Warns about the flags the lowest block with any left set and never waited
// for (tl_cpurt_run_blocks records them); called after a run that succeeded.
void tl_cpu_warn_residual(tl_cpu_t *c);
// Runs blocks [first, first + w->nblocks) on the worker. With carry (one
// block at a time, the blocks of one core in order): the cross-core counters
// of the core's previous block (restored), and on return this block's;
// `last`: no later block runs on the core.
tl_status_t tl_cpurt_run_blocks(cpu_worker_t *w, int64_t first, tl_flags_xstate_t *carry,
                                bool last);

#endif
