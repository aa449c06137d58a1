// The kernel-file evaluator: runs the factory's Python at compile time and
// traces @T.prim_func bodies into Tile IR.
//
// One evaluator walks the AST for both jobs. Outside a prim_func every value is
// a Python value. While a body is traced (`ev->kernel != NULL`), T.* calls emit
// IR statements into the current block, loops over T.serial/T.Parallel/... emit
// IR loops whose body is traced once, and `if` on an IR condition emits an IR if.
//
// Errors are reported to ev->diag at the offending source location; functions
// return NULL (values) or false/TL_ERR_COMPILE and the caller stops.
#ifndef TL_FRONT_EVAL_H
#define TL_FRONT_EVAL_H

#include "front/ast.h"
#include "front/value.h"

// A Python name scope: function locals chained to the defining scope.
struct tl_scope_env {
    tl_map_t names; // name -> tl_value_t*
    tl_env_t *parent;
};

typedef struct tl_module_rec tl_module_rec_t;
typedef struct tl_vfile tl_vfile_t;

// The names a kernel being traced uses (tl_trace_unique_name).
typedef struct {
    tl_kernel_t *kernel;
    tl_map_t taken, next; // name -> non-NULL; base -> next suffix to try
    int nvars, nbuffers;  // those of kernel's entered in taken
} tl_trace_names_t;

struct tl_eval {
    tl_arena_t *arena;
    tl_diag_t *diag;
    tl_value_t *builtins; // Python builtins as a module value
    tl_value_t *lang;     // tilelang.language (T)
    tl_value_t *tilelang; // tilelang
    tl_map_t files;       // absolute path -> tl_module_rec_t* (kernel files and their imports)
    tl_map_t vfs;         // absolute path -> tl_vfile_t*: files the host code wrote (pyfiles.c)
    int call_depth;       // recursion guard
    int depth;            // nested evaluations (tl_eval_enter)
    tl_loc_t loc;         // the expression or statement evaluated last entered
    long steps;           // statements executed at compile time, at most max_steps
    long max_steps;       // tl_front_opts_t.max_steps, else TL_EVAL_MAX_STEPS

    // Trace state: non-NULL while a @T.prim_func body is traced.
    tl_kernel_t *kernel;
    tl_trace_names_t names; // the names kernel uses (trace.c)
    tl_stmt_t *block;       // the sequence statements are appended to
    int parallel_depth;     // inside T.Parallel loops
    bool in_launch;         // inside `with T.Kernel(...)`
    tl_value_t *jit;        // the @tilelang.jit value whose factory is running, if any
    const char *name_hint;  // assignment target name of the call being evaluated
    tl_value_t *comp_unknown; // a comprehension being evaluated iterates over this unknown value
    tl_kernel_t *scratch;   // builds IR in the factory before a prim_func exists
    tl_stmt_t *if_frame;    // the IR `if` of an open `with T.If(...)` frame
    bool deferring;         // loading a file: kernel calls are recorded, not compiled
    tl_loc_t err_loc;       // where the first error since err_loc_set was cleared was reported
    bool err_loc_set;
    int jit_depth;          // factories instantiated inside each other
    tl_value_t *trace_target; // the target= of the jit whose kernel is being traced (or NULL)
    tl_pipe_t rs_pipe;        // npuir: the pipe of the enclosing `with T.rs(...)` (TL_PIPE_NONE)
    tl_vec_t jit_calls;       // while loading: pairs (factory def node, its first call) of jits
                              // a builder returned and the driver called (program(block_m))
    tl_value_t *first_instantiated; // the first kernel tl_front_instantiate made since reset
    tl_value_t *first_traced;       // the first @T.prim_func traced since reset
    tl_value_t *pass_context;       // config of the open `with tvm.transform.PassContext(...)`
    const tl_value_t *noted_fn; // last "in the call of" note (repeats of a recursion are left out)
    tl_loc_t noted_loc;
    // The chip torch.npu.get_device_properties() describes (tl_front_opts_t.chip).
    const char *chip_name;
    int cube_cores, vector_cores;
    // The first driver statement that failed while the file loaded (tolerated, see
    // eval_stmt.c): named when a factory then finds no call that gives its arguments.
    const char *dropped_why;
    tl_loc_t dropped_at, dropped_stmt;
    bool dropped_branch; // ... or it is a driver `if` tilec took neither branch of
    tl_loc_t unmodelled_at; // where the last "tilec does not model" warning pointed (once each)
    // Python's `random` module: a splitmix64 state, seeded 0 at each compile (pymods.c).
    uint64_t py_random;
    // Names an IR loop or branch rebound, reverted to their earlier value after its
    // body: name -> tl_reverted_t (trace.c), for a warning where that value is read.
    tl_map_t reverted;
};

