// Internals of the simulator shared by src/npu/sim*.c: per-agent pipe state
// (timing and happens-before clocks), shadow memory, sites, findings and the
// functions the files provide to each other. Not a public interface.
#ifndef TL_NPU_SIM_INT_H
#define TL_NPU_SIM_INT_H

#include "base/buf.h"
#include "npu/sim.h"

// Pipes S..FIX as indices 0..6 (tl_pipe_t - TL_PIPE_S).
enum { SIM_NP = TL_PIPE_FIX - TL_PIPE_S + 1, SIM_S = 0 };
enum { SIM_FLOW = SIM_NP, SIM_LANES = SIM_NP + 1 }; // trace lane of the flags
#define SIM_PIX(p)  ((int)(p) - (int)TL_PIPE_S)
#define SIM_PIPE(i) ((tl_pipe_t)((i) + (int)TL_PIPE_S))

enum {
    SIM_EVENT_IDS = 8, // id slots per pipe pair: the instruction's 3-bit id field
    SIM_FLAGQ = 4,     // sets of one intra-core flag kept pending (more: lost)
    SIM_XIDS = 16,     // cross-core flag ids kept
    SIM_XQ = 16,       // entries of a cross-core counter
    SIM_QMAX = 64,     // pipe queue ring (arch queue_depth <= this)
    SIM_GRAN = 32,     // shadow granule bytes
    SIM_SLOTS = 4,     // access records per granule
    SIM_PAGE = 1024,   // granules per shadow page
};

typedef uint32_t sim_vc_t; // one vector-clock component

// A static instruction: a statement, or one step of a gemm_v0 expansion.
typedef enum { STEP_STMT, STEP_LOAD, STEP_LOAD_A, STEP_LOAD_B, STEP_MMAD } sim_step_t;

typedef struct {
    const tl_stmt_t *st;
    sim_step_t step;
    tl_pipe_t pipe;
    const char *name;
    int scope; // the T.Scope statement it is in (sim_scope_of)
} sim_site_t;

// One access in shadow memory: which instruction (site, agent, pipe, epoch)
// touched bytes [lo, hi] of a granule, and how.
// REC_ATOMIC: a GM access of atomic_add; REC_PROV: scratchpad bytes that are
// a copy of a read-only GM tensor's bytes (spare: its buffer id, aux: the
// source byte offset of lo)
enum { REC_WRITE = 1, REC_ILK = 2, REC_ATOMIC = 4, REC_PROV = 8 };
typedef struct {
    uint32_t site; // site index + 1; 0 = free slot
    uint32_t epoch;
    int32_t block;
    uint8_t tid; // agent * 8 + pipe index
    uint8_t lo, hi;
    uint8_t flags;
    uint16_t buf;   // buffer id
    uint16_t spare; // REC_PROV: the source tensor's buffer id
    uint32_t aux;   // GM write: hash of the bytes; REC_ILK: interlock group (1 = large tile)
} sim_rec_t;

typedef struct {
    sim_rec_t **pages; // SIM_PAGE granules x SIM_SLOTS records each, allocated on first touch
    uint8_t *dirty;    // per page: written since the last reset
    int64_t npages;
    int64_t *touched; // the dirty pages
    int64_t ntouched, captouched;
} sim_shadow_t;

// Bookkeeping of a reported race: the conflicting bytes in its memory space
// (scratchpad addresses, or offsets in the GM tensor) and the last
// instruction pair counted.
typedef struct {
    int64_t lo, hi;
    uint32_t epoch_a, epoch_b;
    int64_t block_a, block_b;
    int buf_a, buf_b;
} sim_racex_t;

// A release of a cross-core counter (or a set waiting for its partners).
typedef struct {
    int64_t time;
    sim_vc_t *clk;
    const tl_stmt_t *st;
    int pid; // trace flow source
    int64_t ts;
    int64_t block; // the block whose set it is
    bool carried;  // left by an earlier block on the core (sim_sync_keep_cross)
} sim_xent_t;

