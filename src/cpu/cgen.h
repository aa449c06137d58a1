// C code generation for the CPU backend: a kernel's IR (after the front
// passes) becomes the C source of a module (abi.h). Expert-mode kernels get
// one function for the cube agent and one for the vector agents, each the
// body filtered to what that agent executes; developer-mode kernels get one
// function per block that runs the lanes AIC, AIV0, AIV1 in the order the
// reference executor does (a statement of one side lane after lane, a
// statement mixing both sides in lockstep). Scalar code and element-wise
// loops are plain C over typed pointers into the scratchpads; tile ops,
// intra- and cross-core flags and errors are calls through the runtime table.
//
// The side of every statement and the scratchpad addresses come from the
// analyses the reference executor uses too (ir/side.h, exec/layout.h), so both
// backends agree on what runs where and which buffers alias.
#ifndef TL_CPU_CGEN_H
#define TL_CPU_CGEN_H

#include "exec/layout.h"
#include "exec/num.h"
#include "ir/side.h"

typedef enum {
    TL_CGEN_SITE_OP,   // a tile op
    TL_CGEN_SITE_SYNC, // set/wait_flag, set/wait_cross_flag, T.sync_all
    TL_CGEN_SITE_ERR,  // a run-time check (message below)
} tl_cgen_site_kind_t;

// Something the generated code refers to by number.
typedef struct {
    tl_cgen_site_kind_t kind;
    const tl_stmt_t *stmt;
    tl_loc_t loc;
    int lane;        // developer mode: lane index; expert mode: 0 cube, 1 vector
    const char *msg; // ERR: printf format taking the error's values as int64
} tl_cgen_site_t;

typedef struct {
    char *source;          // the C text (heap)
    tl_cgen_site_t *sites; // sites[1..nsites) (0 is unused); heap
    int nsites;
    bool dev;               // developer mode: one `block` function
    bool needs_coro;        // has cross-core waits or T.sync_all
    const char *pch_header; // the system headers worth precompiling (jit.h), or NULL
} tl_cgen_result_t;

extern const char tl_cgen_prelude[];
// Span conversions float16 <-> float32 for inline loops; emitted only when used
// (it includes <immintrin.h>, which costs the compiler about 0.2 s).
extern const char tl_cgen_prelude_f16[];
// The system #include lines of a module with tl_cgen_prelude_f16, as one
// header for the JIT to precompile (the module keeps its own #include lines).
extern const char tl_cgen_pch_header[];

// Generates the module for k, whose statements run where `sides` says
// (tl_side_run_mode(k)) and whose buffers sit where `layout` says. The source
// ends before the module's export, which names the cache key: tl_cgen_export
// appends it (heap text).
tl_status_t tl_cgen_module(const tl_kernel_t *k, const tl_side_map_t *sides,
                           const tl_layout_t *layout, tl_cgen_result_t *out, tl_diag_t *d);
char *tl_cgen_export(const tl_cgen_result_t *r, const char *key);
void tl_cgen_free(tl_cgen_result_t *r);

// --- internals shared by cgen.c and cgen_expr.c ---------------------------------------
enum { TL_CGEN_LANES = 3 };

typedef struct {
    bool known;
    int64_t lo, hi;
} tl_cgen_range_t;

// Where the statement being emitted is (for tl_cgen_live): a sequence being
// emitted, with the index of its first item not yet taken, or a loop whose
// body is being emitted.
typedef struct {
    const tl_stmt_t *const *items;
    int n, next;
    const tl_stmt_t *loop; // a loop frame (items unused)
} tl_cgen_frame_t;

enum { TL_CGEN_FRAMES = 64 };

// A UB -> GM copy whose source an inline loop may have stored straight into
// the copy's destination (cgen_fuse_run.c): on lane `lane` the copy runs only
// when W<id>_t is 0.
typedef struct {
    const tl_stmt_t *s;
    int lane, id;
} tl_cgen_out_t;

enum { TL_CGEN_OUTS = 16 };

typedef struct {
    const tl_kernel_t *k;
    const tl_side_map_t *sides; // where each statement runs
    const int64_t *addr;        // per buffer id: its scratchpad address (exec/layout.h)
    uint8_t lanes;              // the agents of a block
    tl_diag_t *d;
    tl_buf_t *out;
    tl_cgen_site_t *sites;
    int nsites, capsites;
    bool dev;
    int lane;        // lane being emitted (dev: 0..2; expert: 0 cube, 1 vector)
    bool expert_vec; // expert vector function: vid is lanes[0].vid
    bool checked;    // the current statement has run-time checks
    uint8_t *defs;   // per var id: lanes that assign it (from the first pass)
    bool first_pass;
    bool uses_f16;   // an inline loop converts float16 (tl_cgen_prelude_f16 is needed)
    uint8_t *ro;     // per buffer id: GM inputs the kernel never writes (alias.h)
    uint8_t *ubuse;  // per buffer id: how UB buffers are used (first pass, cgen_copy.c)
    uint8_t *ubview; // per buffer id: a UB buffer read in place from GM (second pass)
    bool views;      // some buffer is (the inline loops drain the prefetch queue Q)
    tl_cgen_frame_t frames[TL_CGEN_FRAMES]; // innermost last
    tl_cgen_out_t outs[TL_CGEN_OUTS];       // copies written in place, innermost last
    int nouts;
    int nframes;
    int lost;                // frames not recorded (nested too deep): every span is live
    tl_cgen_range_t *ranges; // per var id
    int tmp;
    int indent;
    tl_status_t st;
} tl_cgen_t;