// The default bound on statements run at compile time (a loop that never ends
// stops with a located error).
enum { TL_EVAL_MAX_STEPS = 2000000 };

void tl_eval_init(tl_eval_t *ev, tl_arena_t *a, tl_diag_t *d);
// Records the first driver statement that failed while a file loaded (tolerated);
// `where` is the error's location, `stmt` the statement's.
void tl_eval_note_dropped(tl_eval_t *ev, const char *why, tl_loc_t where, tl_loc_t stmt);

// Expressions, statements and calls evaluated inside one another, at most
// (TL_EVAL_MAX_BYTES, base/common.h, bounds the memory).
enum { TL_EVAL_MAX_DEPTH = 2 * TL_MAX_NESTING };
// One level deeper (false with an error at loc past TL_EVAL_MAX_DEPTH); the
// caller decrements ev->depth when done.
bool tl_eval_enter(tl_eval_t *ev, tl_loc_t loc);

// Reports an error and returns NULL (for `return tl_eval_fail(...)` in value code).
tl_value_t *tl_eval_fail(tl_eval_t *ev, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);

// --- operators on values (eval_ops.c) ------------------------------------------------
// Python semantics on Python values; when an operand is IR, the result is IR.
// `op` is one of the TL_BIN_* codes plus the extra Python operators below.
enum {
    TL_PYOP_TRUEDIV = TL_BIN_COUNT, // `/`
    TL_PYOP_FLOORDIV,                // `//`
    TL_PYOP_MATMUL,                  // `@`
    TL_PYOP_IS,
    TL_PYOP_IS_NOT,
    TL_PYOP_IN,
    TL_PYOP_NOT_IN,
};
tl_value_t *tl_eval_binop(tl_eval_t *ev, int op, tl_value_t *a, tl_value_t *b, tl_loc_t loc);
tl_value_t *tl_eval_unop(tl_eval_t *ev, tl_unop_t op, tl_value_t *a, tl_loc_t loc);
// Truthiness of a Python value. For an IR value that is not a constant, *is_ir
// is set and the caller must build IR (an `if` becomes an IR if).
// A T.alloc_var scalar in *v is replaced by a load of it.
bool tl_eval_truth(tl_eval_t *ev, tl_value_t **v, tl_loc_t loc, bool *is_ir, bool *ok);

// --- conversions for builtins (eval_conv.c) ----------------------------------------
bool tl_value_to_int(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, int64_t *out);
bool tl_value_to_double(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, double *out);
bool tl_value_to_bool(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, bool *out);
// A bool-valued option (True/False, 0/1, a constant comparison): no strings or lists.
bool tl_value_to_flag(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, bool *out);
const char *tl_value_to_cstr(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what);
bool tl_value_to_dtype(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, tl_dtype_t *out);
// A buffer's dtype (T.Tensor, T.alloc_*): also "int4", given as uint8 with *int4 set
// (tl_buffer_t.int4: the caller halves the last dimension).
bool tl_value_to_buffer_dtype(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, tl_dtype_t *out,
                              bool *int4);
// Marks b as a packed int4 buffer: its last dimension (constant: even) becomes
// the bytes that hold it (tl_buffer_t.int4). False after an error at loc.
bool tl_eval_int4_buffer(tl_eval_t *ev, tl_buffer_t *b, tl_loc_t loc);
// A Python number or an IR value as an IR expression (literals get int32/float32
// unless `hint` is a valid dtype, which literals then take).
tl_expr_t *tl_value_to_expr(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, int hint);
// After an error about v: a note saying where a None with a known origin
// (an argparse option without default) came from.
void tl_value_explain(tl_eval_t *ev, const tl_value_t *v);
// Whether v can become an IR expression (number, EXPR, dtype-constructed value).
bool tl_value_is_exprlike(const tl_value_t *v);
// A buffer, region or single-element load as a region operand.
tl_region_t *tl_value_to_region(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what);
// An int or a tuple/list of ints as a constant shape.
// empty_ok: a dimension may be 0 (the caller handles an empty shape).
bool tl_value_to_shape(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, int64_t *shape, int *ndim, bool empty_ok);
// Elements of a tuple or list (NULL with an error otherwise).
tl_value_t **tl_value_items(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc, const char *what, int *n);

