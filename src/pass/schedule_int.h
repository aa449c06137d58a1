// Internals of the schedule pass (see schedule.c): the nodes of a segment,
// the timing model and the summaries of compound statements, shared by the
// walk (schedule.c), the costs and the timing model (schedule_cost.c), the
// dependence graph with unrolling and fusion (schedule_graph.c) and the list
// scheduler (schedule_list.c).
#ifndef TL_PASS_SCHEDULE_INT_H
#define TL_PASS_SCHEDULE_INT_H

#include "target/arch.h"
#include "pass/hazard.h"
#include "pass/pass.h"

enum {
    MAX_NODES = 1536,     // a longer stretch between barriers keeps its order
    UNROLL_TRIP = 8,      // loops unrolled: at most this many iterations
    UNROLL_STMTS = 32,    // and this many statements in all
    MAX_FUSE = 64,        // fusions per sequence
    MAX_LOOP_NODES = 512, // loop bodies modeled over two iterations up to this size
};

// Dependence kinds between two statements (bits of dep_t).
enum {
    DEP = 1,     // the later must stay after the earlier
    DEP_MEM = 2, // through memory (the later waits for the earlier's pipe)
    DEP_S = 4,   // a scalar access of the later one (the scalar unit waits)
};

typedef unsigned char dep_t;

// Modeled cost of a sequence, loop or if as one unit: from its start, when
// each pipe is free again and when its last op there is done, and the
// scalar unit's time.
typedef struct {
    const tl_stmt_t *s;
    int64_t span;                // until everything is done
    int64_t issue;               // the scalar unit's time (with its stalls)
    int64_t free[TL_PIPE_COUNT]; // each pipe's last occupancy ends
    int64_t done[TL_PIPE_COUNT]; // each pipe's last op is done
    unsigned pipes;              // pipes it uses (bit per tl_pipe_t)
    bool scalar;                 // it has scalar statements (they wait in the scalar unit)
} summary_t;

typedef enum { N_PIPE, N_SCALAR, N_UNIT } node_kind_t;

typedef struct {
    tl_stmt_t *s;
    node_kind_t kind;
    tl_pipe_t pipe;             // N_PIPE
    int64_t occ, lat;           // N_PIPE: occupancy, latency; N_SCALAR: occ
    int64_t lat_cold, lat_warm; // GM reads: the latency with a cold L2 and a warm one
    int64_t pre;                // scalar cycles before it issues (loads of its operands)
    summary_t sum;              // N_UNIT
    int acc0, acc1;             // its memory accesses in sched_t.acc
    int reg0, reg1;             // its register accesses in sched_t.reg
    const tl_var_t *def;        // a let: the variable it defines
    int64_t height;             // modeled cycles from its start to the end of the sequence
    int group;                  // an unrolled loop's statements: the loop's index, else -1
} node_t;

typedef struct {
    const tl_buffer_t *buf;
    bool write;
} reg_t;

// One placed node in the timing model.
typedef struct {
    int64_t start, ready, fire;
    int epoch;
} slot_t;

typedef struct {
    int64_t issue;
    int64_t free[TL_PIPE_COUNT], done[TL_PIPE_COUNT];
    int epoch[TL_PIPE_COUNT];
} model_t;

// An unrolled loop: its copies' statements, in order, for rolling it back.
typedef struct {
    tl_stmt_t *loop;
    tl_stmt_t **stmts;
    int n;
} unrolled_t;

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    const tl_arch_t *arch;
    tl_hazard_ctx_t *hz;
    bool *enclosing; // per var id: a loop around the sequence being scheduled
    int nvars;
    // summaries of compound statements (open addressing on the pointer)
    summary_t *sums;
    int capsums, nsums;
    // the current segment
    node_t *nodes;
    int n;
    dep_t *dep; // n x n: dep[i * n + j], i before j
    int *mpred; // the memory predecessors of node j: mpred[mp0[j] .. mp0[j + 1])
    int *mp0, capmpred;
    tl_hazard_access_t *acc;
    int nacc, capacc;
    reg_t *reg;
    int nreg, capreg;
    // statistics (for the dump note)
    int moved, unrolled, fused;
    bool oom;
} sched_t;

// Modeled cycles of an order with a cold L2 and with a warm one.
typedef struct {
    int64_t cold, warm;
} cost_t;

// --- schedule.c ---------------------------------------------------------------------------------
// Grows array p of *cap elements of `size` bytes to hold `need` (S->oom when it cannot).
void *sched_grow(sched_t *S, void *p, int *cap, int need, size_t size);
// The summary of compound statement s, if it has one yet.
summary_t *sched_sum_find(sched_t *S, const tl_stmt_t *s);
// Whether leaf s stays where it is (a barrier for the statements around it).
bool sched_fixed_leaf(const tl_stmt_t *s);

// --- costs and the timing model (schedule_cost.c) ---------------------------------------------
// The pipe, occupancy and latency of leaf node n.
void sched_leaf_cost(sched_t *S, node_t *n);
void sched_model_init(model_t *m);
// Places node i after the placed nodes (slot[] of its predecessors set);
// returns its start and, when commit, updates the model and slot[i].
int64_t sched_place(const sched_t *S, model_t *m, slot_t *slot, int i, bool commit);
int64_t sched_model_end(const model_t *m);
// Modeled cycles of the nodes in `order` (the model's end state in *out).
int64_t sched_model_order(const sched_t *S, const int *order, slot_t *slot, model_t *out);
// Appends the modeled run m of nodes (pipes, scalar: what they use) to sum,
// after everything sum holds.
void sched_summary_add(summary_t *sum, const model_t *m, unsigned pipes, bool scalar);

// --- the dependence graph, unrolling and fusion (schedule_graph.c) ----------------------------
// The trip count of loop s: its constant bounds' difference, else 1.
int64_t sched_trip_of(const tl_stmt_t *s);
// The modeled cost of compound statement s as one unit.
summary_t sched_summary_of(sched_t *S, const tl_stmt_t *s);
// Nodes and dependences of items[0 .. n).
bool sched_build(sched_t *S, tl_stmt_t **items, int n);
// Replaces small loops of seq by their iterations; records them in *un.
int sched_unroll_small(sched_t *S, tl_stmt_t *seq, unrolled_t *un, int max);
// Puts back each unrolled loop whose statements stayed together, in order.
void sched_roll_back(sched_t *S, tl_stmt_t *seq, const unrolled_t *un, int nun);
// Fuses one pair of independent loops of items[lo .. hi) of seq; true when it did.
bool sched_fuse_one(sched_t *S, tl_stmt_t *seq, int lo, int hi);

// --- list scheduling (schedule_list.c) --------------------------------------------------------
// Whether c ends earlier than best with a cold L2 and no later with a warm one.
bool sched_better(cost_t c, cost_t best);
// Schedules items[0 .. n) in place (`body`: they are a whole loop body) and
// appends the modeled run of the order kept to sum.
cost_t sched_segment(sched_t *S, tl_stmt_t **items, int n, bool body, summary_t *sum, bool *moved);

#endif
