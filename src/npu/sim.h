// The modeled Ascend AI Core (`tilec sim`): runs a kernel on the functional
// executor and, from the executor's hook, models each agent's instruction
// stream on the hardware pipes: cycle estimates (in-order scalar issue,
// overlapping per-pipe queues, flags, barriers, cross-core flags, shared GM
// bandwidth, blocks in waves over the chip's cores), a happens-before race
// detector (vector clocks per agent and pipe, 32-byte shadow granules), checks
// of flag use, data paths, alignment and scratchpad capacity, and a Chrome
// trace of the first blocks. Values come from the executor, so a race-free
// kernel's outputs are exactly those of `tilec run`. docs/simulator.md has the
// model and its decisions.
//
//   tl_sim_t *s;
//   tl_sim_create(&s, kernel, &opts, &diag);
//   tl_exec_set_tensor(tl_sim_exec(s), "A", a);   // arguments as for the executor
//   st = tl_sim_run(s);   // TL_ERR_RACE: races or sync misuse (the report is complete)
//   r = tl_sim_report(s);
//   tl_sim_destroy(s);
//
// Expert-mode kernels only (T.Scope and hand-written syncs): a developer-mode
// kernel must first go through the CV split pass.
#ifndef TL_NPU_SIM_H
#define TL_NPU_SIM_H

#include "exec/exec.h"
#include "target/arch.h"

typedef struct tl_sim tl_sim_t;

// The L2 at the start of the launch: cold (every GM tensor in HBM: a line's
// first read misses) or warm (the input tensors resident as far as the L2
// holds them, as when the previous operator has just written them).
typedef enum { TL_SIM_L2_COLD, TL_SIM_L2_WARM } tl_sim_l2_t;

typedef struct {
    const char *arch;  // "a2" (default) or "a3"
    tl_sim_l2_t l2;    // cold (default) or warm
    bool trace;        // record a Chrome trace
    int trace_blocks;  // blocks recorded in the trace (0: 4)
    bool no_races;     // timing only: no race reports; shadow memory only for the
                       // build's automatic sync (UB of the vector cores)
    int max_resident;  // as tl_exec_opts_t.max_resident
    int64_t max_steps; // as tl_exec_opts_t.max_steps
} tl_sim_opts_t;

// One side of a race: an instruction's access to a buffer.
typedef struct {
    const char *op; // "T.copy", "T.tile.add", "gemm_v0 L1->L0A", "scalar store", ...
    tl_pipe_t pipe;
    tl_agent_t agent;
    int64_t block;
    tl_loc_t loc;
    bool write;
    const char *buffer; // buffer name
    int64_t lo, hi;     // bytes [lo, hi) of the buffer that conflict
    int64_t bytes;      // the buffer's size: lo >= bytes when a count ran past it
} tl_sim_access_t;

// Two conflicting accesses that no happens-before edge orders, reported once
// per (op pair, buffers). first = the earlier in the executor's order (which
// follows modeled time); of two blocks, the lower block.
typedef struct {
    const char *kind; // "RAW", "WAR", "WAW"
    bool benign;      // cannot change the result: identical GM stores, same-source copies
    tl_scope_t space; // memory (GM, L1, L0A, L0B, L0C, UB)
    tl_sim_access_t first, second;
    int64_t count; // conflicting instruction pairs seen
} tl_sim_race_t;

// Findings other than races (each makes tl_sim_run return TL_ERR_RACE, but
// those the chip runs through, which are warnings: report.warnings).
#define TL_SIM_ERRORS(X)                                                                           \
    X(TL_SIM_DOUBLE_SET, "double_set")                                                             \
    X(TL_SIM_WAIT_WITHOUT_SET, "wait_without_set")                                                 \
    X(TL_SIM_UNMATCHED_SET, "unmatched_set")                                                       \
    X(TL_SIM_EVENT_ID, "event_id")                                                                 \
    X(TL_SIM_BAD_PIPE, "bad_pipe")                                                                 \
    X(TL_SIM_XFLAG_ID, "cross_flag_id")                                                            \
    X(TL_SIM_XFLAG_OVERFLOW, "cross_flag_overflow")                                                \
    X(TL_SIM_XFLAG_UNMATCHED, "cross_flag_unmatched")                                              \
    X(TL_SIM_XFLAG_CARRIED, "cross_flag_carried")                                                  \
    X(TL_SIM_OVERFLOW, "scratchpad_overflow")                                                      \
    X(TL_SIM_MISALIGNED, "misaligned")                                                             \
    X(TL_SIM_ILLEGAL_PATH, "illegal_path")                                                         \
    X(TL_SIM_TOO_MANY_BLOCKS, "too_many_blocks")                                                   \
    X(TL_SIM_UNIT_FLAG, "unit_flag")                                                               \
    X(TL_SIM_RUNTIME, "runtime")

