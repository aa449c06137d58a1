// The flag bookkeeping of the backends that run a kernel in host memory: the
// reference executor (exec_sync.c) and the CPU target (cpu/cpurt.c). Both
// keep these rules through this one module, so that a file behaves the same
// on both (tests/unit/test_cpu_sync.c holds them to it; they drifted apart
// once when each had its own copy).
//
// Intra-core set_flag / wait_flag order two pipes of one agent; a backend
// that runs the agent's statements in program order keeps only their
// bookkeeping: the id field of the instruction is 3 bits (CCE set_flag:
// "3bit事件ID"), so an id past 7 is its low 3 bits (tilec sim warns); a flag
// is one bit, so a second set before its wait is misuse whose effect depends
// on timing: the sets are counted and the caller warns (tilec sim models it);
// a wait with no set before it on its agent would wait forever (the agent
// issues its syncs in order: nothing after the wait can set it).
//
// A physical core keeps its cross-core counters from one block to the next
// (the counters are the core's registers; nothing in the kernel's start
// clears them, and pto-isa's a2a3 TPipe drains stale credits because they
// survive even to the next launch): block b runs on core b mod cores after
// block b - cores, and starts with what that block left (tl_flags_save_cross,
// tl_flags_restore_cross). A wait that takes such a carried release is a
// warning (tl_flags_take_cross).
//
// Cross-core flags are 4-bit counting semaphores with the modes of
// research/ascend_model.md §3.5: mode 2 pairs the AIC with both AIVs of its
// block (an AIC set counts for each AIV; an AIV set counts for the AIC once
// both AIVs have set), mode 1 the two AIVs, mode 0 all cores of a kind in the
// launch. A wait takes one count; the caller blocks while there is none.
//
// The functions say what happened and put the message in the caller's
// buffer; each backend reports it its own way (errors with the failing
// agent's block, warnings once per statement).
#ifndef TL_EXEC_FLAGS_H
#define TL_EXEC_FLAGS_H

#include "ir/ir.h"
#include "ir/side.h"
#include "target/arch.h"

// The flags of one agent (one AIC or AIV of a block).
typedef struct tl_flags {
    int64_t block; // its block and agent, for messages
    tl_agent_t agent;
    // intra-core: pending sets per (src, dst, id) and the statement of the first
    uint8_t event[TL_PIPE_COUNT][TL_PIPE_COUNT][TL_ARCH_EVENT_IDS_MAX];
    const tl_stmt_t *event_set[TL_PIPE_COUNT][TL_PIPE_COUNT][TL_ARCH_EVENT_IDS_MAX];
    // cross-core: counters, and sets waiting for the other participants (per mode)
    int counter[TL_ARCH_XCORE_IDS_MAX];
    int pending[3][TL_ARCH_XCORE_IDS_MAX];
    // of counter[id], the releases an earlier block on this core left (the
    // oldest, taken first), and the block that ran here before this one
    int carried[TL_ARCH_XCORE_IDS_MAX];
    int64_t carried_from;
} tl_flags_t;

// The cross-core counters an agent leaves to the same agent of the next block
// on its core.
typedef struct {
    bool valid;
    int64_t block;
    int counter[TL_ARCH_XCORE_IDS_MAX];
    int pending[3][TL_ARCH_XCORE_IDS_MAX];
} tl_flags_xstate_t;

typedef enum { TL_FLAGS_OK, TL_FLAGS_WARN, TL_FLAGS_FAIL } tl_flags_verdict_t;

enum { TL_FLAGS_MSG = 512 }; // a message buffer that holds every message

// No flag set; the agent `agent` of block `block`.
void tl_flags_reset(tl_flags_t *f, int64_t block, tl_agent_t agent);

// set_flag / wait_flag statement s with the evaluated id on f's agent: FAIL
// (pipes that are not two different real ones, a negative id, a wait with
// no set), WARN (a second set before its wait: counted all the same), OK.
tl_flags_verdict_t tl_flags_event(tl_flags_t *f, const tl_stmt_t *s, int64_t id, char *msg);

// The agents a cross-core set involves: the setter's block's AIC and vector
// cores, and for mode 0 every present agent of the setter's kind in the
// launch (`all`, which the caller fills only when s->sync.mode is 0).
typedef struct {
    tl_flags_t *aic, *vec[2];
    int nvec;
    tl_flags_t **all;
    int nall;
} tl_flags_peers_t;

// set_cross_flag statement s with id (checked to be in range) on agent f:
// FAIL (a pipe that cannot issue it, a mode it has no meaning in), WARN (a
// release or set that finds its 4-bit counter at 15 is lost: the counter
// saturates) or OK.
tl_flags_verdict_t tl_flags_set_cross(tl_flags_t *f, const tl_stmt_t *s, int64_t id,
                                      const tl_flags_peers_t *p, char *msg);

// At the end of f's block: its cross-core counters into *out; with `clear`
// (another block follows on the core) they leave f, so that tl_flags_residual
// does not count them.
void tl_flags_save_cross(tl_flags_t *f, tl_flags_xstate_t *out, bool clear);
// At the start of f's block (after tl_flags_reset): the counters the previous
// block on the core left, if any.
void tl_flags_restore_cross(tl_flags_t *f, const tl_flags_xstate_t *in);
// A wait_cross_flag that finds counter[id] > 0 takes one: WARN (with the
// message) when it is a release an earlier block on the core left, else OK.
tl_flags_verdict_t tl_flags_take_cross(tl_flags_t *f, int64_t id, char *msg);
// Whether the statement tree uses cross-core flags (sets or waits).
bool tl_flags_uses_cross(const tl_stmt_t *s);
// The cores blocks are spread over when carrying counters: `wave` when set
// (the simulator's cores), else the default chip's AI cores.
int tl_flags_cores(int wave);

// The flags f's agent leaves set at the end of its block, each as a warning
// text with its place (the first set of an intra-core flag; none for a
// cross-core one): intra-core ones only when `intra`. Returns how many.
int tl_flags_residual(const tl_flags_t *f, bool intra,
                      void (*note)(void *arg, tl_loc_t loc, const char *text), void *arg);

#endif