// Formats v by a format spec (f-string `{v:>8.3f}`, str.format); NULL/"" is str(v).
bool tl_eval_format(tl_eval_t *ev, tl_buf_t *out, tl_value_t *v, const char *spec, tl_loc_t loc);
// `fmt % args` for a str fmt (printf-style formatting).
tl_value_t *tl_eval_percent(tl_eval_t *ev, const tl_value_t *fmt, tl_value_t *args, tl_loc_t loc);

// --- calls ----------------------------------------------------------------------------
// Looks up argument `pos` positionally or by keyword `kw` (either may be -1/NULL).
tl_value_t *tl_call_arg(const tl_call_t *c, int pos, const char *kw);
tl_loc_t tl_call_arg_loc(const tl_call_t *c, int pos, const char *kw);
// Checks counts and keyword names: at most max_pos positional, at least min_req
// arguments counting keywords, every keyword in `kws` (NULL-terminated; may be NULL).
bool tl_call_check(tl_eval_t *ev, const tl_call_t *c, const char *fname, int min_req, int max_pos,
                   const char *const *kws);
// An arena copy of a call's arguments (without its receiver).
tl_call_t *tl_call_copy(tl_eval_t *ev, const tl_call_t *c);
// Calls any callable value (function, builtin, dtype, jit ...).
tl_value_t *tl_eval_call(tl_eval_t *ev, tl_value_t *fn, tl_call_t *call);

// --- tracing helpers (trace.c) ----------------------------------------------------------
void tl_trace_emit(tl_eval_t *ev, tl_stmt_t *s);
// Requires an active trace; reports `what` cannot be used outside a prim_func otherwise.
bool tl_trace_require(tl_eval_t *ev, tl_loc_t loc, const char *what);
// The kernel IR is built in: the traced kernel, or (in the factory, before any
// prim_func exists) a scratch kernel that owns symbolic dims and expressions.
tl_kernel_t *tl_eval_ir(tl_eval_t *ev);

// --- evaluator internals shared by eval*.c, module.c, trace.c ----------------------------
typedef enum { TL_FLOW_NORMAL, TL_FLOW_RETURN, TL_FLOW_BREAK, TL_FLOW_CONTINUE, TL_FLOW_ERROR } tl_flow_t;

typedef struct tl_frame {
    tl_env_t *env;     // local names
    tl_env_t *globals; // the module's names
    tl_value_t *ret;   // value of `return`
    const char *dir;   // directory of the file being evaluated (for imports)
    tl_value_t *module_ns; // the module value the globals belong to
    bool module_level; // top-level statements of a file (errors poison names)
    bool traced;       // a @T.prim_func body or a @T.macro: `for ... in range()` is an IR loop
    tl_loc_t ret_loc;  // the last `return` executed (for "return in a kernel loop")
} tl_frame_t;

// Diagnostics checkpoints: errors reported after a mark can be taken back
// (module-level tolerance, compile-time `try`, running test functions).
typedef struct {
    size_t text_len;
    int nerrors, nwarnings;
    char *first_error;
} tl_diag_mark_t;
tl_diag_mark_t tl_eval_mark(tl_eval_t *ev);
void tl_eval_rollback(tl_eval_t *ev, tl_diag_mark_t m);
// The first "error: ..." line reported since the mark (an arena copy).
const char *tl_eval_error_since(tl_eval_t *ev, tl_diag_mark_t m);

tl_env_t *tl_env_new(tl_eval_t *ev, tl_env_t *parent);
tl_value_t *tl_env_lookup(tl_env_t *env, const char *name);
void tl_env_set(tl_eval_t *ev, tl_env_t *env, const char *name, tl_value_t *v);

tl_value_t *tl_eval_expr(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n);
tl_flow_t tl_exec_stmt(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n);
tl_flow_t tl_exec_body(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_list_t *body);
// Materialises a Python iterable (list, tuple, str, dict keys, Python range) as a list.
tl_value_t *tl_eval_iterate(tl_eval_t *ev, tl_value_t *v, tl_loc_t loc);
// Starts the error for a Python method of str/list/tuple/dict tilec does not model;
// driver code that stops on one warns (eval_stmt.c, front.c) instead of staying silent.
#define TL_EVAL_UNMODELLED "tilec does not model"
// Python's list.sort(key=, reverse=) on list l, in place (stable); false with an error.
bool tl_eval_sort_list(tl_eval_t *ev, tl_value_t *l, tl_value_t *key, tl_value_t *reverse, tl_loc_t loc);
int tl_eval_pyop_of_ast(int ast_binop);