// Appends one line of C at the current indentation.
void tl_cgen_line(tl_cgen_t *g, const char *fmt, ...) TL_PRINTF(2, 3);
// C type holding a scalar value of dtype t ("float" for 16-bit and 8-bit floats).
const char *tl_cgen_vtype(tl_dtype_t t);
// A new run-time check site with a message; returns its number.
int tl_cgen_site(tl_cgen_t *g, tl_cgen_site_kind_t kind, const tl_stmt_t *s, tl_loc_t loc,
                 const char *fmt, ...) TL_PRINTF(5, 6);
// Appends the C expression of e (its value in tl_cgen_vtype(e->dtype)).
void tl_cgen_expr(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e);
// The C expression of e converted to dtype `as` (heap text).
char *tl_cgen_text(tl_cgen_t *g, const tl_expr_t *e, tl_dtype_t as);
// Appends the value `text` of dtype `from` converted to `to` (exec semantics).
void tl_cgen_cast(tl_cgen_t *g, tl_buf_t *b, tl_dtype_t to, tl_dtype_t from, const char *text);
// Appends the C expression of an integer-valued expression as int64 (errors
// when it is a float).
void tl_cgen_index(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e);
// The address expression of element idx of buffer b (bounds-checked when the
// range of the indices is not known to fit), as `(T *)ptr + flat`.
void tl_cgen_elem(tl_cgen_t *g, tl_buf_t *b, const tl_buffer_t *buf, int n, tl_expr_t *const *idx,
                  tl_loc_t loc);
// Loads from / stores to an element of buffer dtype t at address `addr`.
void tl_cgen_load(tl_buf_t *b, tl_dtype_t t, const char *addr);
void tl_cgen_store(tl_buf_t *b, tl_dtype_t t, const char *addr, const char *value);
// Range of an integer expression, if known.
tl_cgen_range_t tl_cgen_range(const tl_cgen_t *g, const tl_expr_t *e);
// Whether e is known to be the integer *v.
bool tl_cgen_const(const tl_cgen_t *g, const tl_expr_t *e, int64_t *v);
// Name of variable v on the current lane; false when it is never assigned there.
bool tl_cgen_var(tl_cgen_t *g, tl_buf_t *b, const tl_var_t *v);
// Emits the run of element-wise tile ops at items[0..n) that can become one
// inline loop (cgen_fuse*.c) on the lanes of mask; returns how many it took (0: none).
int tl_cgen_fuse(tl_cgen_t *g, const tl_stmt_t *const *items, int n, unsigned mask,
                 tl_side_t scope);
// Emits the sequence items[0..n) on the lanes of mask (the statements of a
// sequence statement, or those a fused run set aside to emit after its loop).
void tl_cgen_seq(tl_cgen_t *g, const tl_stmt_t *const *items, int n, unsigned mask,
                 tl_side_t scope);
// Whether bytes [lo, hi) of the current lane's UB may be read after the point
// of emission, where the statements next[0..n) run first and then the rest of
// the program as g->frames say (cgen_live.c).
bool tl_cgen_live(const tl_cgen_t *g, const tl_stmt_t *const *next, int n, int64_t lo, int64_t hi);
// Op statement s (whose `n` and `sc` arrays are emitted) as an inline GM <-> UB
// copy (cgen_copy.c): emits `if (run-time checks pass) { the copy } else {`,
// leaving the caller to emit the runtime call and close the brace; false
// (nothing emitted) when s does not qualify.
bool tl_cgen_copy(tl_cgen_t *g, const tl_stmt_t *s);
// UB buffers read in place (cgen_copy.c): in the first pass, statement s is
// emitted other than as an op of an inline loop or a whole-buffer copy of a
// read-only input (view_use), an inline loop writes buffer b (view_write);
// between the passes, view_plan picks the buffers whose copies are elided.
void tl_cgen_view_use(tl_cgen_t *g, const tl_stmt_t *s);
void tl_cgen_view_write(tl_cgen_t *g, const tl_buffer_t *b);
void tl_cgen_view_plan(tl_cgen_t *g);
// Appends the address of UB buffer b's first byte on the current lane.
void tl_cgen_ub_base(const tl_cgen_t *g, tl_buf_t *out, const tl_buffer_t *b);
// Whether e has no element loads (its value can be taken before a loop).
bool tl_cgen_pure(const tl_expr_t *e);
// The initialiser of an op's `n` array: each region operand's starts, then
// its extents (heap text, each item followed by ", ").
char *tl_cgen_op_nums(tl_cgen_t *g, const tl_op_t *op);
// UB buffers written in place (cgen_copy.c): whether statement s is an inline
// UB -> GM copy of the whole of b, in b's element order when its GM region is
// unclipped and one run, with index expressions free of loads (copy_out); then
// copy_out_target emits, before the loop that writes b, the pointer W<id>
// (b, or that GM region when the copy's run-time checks pass and it is
// unclipped and one run; then W<id>_t = 1) and W<id>_s (streaming stores: a
// large tensor, W<id> aligned to `align` bytes).
bool tl_cgen_copy_out(tl_cgen_t *g, const tl_stmt_t *s, const tl_buffer_t *b);
void tl_cgen_copy_out_target(tl_cgen_t *g, const tl_stmt_t *s, int id, int align);

#endif