typedef struct {
    sim_xent_t e[SIM_XQ];
    int n;
} sim_xq_t;

// A set of an intra-core flag not yet consumed by a wait.
typedef struct {
    int64_t time; // release time (fire + latency)
    sim_vc_t *clk;
    const tl_stmt_t *st;
    int64_t fire; // for the trace flow
} sim_fset_t;

// An intra-core flag: one bit on the hardware. Sets issued before the wait
// of the one before them (misuse) queue up here and are resolved by time
// when that wait is modeled: a set released before the wait cleared the bit
// was merged into it (lost).
typedef struct {
    sim_fset_t q[SIM_FLAGQ];
    int n;
    const tl_stmt_t *lost, *lost_into; // the last set the bit swallowed, and the set it joined
} sim_flag_t;

typedef struct sim_block sim_block_t;
typedef struct sim_units sim_units_t; // L0C unit flags (sim_unit.c)

typedef struct {
    sim_block_t *blk;
    tl_agent_t id;
    bool present;
    // timing: scalar issue cursor; per pipe: end of occupancy, latest
    // completion, earliest start for later instructions (barriers, waits)
    int64_t issue;
    int64_t free[SIM_NP], done[SIM_NP], gate[SIM_NP];
    int64_t ring[SIM_NP][SIM_QMAX]; // start times of the last instructions (queue depth)
    uint32_t qn[SIM_NP];
    int64_t busy[SIM_NP];
    // in flight: cycles with an instruction between its start and its completion,
    // and the latest completion counted so far
    int64_t fly[SIM_NP], flown[SIM_NP];
    // happens-before: I[p] what the next p instruction inherits (I[S]: the
    // scalar clock), D[p] the join of every issued p instruction
    sim_vc_t *I[SIM_NP], *D[SIM_NP];
    uint32_t count[SIM_NP];
    uint32_t scope_count[SIM_NP]; // count when its current T.Scope body started
    sim_flag_t flag[SIM_NP][SIM_NP][SIM_EVENT_IDS];
    sim_xq_t counter[SIM_XIDS], pending[3][SIM_XIDS];
    // for the overflow check: sets issued per mode and id, and the S epoch of
    // each wait_cross_flag per id (a wait is a scalar instruction)
    int64_t xsets[3][SIM_XIDS];
    uint32_t *xwaits[SIM_XIDS];
    int nxwaits[SIM_XIDS], capxwaits[SIM_XIDS];
    // as a target: releases of each id sent to it (kept or lost), and how many
    // of them some timing lets find its counter at 15 (lost on the chip)
    int64_t xrel[SIM_XIDS], xlost[SIM_XIDS];
    const tl_stmt_t *xlost_st[SIM_XIDS]; // the first set that can be lost
    // as a setter: its sets per mode and id that some timing can lose
    int64_t xlostset[3][SIM_XIDS];
    int nsync_all;
    sim_shadow_t mem[TL_SCOPE_COUNT];
    sim_units_t *units; // the AIC's L0C unit flags, from the first use
    int pid;            // trace process
} sim_agent_t;

struct sim_block {
    int64_t index; // cid, -1 when the slot is free
    int core;
    int64_t base; // start cycle on its core
    bool traced;
    sim_agent_t ag[TL_AGENT_COUNT];
};

// An instruction being modeled.
typedef struct {
    uint32_t site;
    int pipe; // index
    int64_t occ, lat;
    int64_t issue_extra; // scalar cycles beyond issuing it (a library call's own)
    int64_t bytes;
    int64_t start, end;
    uint32_t epoch;
    uint32_t ilk; // REC_ILK group for L0C accesses of mmads (0: none)
    bool atomic;  // an atomic_add (its GM accesses are one atomic accumulation)
    const tl_opcall_t *call;
} sim_inst_t;