typedef enum {
#define X(id, name) id,
    TL_SIM_ERRORS(X)
#undef X
        TL_SIM_ERROR_COUNT
} tl_sim_error_kind_t;

// Synchronisation the upstream build adds to what the kernel writes
// (docs/simulator.md, "What the upstream build adds"), counted by kind.
#define TL_SIM_AUTO_SYNCS(X)                                                                       \
    X(TL_SIM_AUTO_BARRIER_V, "pipe_barrier_v")                                                     \
    X(TL_SIM_AUTO_FLAG_S, "flag_to_s")                                                             \
    X(TL_SIM_AUTO_OPERAND, "operand_read")                                                         \
    X(TL_SIM_AUTO_TEMPLATE, "template")

typedef enum {
#define X(id, name) id,
    TL_SIM_AUTO_SYNCS(X)
#undef X
        TL_SIM_AUTO_COUNT
} tl_sim_auto_kind_t;

typedef struct {
    tl_sim_error_kind_t kind;
    tl_loc_t loc;
    int64_t block; // -1: not tied to a block
    tl_agent_t agent;
    const char *message;
} tl_sim_error_t;

typedef struct {
    const tl_arch_t *arch;
    int64_t blocks;
    int64_t waves;              // ceil(blocks / cores)
    int64_t cycles;             // device time: the busiest core
    int64_t ideal_cycles;       // bound: per core the sum of its blocks' busiest pipe; the max
    const int64_t *core_cycles; // per core (arch->num_aic): when its last block ends
    double start_us;       // kernel start on the device (arch->kernel_start_us, + mix_start_us)
    bool mixed;            // cube and vector cores both ran pipe instructions
    double time_us;        // device time (msprof Task Duration): start_us + cycles at the clock
    double host_launch_us; // one launch from the host, around the device time (not in time_us)
    double total_us;       // time_us + host_launch_us: what a Python loop sees per call
    // busy cycles of each pipe over the agents' run time, percent;
    // [0] the cube cores (AIC), [1] the vector cores (AIV); indexed by tl_pipe_t
    double busy[2][TL_PIPE_COUNT];
    // the same over the cycles each pipe has an instruction between its start and
    // its completion (occupancy + latency, overlaps counted once): msprof's pipe time
    double in_flight[2][TL_PIPE_COUNT];
    tl_sim_l2_t l2;                        // as started
    int64_t gm_read_bytes, gm_write_bytes; // moved by MTE2 / MTE3 / FIX (whole 32 B blocks)
    int64_t hbm_read_bytes;                // of the reads: L2 misses, read from HBM
    int64_t l2_evicted_bytes;              // lines the full L2 pushed out (least recently used)
    int64_t l2_written_back_bytes;         // of them, lines written since they came in: to HBM
    int64_t syncs[TL_SYNC_COUNT];          // executed, by kind
    int64_t auto_syncs[TL_SIM_AUTO_COUNT]; // added by the upstream build, by kind
    int64_t scratch_peak[TL_SCOPE_COUNT];  // bytes in use per scratchpad
    int64_t instructions;
    int nraces, nbenign, nerrors, nwarnings;
    const tl_sim_race_t *races; // real races first, then benign ones
    const tl_sim_error_t *errors;
    // misuse the chip runs through (cross-core releases past the 4-bit
    // counter that no wait needs, releases left at the end): warnings
    const tl_sim_error_t *warnings;
    bool trace_truncated;
} tl_sim_report_t;

tl_status_t tl_sim_create(tl_sim_t **out, const tl_kernel_t *k, const tl_sim_opts_t *opts,
                          tl_diag_t *d);
void tl_sim_destroy(tl_sim_t *s); // NULL is fine
// The executor the simulator runs: give it the kernel's arguments, read its
// tensors after the run.
tl_exec_t *tl_sim_exec(tl_sim_t *s);
// Runs the kernel (once). TL_OK: no race and no misuse; TL_ERR_RACE: some
// were found (reported to the diag, and in the report); other codes: the run
// failed (an executor error) and the report holds what was seen up to then.
tl_status_t tl_sim_run(tl_sim_t *s);
const tl_sim_report_t *tl_sim_report(const tl_sim_t *s);

// The report as text (the `tilec sim` summary) and as JSON (`--json`).
void tl_sim_report_text(const tl_sim_t *s, tl_buf_t *out);
void tl_sim_report_json(const tl_sim_t *s, tl_buf_t *out);
// The Chrome trace ({"traceEvents": [...]}) of the first blocks; empty
// unless opts.trace.
void tl_sim_trace_json(const tl_sim_t *s, tl_buf_t *out);

const char *tl_sim_error_name(tl_sim_error_kind_t k);

#endif
