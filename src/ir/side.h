// Which core a statement runs on (cube, vector, both, none): one analysis for
// the CV split (pass/cv_split.c) and for the backends that run a kernel as the
// one program it is written as (the reference executor, the CPU target).
//
// Leaves, by the op table and the buffer scopes (never by names):
//  - a tile op goes with its operands' memory; one without on-chip operands
//    with its pipe;
//  - a scalar store with its buffer's memory, or (GM and alloc_var targets)
//    with the memory its expressions read; a let with what its value reads;
//  - a sync with its pipes, else with the previous leaf that has a side
//    (upstream's rule for manual syncs; barrier_all and sync_all stay NONE);
//  - a print with the memory it reads;
//  - a GM store or print that reads neither core's memory is marked ONCE: the
//    lockstep program runs it once.
// Compound statements take the union of their children and of the memory their
// own expressions read (loop bounds, conditions); T.Scope takes its own side.
// A compound statement left by a break or continue inside it is marked ESCAPES
// (a backend runs it in lockstep on every lane).
//
// The modes differ where their consumers need different answers:
//  - EXPERT (an expert-mode kernel run as written): only a leaf's own memory
//    (operand scopes, a store's buffer, a print's reads) decides; lets, syncs
//    and memory-less statements are NONE, i.e. every lane runs them.
//    Outside T.Scope upstream's build runs every statement on every core (no
//    core guard; the kernel is MIX_AIC_1_2 / 1_1 even when it never touches
//    the cube), and a core's build drops the other core's ops. What a core
//    then still computes only for those dropped ops has no effect there, so a
//    statement a core does not need is marked SKIP_CUBE / SKIP_VEC and that
//    core skips it: a core needs its own ops, stores, prints and syncs, those
//    of no core (GM stores, cross-core flags, ...) outside a T.Scope of the
//    other core, a while loop whose condition it can evaluate (it may never
//    end), and, closing over data and control flow (tl_side_need_close), the
//    lets and alloc_var updates they read and the loops and ifs around them.
//    Inside T.Scope of its own core it needs every statement. A top-level
//    loop that reads UB only to choose vector work (cann-bench
//    moe_re_routing's `cnt_ub` scan) is skipped by the AIC; one whose UB
//    read reaches a statement the AIC runs still reads UB there (an error).
//  - LOCKSTEP (a developer-mode kernel run as one program): all the rules
//    above; an op touching both cores' memory is a vector statement (the
//    developer-mode hand-offs L0C->UB and UB->L1); a memory-less GM store or
//    print that uses vid runs on the vector cores, not ONCE.
//  - SPLIT (cv_split): all the rules above, a tile op's side also counting
//    the memory its operand expressions (region starts, scalars) read; an op
//    or print touching both cores' memory is an error, as are nested T.Scopes
//    of different sides and a leaf inside T.Scope working on the other core's
//    memory; every leaf inside T.Scope takes the scope's side (FORCED, never
//    ONCE).
#ifndef TL_IR_SIDE_H
#define TL_IR_SIDE_H

#include "ir/ir.h"

typedef enum { TL_SIDE_MODE_EXPERT, TL_SIDE_MODE_LOCKSTEP, TL_SIDE_MODE_SPLIT } tl_side_mode_t;

// Flags next to a statement's side (tl_side_flags).
enum {
    TL_SIDE_ONCE = 4,
    TL_SIDE_ESCAPES = 8,
    TL_SIDE_FORCED = 16,
    TL_SIDE_SKIP_CUBE = 32,
    TL_SIDE_SKIP_VEC = 64
};

typedef struct tl_side_map tl_side_map_t;

// Classifies every statement of k's body. SPLIT reports its errors to d (the
// first one ends the analysis). *out is NULL on error; free with
// tl_side_map_free.
tl_status_t tl_side_map_build(const tl_kernel_t *k, tl_side_mode_t mode, tl_diag_t *d,
                              tl_side_map_t **out);
void tl_side_map_free(tl_side_map_t *m); // NULL is fine
// The side of s (TL_SIDE_NONE for a statement not in the analysed body).
tl_side_t tl_side_get(const tl_side_map_t *m, const tl_stmt_t *s);
// TL_SIDE_ONCE / TL_SIDE_ESCAPES / TL_SIDE_FORCED / TL_SIDE_SKIP_* of s.
unsigned tl_side_flags(const tl_side_map_t *m, const tl_stmt_t *s);
// Whether the agent of core `core` (CUBE or VEC) skips s (EXPERT mode).
bool tl_side_skips(const tl_side_map_t *m, const tl_stmt_t *s, tl_side_t core);
// Whether the kernel needs all its blocks resident at once (T.sync_all, or a
// cross-core flag of mode 0, which counts every core of a kind).
bool tl_side_all_resident(const tl_side_map_t *m);

// The mode a backend that runs k as written uses: LOCKSTEP for a
// developer-mode kernel (config.auto_cv_combine), else EXPERT.
tl_side_mode_t tl_side_run_mode(const tl_kernel_t *k);

// The agents (cores) of one block as a backend runs it: the AIC and two AIVs,
// or one AIV for `T.Kernel(n, threads=k)`; lane bits name sets of them.
typedef enum { TL_AGENT_AIC, TL_AGENT_AIV0, TL_AGENT_AIV1, TL_AGENT_COUNT } tl_agent_t;
#define TL_LANE(a)     (1u << (a))
#define TL_LANE_AIC    TL_LANE(TL_AGENT_AIC)
#define TL_LANE_VECTOR (TL_LANE(TL_AGENT_AIV0) | TL_LANE(TL_AGENT_AIV1))

const char *tl_side_agent_name(tl_agent_t a); // "AIC", "AIV0", "AIV1"
// The lanes a block of k has.
uint8_t tl_side_block_lanes(const tl_kernel_t *k);
// Those of `lanes` that run a statement of side `side` (NONE, BOTH: all).
uint8_t tl_side_lanes(uint8_t lanes, tl_side_t side);

// The cores whose memory e reads (its scalar loads).
tl_side_t tl_side_expr(const tl_expr_t *e);
// The core a pipe belongs to (M, MTE1, FIX: cube; V, MTE3: vector; else NONE).
tl_side_t tl_side_pipe(tl_pipe_t p);

// The variables (by id) and alloc_var registers (by buffer id) that statement
// st reads itself (a compound: its bounds / condition), marked true.
void tl_side_stmt_reads(const tl_stmt_t *st, bool *var_read, bool *buf_read);
// Closes need[1..n] (by[o]: the statements in pre-order, parent[o]: the origin
// of o's enclosing statement, 0 for none) under what a core must run to run
// the needed statements: the compounds around them, the lets and alloc_var
// stores whose variable a needed statement reads, and the break / continue of
// a needed loop. var_read / buf_read: scratch of k's vars.len / buffers.len,
// left holding what the needed statements read.
void tl_side_need_close(const tl_kernel_t *k, int n, const tl_stmt_t *const *by, const int *parent,
                        bool *need, bool *var_read, bool *buf_read);

#endif