// Where the bytes a GM -> UB / L1 copy writes come from, when its source is a
// GM tensor the kernel never writes (sim_inst.c): such bytes are a function of
// the source place alone, so two writes from the same place leave the same
// bytes for every input.
typedef struct {
    int src; // the source tensor's buffer id
    const tl_view_t *sv, *dv;
    tl_copy_exec_t cx; // the copy as the device moves it (exec/tileop.h)
} sim_prov_t;
// The source byte offset of destination bytes [off, off + n) (offsets as in
// sim_run_t), or -1 unless they come from that many consecutive source bytes.
int64_t sim_prov_at(const sim_prov_t *p, int64_t off, int64_t n);

// A contiguous run of bytes an op touches (tl_tileop_accesses).
typedef struct {
    int operand;
    bool write;
    int64_t off, len;
} sim_run_t;

typedef struct {
    uint64_t key;
    int index;
} sim_slot_t;

typedef struct {
    sim_slot_t *slots;
    int cap, len;
} sim_index_t;

struct tl_sim {
    const tl_kernel_t *k;
    tl_diag_t *d;
    const tl_arch_t *arch;
    tl_sim_opts_t opts;
    tl_exec_t *x;
    tl_arena_t arena;
    int nvec;
    bool resident;   // all blocks at once (mode-0 flags, T.sync_all)
    int64_t nblocks; // after bind
    bool started, ran;
    // blocks: one slot, or one per block when resident
    sim_block_t *blocks;
    int nslots;
    int U;                // vector clock width: slots x agents x pipes
    sim_vc_t *tmp, *tmp2; // scratch clocks
    sim_vc_t *tmp3;       // scratch clock of sim_auto.c
    // The upstream build's own synchronisation (sim_auto.c): bisheng's
    // automatic sync on the vector cores (targets auto / ascendc), and
    // which code generator's operand reads are modeled (pto or ascendc).
    bool auto_sync, pto;
    sim_vc_t **freel; // clocks to reuse
    int nfree, capfree;
    // static facts
    int streams[2];   // agents per core kind that move GM data (cube, vector)
    bool *gm_written; // per buffer id: some statement writes this GM buffer
    int64_t *addr;    // per buffer id: scratchpad address
    bool uses_gemm_v0;
    int static_errors; // found before the run (illegal paths): the run is skipped
    // sites and findings
    sim_site_t *sites;
    int nsites, capsites;
    sim_index_t site_index, race_index;
    sim_index_t scope_index; // statement -> the T.Scope it is in (1, 2, ... in program order)
    int nscopes;
    tl_sim_race_t *races;
    sim_racex_t *racex;
    int nraces, capraces;
    tl_sim_error_t *errors;
    int nerrors, caperrors;
    tl_sim_error_t *warnings; // findings that do not stop the kernel on the chip
    int nwarnings, capwarnings;
    sim_index_t warned; // (site, operand) alignment warnings given
    // GM: shadow per buffer id, L2 lines per buffer id
    sim_shadow_t *gm;
    int64_t **l2; // per line: the cycle it is in the L2 from (sim_time.c)
    int64_t *l2_lines;
    int64_t l2_used;
    // the resident lines in use order (sim_time.c): line g of the launch is
    // line g - l2_base[b] of buffer lru_buf[g]; lru_head most recent
    int64_t *l2_base;
    int64_t *lru_prev, *lru_next;
    int *lru_buf;
    uint8_t *lru_dirty; // written since it came in: its eviction writes it back to HBM
    int64_t lru_n, lru_cap, lru_head, lru_tail, l2_evicted, l2_written_back;
    int64_t gm_bytes[2], hbm_bytes; // moved (read, written); read from HBM
    char **chunks;                  // shadow pages are carved from these (sim_hb.c)
    int nchunks, capchunks;
    char *chunk_at;
    size_t chunk_left;
    double *bw_l2, *bw_hbm; // bytes moved per time bucket
    int64_t nbuckets;
    // time and statistics
    int64_t *core_time;
    int64_t *core_bound; // per core: the sum of its blocks' busiest-pipe cycles
    int64_t busy[2][SIM_NP], fly[2][SIM_NP], agent_time[2];
    int64_t syncs[TL_SYNC_COUNT];
    int64_t auto_syncs[TL_SIM_AUTO_COUNT];
    int64_t instructions;
    int64_t gemm_groups;
    int64_t sync_all_done; // generations released
    int64_t sync_all_time;
    sim_vc_t *sync_all_clk;
    int64_t l0_internal[2]; // gemm_v0's own L0A / L0B bytes
    tl_buffer_t l0_buf[2];  // ... as buffers (ids after the kernel's)
    sim_run_t *runs;        // accesses of the op being modeled
    int nruns, capruns;
    // trace
    tl_buf_t trace;
    int64_t trace_events, flow_id;
    bool trace_truncated;
    tl_sim_report_t report;
};

