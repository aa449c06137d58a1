// The functional executor (`tilec run`): executes a kernel's IR exactly as the
// language defines it (DESIGN.md §2). Every later backend is checked against it.
//
// Usage: create an executor for a kernel, give it arguments by parameter name
// (input tensors, scalar values, optional symbolic dims), run, read the outputs.
// Output and workspace tensors not given by the caller are allocated and filled
// with 0xFF bytes (NaN for floats): a kernel must not read what it did not write.
//
//   tl_exec_t *x;
//   tl_exec_create(&x, kernel, NULL, &diag);
//   tl_exec_set_tensor(x, "A", a);
//   tl_exec_set_int(x, "n", 128);
//   if (tl_exec_run(x) == TL_OK) c = tl_exec_tensor(x, "C");
//   tl_exec_destroy(x);
//
// Model: each block is one cube agent (AIC: L1, L0A, L0B, L0C) and two vector
// agents (AIV0/AIV1: one UB each; a single vector agent with a UB of `threads`
// times the size for `T.Kernel(n, threads=k)`), each with its own alloc_var
// registers; GM is shared. Scratchpads are byte arrays; buffers live at their
// planned address (buf->addr >= 0) or are placed in declaration order.
//
// Expert mode (config.auto_cv_combine false): the agents of a block run the
// body concurrently with T.Scope filtering, synchronised only by cross-core
// flags (counting semaphores) under a deterministic round-robin scheduler.
// Developer mode: one logical program per block in program order; cube
// statements run on the AIC, vector statements on each vector lane.
//
// Every error (bounds, scopes, flags, deadlock, ...) is reported to the diag
// given at creation with the statement's source location, and TL_ERR_RUNTIME is
// returned; the executor never exits or prints.
//
// Decisions where the language leaves room (details in exec_expr.c, ir/side.h):
// - scalar float -> int casts truncate and saturate (NaN -> 0), int -> int casts
//   wrap like the IR's constant folder, `round` is round-half-to-even;
// - expert mode: an agent that evaluates a load of memory it does not own (a UB
//   element on the AIC outside T.Scope) gets an error, not garbage;
// - developer mode: a scalar GM store that touches neither side's memory runs
//   once per block (on the vector lanes if it uses vid); a sync whose pipes do
//   not say its side goes with the previous statement that has one (upstream
//   CombineCV's rule); two vector lanes that both copy UB -> L1 leave the last
//   lane's data (upstream would race on the workspace).
#ifndef TL_EXEC_EXEC_H
#define TL_EXEC_EXEC_H

#include "exec/bind.h"
#include "exec/tileop.h"
#include "ir/ir.h"
#include "ir/side.h"
#include "rt/tensor.h"

typedef struct tl_exec tl_exec_t;

// --- hooks for the simulator -------------------------------------------------------
// Called after each executed leaf statement on each agent (and for each scalar
// load inside an expression), so that timing models and race detectors can be
// built on top without touching the semantics. Pointers are valid during the
// call only. A status other than TL_OK stops the run with that status.
typedef enum {
    TL_EXEC_EV_OP,    // tile op; `call` holds its evaluated operands
    TL_EXEC_EV_SYNC,  // sync statement completed (a wait: once satisfied); `id`
    TL_EXEC_EV_LOAD,  // scalar element load; `buf`, `elem`, `addr`
    TL_EXEC_EV_STORE, // scalar element store; `buf`, `elem`, `addr`
    TL_EXEC_EV_LET,   // let binding
    // A sync statement about to take effect (its id evaluated, nothing checked
    // yet), so that a checker can report misuse before the executor fails on
    // it; a blocked wait_cross_flag / T.sync_all is seen again on every retry.
    TL_EXEC_EV_SYNC_BEGIN,
    TL_EXEC_EV_SCOPE, // a T.Scope body starts on this agent (`stmt`: the T.Scope)
} tl_exec_event_kind_t;

