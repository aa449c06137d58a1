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

// MAXD: levels of sequences the walk goes through (the verifier bounds them).
// MAX_LOOPS: loops inside one another the abstract execution runs (every
// body twice: each level doubles the work).
enum {
    MAXD = TL_MAX_IR_DEPTH + 8,
    MAX_LOOPS = 12,
    SLOTS = 64,
    MAX_ROUNDS = 5000,
    EVENT_IDS = 8,
    MAX_FIX = 4
};

#define BIT(p) (1u << (p))

typedef struct {
    tl_stmt_t *seq;
    int index;
} pos_t;

typedef struct {
    const tl_stmt_t *loop;
    int inst, copy; // copy 1 or 2 (the simulated iteration); 0: any (after the loop)
} iter_t;

// An interned walk position (the sequences and indices from the kernel body)
// and an interned list of loop iterations: records share them, and two
// records are in the same iterations exactly when their pointers are equal.
typedef struct {
    int n;
    pos_t p[];
} path_t;

typedef struct {
    int n;
    iter_t it[];
} iters_t;

// The accesses of one statement (tl_hazard_stmt), computed once.
typedef struct {
    const tl_stmt_t *stmt;
    int n;
    tl_hazard_access_t *a;
} accs_t;

// One memory access of the abstract execution.
typedef struct {
    const tl_hazard_access_t *acc;
    const path_t *path;
    const iters_t *iter;
    uint64_t slots; // pending set_flag tokens covering it
    uint32_t ord;   // pipes ordered after this access
    int acc_index;
    uint8_t pipe; // acc's pipe and whether it writes (read where it matters)
    bool write;
} rec_t;

// A record spelled out (the producer of a conflict, for placing its sync).
typedef struct {
    tl_hazard_access_t acc;
    int acc_index;
    uint32_t ord;
    int npath, niter;
    pos_t path[MAXD];
    iter_t iter[MAXD];
} prod_t;

// An open-addressing set of pointers (interning, caches).
typedef struct {
    void **slot;
    uint64_t *hash;
    int cap, n;
} isync_tab_t;

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

// A checkpoint of the walk: the state just before the statement at a plain
// position (intra_sync_resume.c).
typedef struct {
    const path_t *at; // interned
    state_t st;
    int next_inst;
} cp_t;

enum { CP_OFF, CP_BUILD, CP_TRIAL };

typedef struct {
    state_t *brk, *cont;
    int nbrk, ncont;
} loopframe_t;

typedef struct {
    bool found;
    prod_t prod;    // the unordered producer
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
    const tl_stmt_t *deep_loop; // a loop nested more than MAX_LOOPS deep (overflow set)
    // inserted syncs
    item_t *items;
    int nitems, capitems;
    int next_vid;
    tl_stmt_t **disabled; // statements turned into empty seqs
    tl_stmt_t *saved;     // their original contents
    int ndisabled, capdisabled;
    tl_stmt_t *made_else[SLOTS]; // ifs given an else for a matching sync
    int nmade;
    // interned paths and iterations, the statements' accesses
    tl_arena_t arena;
    isync_tab_t paths, iters, accs;
    accs_t sync_accs; // a sync's accesses (recomputed each time)
    int sync_cap;
    // ordering conflicts (intra_sync.c): syncs inserted so far, the last
    // conflict and how often it came back; with fix_inline the walk orders
    // a conflict at the statement it is at itself (isync_fix_here)
    int rounds, repeats, last_index;
    const tl_stmt_t *last_prod, *last_stmt;
    bool fix_inline;
    tl_status_t fix_status;
    // checkpoints (intra_sync_resume.c): cp_mode CP_BUILD takes them after
    // enough work, CP_TRIAL compares with them; plain[d]: level d of the walk
    // is reached through sequences and scopes alone
    int cp_mode;
    cp_t *cps, *pend;
    int ncps, capcps, npend, cappend;
    size_t cp_bytes;
    int cp_gap;
    int64_t work, work_at;
    bool plain[MAXD];
    int resume_depth; // > 0: the walk goes to resume_path first
    pos_t resume_path[MAXD];
    int cursor, hi_depth; // a trial: the next reference checkpoint; converge after hi_path
    pos_t hi_path[MAXD];
    bool stop, converged;
    isync_tab_t anchors; // statement -> its plain position (isync_anchor_all)
    // upstream's order (intra_sync_place.c): in a kernel with its own cross-core flags,
    // gm_written[id] for each GM buffer some statement writes (else NULL), and
    // per side the pipes of the kernel's own set_cross_flag statements on it
    bool *gm_written;
    uint32_t cross_pipes[TL_SIDE_BOTH + 1];
} sim_t;