// --- sim.c ----------------------------------------------------------------------------
sim_vc_t *sim_vc_new(tl_sim_t *s);
void sim_vc_free(tl_sim_t *s, sim_vc_t *v);
void sim_vc_join(const tl_sim_t *s, sim_vc_t *dst, const sim_vc_t *src);
void sim_vc_copy(const tl_sim_t *s, sim_vc_t *dst, const sim_vc_t *src);
// Component of (agent, pipe index) of a block in the clocks.
int sim_vc_index(const tl_sim_t *s, const sim_block_t *b, tl_agent_t a, int p);
uint32_t sim_site(tl_sim_t *s, const tl_stmt_t *st, sim_step_t step, tl_pipe_t pipe,
                  const char *name);
void sim_error(tl_sim_t *s, tl_sim_error_kind_t kind, tl_loc_t loc, const sim_agent_t *ag,
               const char *fmt, ...) TL_PRINTF(5, 6);
// A finding the chip survives (a warning: tl_sim_run does not fail for it).
void sim_finding(tl_sim_t *s, tl_sim_error_kind_t kind, tl_loc_t loc, const sim_agent_t *ag,
                 const char *fmt, ...) TL_PRINTF(5, 6);
// Index maps keyed by 64-bit values (site lookups, race de-duplication).
int sim_index_get(const sim_index_t *m, uint64_t key);
bool sim_index_put(sim_index_t *m, uint64_t key, int index);
void sim_index_free(sim_index_t *m);
// The buffer with id i (the kernel's, or one of gemm_v0's own L0A / L0B).
const tl_buffer_t *sim_buffer(const tl_sim_t *s, int i);

// --- sim_time.c: timing -----------------------------------------------------------------
// Sets in->occ / in->lat of an instruction that starts at absolute cycle t.
typedef void (*sim_cost_fn)(tl_sim_t *s, const sim_agent_t *ag, sim_inst_t *in, int64_t t,
                            void *arg);
// Issues an instruction of pipe in->pipe (its cost from in->occ / in->lat, or
// from `cost` once its start is known); sets start and end.
void sim_time_issue(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in, sim_cost_fn cost, void *arg);
// When all issued instructions of pipe p have completed (flags, barriers).
int64_t sim_time_drained(const sim_agent_t *ag, int p);
int64_t sim_time_agent_end(const sim_agent_t *ag);
// The L2 for a GM run of a tensor of `total` bytes, at absolute cycle t: the
// bytes the transfer moves (*bytes, whole 32 B blocks) and how many of them
// hit (lines in the L2 or on their way: *ready is raised to when the latest
// arrives); allocates the lines that miss. *fill is raised by what a read
// brings from HBM: each line it allocates, whole, or
// the missing bytes alone when the L2 has no room for their line. *wb is
// raised by the written lines the transfer's new lines push out of a full L2
// (their write-back to HBM, whole lines).
int64_t sim_time_l2(tl_sim_t *s, const tl_buffer_t *buf, int64_t total, int64_t off, int64_t len,
                    int64_t t, bool write, int64_t *bytes, int64_t *ready, int64_t *fill,
                    int64_t *wb);
