// Internals of the functional executor shared by src/exec/exec*.c: run state
// (blocks, agents, threads, frames) and the functions the
// files provide to each other. Not a public interface.
#ifndef TL_EXEC_EXEC_INT_H
#define TL_EXEC_EXEC_INT_H

#include "exec/bind.h"
#include "exec/exec.h"
#include "exec/flags.h"
#include "exec/layout.h"
#include "exec/num.h"
#include "ir/side.h"
#include "target/arch.h"

// The state of a binding (bind.h).
struct tl_bind {
    const tl_kernel_t *k;
    tl_diag_t *d;
    tl_tensor_t **user; // per param: caller tensor
    bool *user_set;     // per param: scalar given
    tl_num_t *globals;  // dims and scalar params, by var id
    uint8_t *gset;      // which globals have a value
    uint8_t *dim_given; // dims given explicitly (by var id)
    bool bound;
    int64_t nblocks;
    // GM buffers by buffer id: the tensor used, whether we own it, and the
    // caller's tensor to copy back into (non-contiguous arguments)
    tl_tensor_t **gm;
    bool *gm_owned;
    tl_tensor_t **gm_back;
};

typedef struct tl_exec_block tl_exec_block_t;

typedef struct {
    tl_exec_block_t *blk;
    tl_agent_t id;
    int vid;
    bool present;
    uint8_t *mem[TL_SCOPE_COUNT];   // scratchpads this agent owns (and TL_SCOPE_VAR registers)
    uint8_t *wbits[TL_SCOPE_COUNT]; // written bit per byte (warn_uninit only)
    tl_num_t *vals;                 // loop and let variables, by var id
    uint8_t *defined;               // which of vals hold a value
    tl_tileop_ctx_t ctx;
    tl_flags_t fl; // intra-core and cross-core flags (flags.h)
} tl_exec_agent_t;

struct tl_exec_block {
    int64_t index; // cid
    tl_exec_agent_t ag[TL_AGENT_COUNT];
};

// One frame of an interpreter thread: a statement being executed on a set of
// lanes, with its iteration state.
typedef enum { TL_FR_NORMAL, TL_FR_PERLANE } tl_frame_kind_t;

typedef struct {
    const tl_stmt_t *s;
    uint8_t mask;    // lanes (agents) the statement runs on
    uint8_t kind;    // tl_frame_kind_t
    bool started;    // for: bounds evaluated
    tl_side_t scope; // enclosing T.Scope side (NONE outside scopes)
    int lane;        // leaves and per-lane frames: next lane to run
    int64_t i, end;  // seq position or loop counter
} tl_exec_frame_t;

typedef enum { TL_TH_READY, TL_TH_BLOCKED, TL_TH_DONE } tl_thread_state_t;

// A scheduled unit: one agent (expert mode) or one block's lanes (developer mode).
typedef struct {
    tl_exec_block_t *blk;
    uint8_t mask;
    tl_exec_frame_t *fr;
    int sp, cap;
    tl_thread_state_t state;
    const tl_stmt_t *wait_stmt; // what it is blocked on, for the deadlock report
    int wait_lane;
    int64_t wait_id;
    bool at_barrier;
    int64_t barrier_gen;
    // timed scheduling: the agent's clock when known, and the wake count seen
    // when it blocked (a blocked thread is retried after the next wake)
    int64_t clock;
    bool clock_known;
    int64_t wake_seen;
} tl_exec_thread_t;