// TVMScript's comparisons, and / or / not and truth in traced frames (eval_tvm.c).
bool tl_tvm_is_prim(const tl_value_t *v);
// v marked as a TVM PrimExpr node (a copy; v itself when it is one).
tl_value_t *tl_tvm_node(tl_eval_t *ev, tl_value_t *v);
// The value `target = v` binds in frame fr: a LetStmt variable in a traced frame.
tl_value_t *tl_tvm_let(tl_eval_t *ev, const tl_frame_t *fr, const tl_ast_node_t *target,
                       tl_value_t *v);
tl_value_t *tl_tvm_boolop(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n);
tl_value_t *tl_tvm_not(tl_eval_t *ev, tl_value_t *a, tl_loc_t loc);
// False (with an error at loc) when TVM's parser cannot take Python's truth of c.
bool tl_tvm_check_truth(tl_eval_t *ev, const tl_value_t *c, tl_loc_t loc);
// r, the result of `left OP right` in frame fr, as TVM's Python operators make
// it in a plain Python function run while tracing (an EqualOp's truth).
tl_value_t *tl_tvm_python_compare(tl_eval_t *ev, const tl_frame_t *fr, int op, const tl_value_t *left,
                                  const tl_value_t *right, tl_value_t *r);
// Python's truth of *vp for an if / while / assert / and / or / not / `a if c
// else b` in frame fr: tl_eval_truth, except in a plain Python function run
// while tracing, where a TVM expression's truth raises in TVM (an error here)
// unless it is an EqualOp / NotEqualOp (tvm_truth).
bool tl_eval_cond(tl_eval_t *ev, const tl_frame_t *fr, tl_value_t **vp, tl_loc_t loc, bool *is_expr,
                  bool *ok);
tl_value_t *tl_eval_getattr(tl_eval_t *ev, tl_value_t *obj, const char *name, tl_loc_t loc);
// A class attribute read from instance `inst`: a function becomes a method bound to it (to
// its class for @classmethod); @staticmethod functions and other values are returned as they are.
tl_value_t *tl_eval_bind_method(tl_eval_t *ev, tl_value_t *v, tl_value_t *inst);
// The key of m closest to `name` by edit distance (for "did you mean"), if
// closer than *best_dist and close enough; else `best`.
const char *tl_eval_closest(const tl_map_t *m, const char *name, const char *best, int *best_dist);
// Binds `target` (a name, tuple/list, subscript or attribute) to v.
bool tl_eval_assign(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *target, tl_value_t *v);
// Makes a user function value from a def/lambda node evaluated in `fr`.
tl_value_t *tl_eval_make_function(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *def);

// Trace forms of statements (trace.c): called by eval_stmt.c when the loop
// iterable / condition / context is IR.
tl_flow_t tl_trace_for(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *range);
tl_flow_t tl_trace_if(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *cond);
tl_flow_t tl_trace_while(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *cond);
tl_flow_t tl_trace_with(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, int item,
                        tl_value_t *ctx);
// `name = value` inside a traced body: lets, alloc_var stores, buffer naming.
bool tl_trace_bind(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *target, tl_value_t *v);
// Reading `name` (value v) in a traced body: warns once when an IR loop or branch
// rebound it, so that here it is its value from before that body again.
void tl_trace_check_reverted(tl_eval_t *ev, tl_frame_t *fr, const char *name, const tl_value_t *v,
                             tl_loc_t loc);
// `buf[idx] = value` inside a traced body.
bool tl_trace_store(tl_eval_t *ev, tl_frame_t *fr, tl_value_t *buf, const tl_ast_node_t *index,
                    tl_value_t *v, tl_loc_t loc);
// `buf[idx]` inside a traced body: a load (all scalar indices) or a region.
tl_value_t *tl_trace_subscript(tl_eval_t *ev, tl_frame_t *fr, tl_value_t *buf,
                               const tl_ast_node_t *index, tl_loc_t loc);

// Module system (module.c).
tl_flow_t tl_eval_import(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n);

#endif
