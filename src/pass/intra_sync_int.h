// Internals of intra_sync (see intra_sync.c): the abstract execution's
// records and state, the syncs the pass inserts, and the functions the parts
// share: the abstract execution (intra_sync_exec.c), placing a sync
// (intra_sync_place.c), removing redundant syncs (intra_sync_reduce.c) and
// event ids (intra_sync_ids.c).
#ifndef TL_PASS_INTRA_SYNC_INT_H
#define TL_PASS_INTRA_SYNC_INT_H

#include "target/arch.h"
#include "pass/hazard.h"
#include "pass/pass.h"

enum { MAXD = 32, SLOTS = 64, MAX_ROUNDS = 5000, EVENT_IDS = 8, MAX_FIX = 4 };

#define BIT(p) (1u << (p))

typedef struct {
    tl_stmt_t *seq;
    int index;
} pos_t;

typedef struct {
    const tl_stmt_t *loop;
    int inst, copy; // copy 1 or 2 (the simulated iteration); 0: any (after the loop)
} iter_t;

typedef struct {
    tl_hazard_access_t acc;
    int acc_index;
    uint32_t ord;   // pipes ordered after this access
    uint64_t slots; // pending set_flag tokens covering it
    int npath, niter;
    pos_t path[MAXD];
    iter_t iter[MAXD];
} rec_t;

typedef struct {
    bool used;
    tl_pipe_t src, dst;
    bool konst;
    int64_t id;
    const tl_expr_t *expr;
    uint64_t sig; // iteration signature for non-constant ids
} slot_t;

typedef struct {
    rec_t *r;
    int n, cap;
    slot_t slot[SLOTS];
    bool dead;
} state_t;

typedef struct {
    state_t *brk, *cont;
    int nbrk, ncont;
} loopframe_t;

typedef struct {
    bool found;
    rec_t prod;     // the unordered producer
    tl_pipe_t pipe; // consumer pipe
    const tl_stmt_t *stmt;
    int npath, niter;
    pos_t path[MAXD];
    bool in_scope[MAXD + 1];
    iter_t iter[MAXD];
} dep_t;

// An inserted sync group (a flag pair with its prologue/epilogue, or a
// barrier), then the matching sets and waits in the other branches of the ifs
// that hold the pair's set or wait (extra of them).
typedef struct {
    tl_stmt_t *stmts[4 + 2 * MAX_FIX]; // as placed in the tree (a scope when wrapped)
    tl_stmt_t *syncs[4 + 2 * MAX_FIX]; // the sync statements themselves
    int n, extra;
    bool pair, loop;
    tl_pipe_t src, dst;
    tl_side_t side;
    bool removed;
    tl_stmt_t *exit_seq; // a loop-carried pair: the sequence holding its wait after the loop
} item_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    tl_hazard_ctx_t *hz;
    const tl_arch_t *arch;
    tl_side_t side;
    uint32_t pipes;
    // walk position
    int depth;
    pos_t path[MAXD];
    bool in_scope[MAXD];
    int niter;
    iter_t iter[MAXD];
    int nloops;
    loopframe_t loops[MAXD];
    int next_inst;
    state_t st;
    dep_t dep;
    bool overflow;
    // inserted syncs
    item_t *items;
    int nitems, capitems;
    int next_vid;
    tl_stmt_t **disabled; // statements turned into empty seqs
    tl_stmt_t *saved;     // their original contents
    int ndisabled, capdisabled;
    tl_stmt_t *made_else[SLOTS]; // ifs given an else for a matching sync
    int nmade;
} sim_t;

// The pipes of each side (intra_sync.c).
extern const uint32_t isync_side_pipes[];

// --- the abstract execution (intra_sync_exec.c) -----------------------------------------------
// Executes the program of S->side once; true when it found a conflict (S->dep).
bool isync_simulate(sim_t *S);
// Pipe dst is ordered after everything complete on pipe src (a flag pair).
void isync_edge(sim_t *S, tl_pipe_t src, tl_pipe_t dst);

// --- placing syncs (intra_sync_place.c) -------------------------------------------------------
// Inserts the sync ordering conflict d (force_all: barrier_all).
tl_status_t isync_insert_for(sim_t *S, const dep_t *d, bool force_all);
// The source location of conflict d (for diagnostics).
tl_loc_t isync_loc_of(const sim_t *S, const dep_t *d);

// --- removing redundant syncs (intra_sync_reduce.c) ----------------------------------------------
// Turns sync statement s into an empty sequence (undone by isync_enable_last);
// false when out of memory.
bool isync_disable(sim_t *S, tl_stmt_t *s);
// Undoes the last n disables.
void isync_enable_last(sim_t *S, int n);
// Removes the disabled statements from the tree under s.
void isync_drop_disabled(sim_t *S, tl_stmt_t *s);
// Disables each inserted sync from items[first] on that the others make redundant.
void isync_reduce(sim_t *S, int first);
// Moves the waits after loops of items[first..] as late as the program stays ordered.
void isync_sink_exit_waits(sim_t *S, int first);

// --- event ids (intra_sync_ids.c) ----------------------------------------------------------------
void isync_assign_ids(sim_t *S);

#endif