// The pipes of each side (intra_sync.c).
extern const uint32_t isync_side_pipes[];
// Orders the conflict S->dep found at the statement the walk is at, when its
// sync goes right before that statement; false otherwise (S->fix_status: an
// error).
bool isync_fix_here(sim_t *S);

// --- states (intra_sync_state.c) -----------------------------------------------------------------
const path_t *isync_path(sim_t *S, const pos_t *p, int n);
const iters_t *isync_iters(sim_t *S, const iter_t *it, int n);
const accs_t *isync_accesses(sim_t *S, const tl_stmt_t *s);
void isync_tab_free(isync_tab_t *t);
bool isync_tab_grow(isync_tab_t *t); // room for one more entry
// The entry equal to key (eq) or the empty slot where it goes.
void **isync_tab_find(isync_tab_t *t, uint64_t h, bool (*eq)(const void *e, const void *key),
                      const void *key);
void isync_tab_put(isync_tab_t *t, void **at, uint64_t h, void *v);
void isync_state_free(state_t *s);
void isync_state_copy(sim_t *S, state_t *dst, const state_t *src);
rec_t *isync_push_rec(sim_t *S, state_t *st);
// a := the state after either a or b (b is freed)
void isync_meet(sim_t *S, state_t *a, state_t *b);
// Whether access a touches every byte of its on-chip buffer (in any iteration).
bool isync_whole_buffer(const tl_hazard_access_t *a);
// Records of loop L's instance inst become records of "some iteration".
void isync_close_loop(sim_t *S, const tl_stmt_t *L, int inst);

// --- the abstract execution (intra_sync_exec.c) -----------------------------------------------
// Executes the program of S->side once; true when it found a conflict (S->dep).
bool isync_simulate(sim_t *S);
// The same from checkpoint `from` on (NULL: the start).
bool isync_run(sim_t *S, const cp_t *from);
// Pipe dst is ordered after everything complete on pipe src (a flag pair).
void isync_edge(sim_t *S, tl_pipe_t src, tl_pipe_t dst);

// --- checkpoints (intra_sync_resume.c) ----------------------------------------------------------
// The number of leading levels of a path that are plain (its anchor).
int isync_anchor(const pos_t *path, int n);
// Order of two plain positions (<0, 0, >0).
int isync_pos_cmp(const pos_t *a, int na, const pos_t *b, int nb);
void isync_cp_clear(sim_t *S);
// At plain level d (S->path[0..d]): takes or compares a checkpoint; true
// when the walk stops there.
bool isync_cp_visit(sim_t *S, int d);
// Executes the program again from the last checkpoint at or before the position.
bool isync_resume(sim_t *S, const pos_t *path, int n);
// Executes the program, changed only between positions lo and hi, from the
// last checkpoint before lo until its state equals the reference's after hi;
// true when it found a conflict. Otherwise its states become the reference.
bool isync_trial(sim_t *S, const pos_t *lo, int nlo, const pos_t *hi, int nhi);
// Anchors (plain positions) of every statement, then one statement's.
void isync_anchor_all(sim_t *S);
const path_t *isync_anchor_of(sim_t *S, const tl_stmt_t *s);

// --- placing syncs (intra_sync_place.c) -------------------------------------------------------
// Inserts the sync ordering conflict d (force_all: barrier_all).
tl_status_t isync_insert_for(sim_t *S, const dep_t *d, bool force_all);
// Whether the sync for conflict d is one barrier right before d's statement.
bool isync_inserts_here(const sim_t *S, const dep_t *d, bool force_all);
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