struct tl_exec {
    const tl_kernel_t *k;
    tl_diag_t *d;
    tl_exec_opts_t opts;
    bool dev;      // developer mode (auto_cv_combine)
    uint8_t lanes; // present agents (ir/side.h)
    tl_bind_t *args;     // the arguments it runs on (bind.h): own_args or the caller's
    tl_bind_t *own_args; // the binding tl_exec_set_* fill
    tl_layout_t layout;  // where the buffers sit (layout.h)
    // static analysis
    tl_side_map_t *sides; // ir/side.h: LOCKSTEP (developer mode) or EXPERT
    bool all_resident;    // mode-0 flags or T.sync_all
    // run state
    tl_exec_block_t *blocks;
    int nres;
    tl_exec_thread_t *threads;
    int nthreads;
    int barrier_count;
    int64_t barrier_gen;
    int per_block;   // threads per block
    int64_t wake;    // cross-core sets and T.sync_all arrivals so far (timed scheduling)
    int64_t steps;
    tl_buf_t out;
    const void **warned; // (stmt, buf) pairs already warned about as uninitialised
    int nwarned, capwarned;
    bool warned_residual;
    // cross-core counters a block leaves to the next block on its core
    // (flags.h): [core * TL_AGENT_COUNT + agent], NULL when no block follows
    // another on a core or the kernel has no cross-core flags
    tl_flags_xstate_t *xcarry;
    int xcores;
};

// Evaluation context: an agent executing a statement (ag NULL for shape
// expressions, which may use only constants, dims and scalar parameters).
typedef struct {
    tl_exec_t *x;
    tl_exec_agent_t *ag;
    const tl_stmt_t *st;
    // inside a T.Parallel loop the passes have not lowered (the reference
    // pipeline): its element copies out of L0C mean the copy upstream makes
    bool in_parallel;
} tl_exec_ctx_t;

// Reports a run-time error at loc (or at the statement when loc has no line).
tl_status_t tl_exec_fail(const tl_exec_ctx_t *c, tl_loc_t loc, const char *fmt, ...)
    TL_PRINTF(3, 4);
tl_status_t tl_exec_hook(const tl_exec_ctx_t *c, tl_exec_event_t *ev);
tl_side_t tl_exec_agent_side(const tl_exec_agent_t *ag);

// --- exec_expr.c: expressions --------------------------------------------------------
tl_status_t tl_exec_eval(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_num_t *out);
tl_status_t tl_exec_eval_int(const tl_exec_ctx_t *c, const tl_expr_t *e, int64_t *out);

// --- exec_mem.c: memory --------------------------------------------------------------
tl_status_t tl_exec_mem_block_init(tl_exec_t *x, tl_exec_block_t *b, int64_t index);
void tl_exec_mem_block_free(tl_exec_block_t *b);
// The memory of one element of a buffer, bounds-checked: *p, its row-major
// element index and byte address (-1 for GM and registers).
tl_status_t tl_exec_mem_elem(const tl_exec_ctx_t *c, const tl_buffer_t *b, int n,
                             const int64_t *idx, tl_loc_t loc, uint8_t **p, int64_t *elem,
                             int64_t *addr);
tl_status_t tl_exec_mem_view(const tl_exec_ctx_t *c, const tl_region_t *r, tl_loc_t loc,
                             tl_view_t *v);
// Written-byte tracking (warn_uninit): mark bytes of a view or element as
// written, or warn once per (statement, buffer) when reading unwritten ones.
void tl_exec_mem_mark(const tl_exec_ctx_t *c, const tl_buffer_t *b, int64_t off, int64_t len);
void tl_exec_mem_check(const tl_exec_ctx_t *c, const tl_buffer_t *b, int64_t off, int64_t len,
                       const char *what);
tl_exec_agent_t *tl_exec_mem_owner(const tl_exec_ctx_t *c, const tl_buffer_t *b);
// Whether (st, key) has been warned about in this run; records it if not.
bool tl_exec_warned(tl_exec_t *x, const void *st, const void *key);

// --- exec_sync.c: synchronisation ------------------------------------------------------
tl_status_t tl_exec_sync(const tl_exec_ctx_t *c, tl_exec_thread_t *th, bool *blocked);
void tl_exec_sync_residual(tl_exec_t *x, tl_exec_block_t *b);

// --- exec_op.c: tile ops, scalar stores, prints ---------------------------------------
tl_status_t tl_exec_op(const tl_exec_ctx_t *c);
tl_status_t tl_exec_store(const tl_exec_ctx_t *c);
tl_status_t tl_exec_print(const tl_exec_ctx_t *c);

// --- exec_run.c: interpreter and scheduler ---------------------------------------------
tl_status_t tl_exec_run_blocks(tl_exec_t *x);

#endif