typedef struct {
    tl_exec_event_kind_t kind;
    int64_t block;
    tl_agent_t agent;
    const tl_stmt_t *stmt;   // the statement (for LOAD: the one evaluating the load)
    const tl_opcall_t *call; // OP
    int64_t id;              // SYNC, SYNC_BEGIN: evaluated event or flag id (-1 for barriers)
    const tl_buffer_t *buf;  // LOAD / STORE
    int64_t elem;            // LOAD / STORE: row-major element index
    int64_t addr;            // LOAD / STORE: byte address in the scratchpad (-1: GM, register)
    const uint8_t *data;     // STORE: the element's bytes as stored
} tl_exec_event_t;

typedef tl_status_t (*tl_exec_hook_fn)(void *arg, const tl_exec_event_t *ev);

// Options; an all-zero struct (or NULL) gives the defaults.
typedef struct {
    bool warn_uninit;  // warn when a read touches scratchpad bytes never written in the block
    bool vector_first; // expert mode: schedule the vector agents before the AIC
    bool flags_checked; // the hook reports intra-core flag misuse (no warning here)
    int max_resident;  // blocks run together for mode-0 flags / T.sync_all (default 64)
    int64_t max_steps; // stop with an error after this many statements (0: no limit)
    int64_t capacity[TL_SCOPE_COUNT]; // scratchpad bytes per scope (0: the chip model's)
    tl_exec_hook_fn hook;
    void *hook_arg;
    // Timed scheduling (the simulator): clock(hook_arg, block, agent) is where
    // an agent stands on a time line (non-decreasing as it executes). The
    // scheduler then always advances the runnable thread with the smallest
    // clock (ties: thread order) until it passes the next one's, and a kernel
    // that does not need all blocks resident runs up to `wave` blocks at once:
    // slot i runs blocks i, i + wave, ... one after the other. Without a clock
    // (the default): round-robin, each thread until it blocks, one block at a
    // time.
    int64_t (*clock)(void *arg, int64_t block, tl_agent_t agent);
    int wave;
} tl_exec_opts_t;

// Scratchpad capacities that never limit a kernel (layout.h's tl_layout_unbounded).
void tl_exec_opts_unbounded(tl_exec_opts_t *o);

tl_status_t tl_exec_create(tl_exec_t **out, const tl_kernel_t *k, const tl_exec_opts_t *opts,
                           tl_diag_t *d);
void tl_exec_destroy(tl_exec_t *x); // NULL is fine

// The arguments the executor runs on: its own binding (bind.h), which the
// calls below fill, or another one (tl_exec_use_args; borrowed: the caller
// keeps it alive; NULL: its own again).
tl_bind_t *tl_exec_args(tl_exec_t *x);
void tl_exec_use_args(tl_exec_t *x, tl_bind_t *args);

// Arguments by parameter name, as tl_bind_set_*. Tensors are borrowed: the
// caller keeps them alive until the executor is destroyed.
tl_status_t tl_exec_set_tensor(tl_exec_t *x, const char *name, tl_tensor_t *t);
tl_status_t tl_exec_set_int(tl_exec_t *x, const char *name, int64_t v);
tl_status_t tl_exec_set_float(tl_exec_t *x, const char *name, double v);
// Explicit value of a symbolic dim (`-d topk=8`); checked against the shapes.
tl_status_t tl_exec_set_dim(tl_exec_t *x, const char *name, int64_t v);

// tl_bind_check of its arguments; tl_exec_run calls it when needed.
tl_status_t tl_exec_bind(tl_exec_t *x);
tl_status_t tl_exec_run(tl_exec_t *x);

// The tensor bound to a parameter (given or allocated), or NULL. Allocated
// tensors belong to the executor unless taken (the caller then destroys it).
tl_tensor_t *tl_exec_tensor(tl_exec_t *x, const char *name);
tl_tensor_t *tl_exec_take_tensor(tl_exec_t *x, const char *name);
bool tl_exec_dim(const tl_exec_t *x, const char *name, int64_t *out);
int64_t tl_exec_num_blocks(const tl_exec_t *x); // after bind
// Byte address of an on-chip buffer in its agent's scratchpad (-1 for GM).
int64_t tl_exec_buffer_addr(const tl_exec_t *x, const tl_buffer_t *b);
// Whether all blocks run at once (mode-0 cross-core flags or T.sync_all).
bool tl_exec_all_resident(const tl_exec_t *x);
// Text printed by T.printf / T.dump_tensor during the run.
const char *tl_exec_output(tl_exec_t *x);

#endif