// Makes the lines of a GM tensor of `total` bytes resident, as far as the L2
// has room (a warm start).
void sim_time_l2_warm(tl_sim_t *s, const tl_buffer_t *buf, int64_t total);
// Cycles to move `bytes` (and `miss` bytes of HBM reads, whole lines: it may
// exceed `bytes`) from absolute cycle t at most `cap` bytes per cycle, sharing
// the chip's bandwidth.
int64_t sim_time_bw(tl_sim_t *s, int64_t t, double bytes, double miss, double cap);

// --- sim_hb.c: happens-before and shadow memory ------------------------------------------
// Clock of a new instruction of pipe in->pipe (into s->tmp) and its epoch.
void sim_hb_begin(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in);
void sim_hb_end(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in);
// One access by the current instruction: bytes [off, off + len) of memory
// space `scope` (GM: of buffer buf's tensor; else the agent's scratchpad),
// data = the bytes as they are after the access (GM writes: for the
// identical-bytes rule; may be NULL), prov = where a scratchpad write's bytes
// come from (the same-source rule; may be NULL).
void sim_hb_access(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in, const tl_buffer_t *buf,
                   int64_t off, int64_t len, bool write, const uint8_t *data,
                   const sim_prov_t *prov);
// The pipes (bit i: pipe index i) among `pipes` with an access of this agent
// to those bytes that conflicts with the access described and is not ordered
// before an instruction with clock clk; nothing is recorded or reported (the
// compiler's automatic sync asks this before it orders an instruction).
// vs_at: only the accesses upstream's VS pass remembers at that statement
// (sim_auto_vs_sees); NULL: all.
unsigned sim_hb_probe(tl_sim_t *s, sim_agent_t *ag, const sim_vc_t *clk, const tl_buffer_t *buf,
                      int64_t off, int64_t len, bool write, unsigned pipes,
                      const tl_stmt_t *vs_at);
void sim_shadow_reset(sim_shadow_t *sh);
void sim_shadow_free(sim_shadow_t *sh); // its pages go with the simulator's chunks
void sim_shadow_chunks_free(tl_sim_t *s);

// --- sim_inst.c: instructions from executor events ---------------------------------------
tl_status_t sim_inst_op(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);
void sim_inst_scalar(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);
// Models a (user or internal) instruction: time, clock, the trace slice.
void sim_inst_issue(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in);
void sim_inst_done(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in);

// --- sim_sync.c: flags, barriers, cross-core flags ----------------------------------------
// What a set on pipe src of ag issued now carries: the clock (into out) and the
// time it releases a waiter.
void sim_sync_carry(tl_sim_t *s, sim_agent_t *ag, int src, sim_vc_t *out, int64_t *time);
tl_status_t sim_sync_check(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);
void sim_sync_do(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);
// An intra-core set_flag + wait_flag pair issued back to back (gemm_v0's own).
void sim_sync_edge(tl_sim_t *s, sim_agent_t *ag, int src, int dst);
// An intra-core flag an upstream template sets and waits itself.
typedef struct {
    tl_pipe_t src, dst;
    int id;
} sim_tflag_t;
// Reports each of a template's flags (who: "T.gemm_v0", ...) that the kernel
// has set and not yet waited for when statement st runs the template.
void sim_sync_template_flags(tl_sim_t *s, sim_agent_t *ag, const tl_stmt_t *st, const char *who,
                             const sim_tflag_t *flags, int n);
// pipe_barrier(p) (p a pipe index other than S) and barrier_all, as issued now.
void sim_sync_pipe_barrier(tl_sim_t *s, sim_agent_t *ag, int p);
void sim_sync_barrier_all(tl_sim_t *s, sim_agent_t *ag);
// Checks flags and counters left over when a block ends.
void sim_sync_residual(tl_sim_t *s, sim_block_t *b);
// A block's start on a core that ran an earlier block of the launch: the
// agent's cross-core releases and pending sets stay (a core keeps its
// counters, exec/flags.h), there from the block's first cycle, with no
// happens-before edge into it.
void sim_sync_keep_cross(tl_sim_t *s, sim_agent_t *ag);

// --- sim_auto.c: synchronisation the upstream build adds --------------------------------
// Before a tile op of pipe `pipe` is modeled (its accesses in s->runs).
void sim_auto_op(tl_sim_t *s, sim_agent_t *ag, int pipe, const tl_exec_event_t *ev);
// Before a GM -> UB copy: what tl::ascend::copy_gm_to_ub does first when the
// GM side is clipped (the pad fill between its own flags).
void sim_auto_copy(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);
bool sim_auto_l1_clear(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev, int64_t *off,
                       int64_t *len);
// Before a scalar load / store of bytes [off, off + len) of buf (ev: the event).
void sim_auto_scalar(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev, int64_t off,
                     int64_t len);
// A T.Scope body starts on this agent.
void sim_auto_scope(sim_agent_t *ag);
// The T.Scope statement st is in: 1, 2, ... in program order; 0 outside any.
int sim_scope_of(const tl_sim_t *s, const tl_stmt_t *st);
// pto: is the access of record r in the part of the program upstream's
// AscendSyncInsertVS remembers at statement `at`?
bool sim_auto_vs_sees(const tl_sim_t *s, const sim_agent_t *ag, const tl_stmt_t *at,
                      const sim_rec_t *r);
// Counts one synchronisation the build adds (and shows it in the trace).
void sim_auto_note(tl_sim_t *s, const sim_agent_t *ag, tl_sim_auto_kind_t kind, const char *what);

// --- sim_pto.c: the PTO target's synchronisation inside its ops ----------------------------
// Before a tile op (its accesses in s->runs): what the op's pto-isa
// implementation does before its first internal pipe_barrier(PIPE_V) (modeled
// as an instruction, then the barrier), and the fill's V -> S flag; returns
// the operands (bit i: operand i) the op touches after that.
unsigned sim_pto_before(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);
// After it: the barrier the op ends with, if any.
void sim_pto_after(tl_sim_t *s, sim_agent_t *ag, const tl_exec_event_t *ev);

// --- sim_unit.c: L0C unit flags (mmad / fixpipe unit_flag) ----------------------------------
// Before an mmad or a copy out of L0C with a unit flag is issued on pipe index
// `pipe`: waits (its pipe's gate) for and orders it after the instructions
// that last changed its units' flags; reports misuse.
void sim_unit_before(tl_sim_t *s, sim_agent_t *ag, int pipe, const tl_stmt_t *st,
                     const tl_opcall_t *call);
// After it is issued (its clock in s->tmp): the flags it leaves.
void sim_unit_after(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in, const tl_stmt_t *st,
                    const tl_opcall_t *call);
void sim_unit_residual(tl_sim_t *s, sim_agent_t *ag); // units left full at the end of a block
void sim_unit_reset(tl_sim_t *s, sim_agent_t *ag);
void sim_unit_free(tl_sim_t *s, sim_agent_t *ag);

// --- sim_trace.c -------------------------------------------------------------------------
void sim_trace_begin(tl_sim_t *s);
// A slice on a lane (a pipe, or SIM_FLOW) from cycle `start` of its block.
void sim_trace_slice(tl_sim_t *s, const sim_agent_t *ag, int lane, const char *name, int64_t start,
                     int64_t dur, int64_t lat, const tl_loc_t *loc, int64_t bytes);
// A flow arrow from process pid's flag lane at ts (an absolute cycle) to the
// waiting agent's flag lane at ts2 (a cycle of its block).
void sim_trace_flow(tl_sim_t *s, int pid, int64_t ts, const sim_agent_t *to, int64_t ts2);
void sim_trace_instant(tl_sim_t *s, const sim_agent_t *ag, int pipe, int64_t ts, const char *name,
                       const char *detail);
void sim_trace_end(tl_sim_t *s);
void sim_json_str(tl_buf_t *b, const char *str);

// --- sim_report.c ------------------------------------------------------------------------
void sim_report_finish(tl_sim_t *s);
void sim_report_diag(tl_sim_t *s);

#endif
