// Compile-time values of the kernel-file evaluator.
//
// The factory runs as Python: ints, floats, strings, tuples, lists, dicts,
// functions and modules. While the @T.prim_func body is traced, values can also
// be IR: scalar expressions over loop variables and symbolic dims (EXPR),
// buffers, buffer regions, loop ranges and frames of `with` statements. A Python
// int or float combined with an EXPR becomes an EXPR; two Python values stay
// Python values, folded with Python semantics (floor division, modulo).
#ifndef TL_FRONT_VALUE_H
#define TL_FRONT_VALUE_H

#include "base/arena.h"
#include "base/buf.h"
#include "base/hash.h"
#include "ir/ir.h"

typedef struct tl_value tl_value_t;
typedef struct tl_eval tl_eval_t;
typedef struct tl_scope_env tl_env_t;
typedef struct tl_ast_node tl_ast_node_t;

#define TL_VALUE_KINDS(X)                                                                          \
    X(TL_V_NONE, "NoneType")                                                                       \
    X(TL_V_BOOL, "bool")                                                                           \
    X(TL_V_INT, "int")                                                                             \
    X(TL_V_FLOAT, "float")                                                                         \
    X(TL_V_STR, "str")                                                                             \
    X(TL_V_TUPLE, "tuple")                                                                         \
    X(TL_V_LIST, "list")                                                                           \
    X(TL_V_DICT, "dict")                                                                           \
    X(TL_V_FUNC, "function")       /* user function or lambda */                                   \
    X(TL_V_BUILTIN, "builtin")     /* C function, possibly bound to a self value */                \
    X(TL_V_MODULE, "module")       /* namespace: imported module, class, T.tile, ... */            \
    X(TL_V_OPAQUE, "object")       /* something we do not model (torch, argparse results...) */    \
    X(TL_V_DTYPE, "dtype")         /* T.float32 and friends: a dtype, callable as a cast */        \
    X(TL_V_EXPR, "PrimExpr")       /* IR scalar expression */                                      \
    X(TL_V_BUFFER, "Buffer")       /* IR buffer (tensor parameter or on-chip allocation) */        \
    X(TL_V_REGION, "BufferRegion") /* sliced buffer */                                             \
    X(TL_V_RANGE, "range")         /* range(...) / T.serial / T.Parallel / T.Pipelined */          \
    X(TL_V_FRAME, "frame")         /* T.Kernel(...), T.Scope(...): a `with` context */             \
    X(TL_V_KERNEL, "PrimFunc")     /* a traced @T.prim_func */                                     \
    X(TL_V_JIT, "JITKernel")       /* @tilelang.jit factory (a wrapped function) */                \
    X(TL_V_TENSORTYPE, "Tensor")   /* T.Tensor(shape, dtype): a parameter annotation */            \
    X(TL_V_ERROR, "error")         /* a name whose definition failed; using it reports why */      \
    X(TL_V_WIDE, "int (past 64 bits)") /* int arithmetic only: eval_ops.c */

typedef enum {
#define X(id, name) id,
    TL_VALUE_KINDS(X)
#undef X
    TL_V_COUNT
} tl_value_kind_t;

// Builtin functions receive positional and keyword arguments.
typedef struct tl_call {
    int nargs;
    tl_value_t **args;
    tl_loc_t *arg_locs;
    int nkw;
    const char **kw_names;
    tl_value_t **kw_values;
    tl_loc_t *kw_locs;
    tl_loc_t loc;          // the call
    const char *name_hint; // assignment target when the call is `x = f(...)` (names buffers)
    tl_value_t *self;      // bound receiver, or NULL
} tl_call_t;

typedef tl_value_t *(*tl_builtin_fn)(tl_eval_t *ev, tl_call_t *call);

typedef enum {
    TL_FRAME_KERNEL,
    TL_FRAME_SCOPE,
    TL_FRAME_IF,
    TL_FRAME_THEN,
    TL_FRAME_ELSE,
    TL_FRAME_RS, // npuir's T.rs(pipe): the pipe of the syncs inside
    TL_FRAME_NULL
} tl_frame_kind_t;

struct tl_value {
    tl_value_kind_t kind;
    // A T.alloc_var buffer bound to a name in a traced frame: reading that
    // name there is a load of the variable, not the buffer (TileLang's parser).
    bool var_named;
    // TVM's parser holds a PrimExpr node here, not a Python value or an IntImm:
    // a name assigned in a traced frame (a LetStmt variable) or a comparison,
    // and / or / not of a PrimExpr there, and arithmetic on those (eval_tvm.c).
    bool tvm_node;
    // In a plain Python function run while tracing, `x == y` / `x != y` with a
    // TVM expression x (or y, reflected) is tvm's EqualOp / NotEqualOp, whose
    // truth is x.same_as(y): 1 false, 2 true; 0 not such a value.
    uint8_t tvm_truth;
    union {
        bool b;
        int64_t i;
        double f;
        struct {
            int64_t hi;
            uint64_t lo;
        } wide; // TL_V_WIDE: hi * 2^64 + lo
        struct {
            const char *s;
            size_t len;
        } str;
        struct {
            int n, cap;
            tl_value_t **items;
        } seq; // TUPLE and LIST
        struct {
            int n, cap;
            tl_value_t **keys, **values;
        } dict;
        struct {
            const char *name;
            const tl_ast_node_t *def; // FunctionDef or Lambda
            tl_env_t *closure;
            tl_value_t **defaults; // one per parameter, NULL when none
            bool is_macro;         // @T.macro
            const char *module_dir; // directory of the defining file (for imports)
            struct tl_call *first_call; // its first call while the file loaded (builder defaults)
            tl_value_t *parametrize;    // @pytest.mark.parametrize: dict name -> first value
            tl_value_t *compiled_by;    // tilelang.compile(result of its first call, ...): the JIT settings
            tl_value_t *self;           // a method read from an instance: the instance, passed first
        } func;
        struct {
            const char *name;
            tl_builtin_fn fn;
            tl_value_t *self;
            void *data;
        } builtin;
        struct {
            const char *name;
            tl_map_t *attrs;  // name -> tl_value_t*
            bool permissive;  // unknown attributes give OPAQUE values, not errors
            bool is_class;    // made by a class statement: calling it makes an instance
            bool generated;   // a module run from a file the kernel file wrote (pyfiles.c)
            tl_value_t *cls;  // an instance: its class (attributes not set on it are read there)
        } module;
        struct {
            const char *what; // e.g. "torch.randn(...)"
            const char *why;   // set when a driver `if` tilec could not decide bound it
            tl_loc_t loc;      // ... at this statement
            const char *param; // the factory parameter the file's call passes it as
        } opaque;
        tl_dtype_t dtype;
        tl_expr_t *expr;
        tl_buffer_t *buffer;
        tl_region_t *region;
        struct {
            tl_loop_kind_t loop;
            tl_value_t *start, *stop, *step; // Python ints or EXPR values
            int ndim;                        // T.Parallel(M, N): 2
            tl_value_t *extents[TL_MAX_DIMS];
            int num_stages, cross_interval;
            bool python;  // plain range() over Python ints (unrolled when iterated in Python)
            bool builtin; // made by Python's range() (not T.serial & co)
            tl_value_t *wave, *index, *group; // T.Persistent(extents, wave, index, group)
        } range;
        struct {
            tl_frame_kind_t frame;
            tl_value_t *result; // T.Kernel: the grid (EXPR); T.If: the condition
            tl_side_t side;     // T.Scope
            int threads;        // T.Kernel(..., threads=k)
            tl_pipe_t pipe;     // T.rs
        } frame;
        struct {
            tl_kernel_t *kernel;      // NULL until traced
            tl_value_t *pending;      // the @T.prim_func function, traced on first use
            tl_value_t *builder;      // the builder whose first call returned it (while loading)
            tl_call_t *builder_call;  // that call (its arguments)
        } kernel;
        struct {
            tl_value_t *shape; // tuple/list of ints and IR dims
            tl_dtype_t dtype;
            bool int4; // "int4": dtype is uint8, the packed bytes (tl_buffer_t.int4)
        } tensortype;
        struct {
            tl_value_t *factory; // the decorated FUNC (NULL for a tilelang.compile result)
            tl_value_t *compiled; // tilelang.compile(kernel, ...): the KERNEL it configures
            tl_value_t *out_idx, *workspace_idx, *pass_configs, *target;
            tl_call_t *first_call; // arguments of the first module-level call, if any
            const tl_call_t *cfg;  // the @tilelang.jit(...) / tilelang.compile(...) call (locations)
            bool lowered;          // made by tilelang.lower (code generation, never run)
        } jit;
        struct {
            const char *message; // first line of the error
            tl_loc_t loc;
        } error;
    };
};

const char *tl_value_type_name(const tl_value_t *v);

tl_value_t *tl_value_new(tl_arena_t *a, tl_value_kind_t kind);
tl_value_t *tl_value_dup(tl_arena_t *a, const tl_value_t *v);
tl_value_t *tl_value_none(void);
tl_value_t *tl_value_bool(bool b);
tl_value_t *tl_value_int(tl_arena_t *a, int64_t i);
tl_value_t *tl_value_float(tl_arena_t *a, double f);
tl_value_t *tl_value_str(tl_arena_t *a, const char *s);
tl_value_t *tl_value_strn(tl_arena_t *a, const char *s, size_t n);
tl_value_t *tl_value_tuple(tl_arena_t *a, int n, tl_value_t **items);
tl_value_t *tl_value_list(tl_arena_t *a, int n, tl_value_t **items);
tl_value_t *tl_value_dict(tl_arena_t *a);
tl_value_t *tl_value_expr(tl_arena_t *a, tl_expr_t *e);
tl_value_t *tl_value_dtype(tl_arena_t *a, tl_dtype_t t);
tl_value_t *tl_value_opaque(tl_arena_t *a, const char *what);
tl_value_t *tl_value_error(tl_arena_t *a, const char *message, tl_loc_t loc);
tl_value_t *tl_value_builtin(tl_arena_t *a, const char *name, tl_builtin_fn fn, tl_value_t *self);
tl_value_t *tl_value_module(tl_arena_t *a, const char *name);
void tl_value_module_set(tl_arena_t *a, tl_value_t *module, const char *name, tl_value_t *v);
tl_value_t *tl_value_module_get(const tl_value_t *module, const char *name);

void tl_value_list_append(tl_arena_t *a, tl_value_t *list, tl_value_t *item);
// A list of the distinct items of a sequence, in first-seen order: how sets
// (which tilec models as lists) are built.
tl_value_t *tl_value_unique(tl_arena_t *a, const tl_value_t *seq);
// Dict with Python key equality (ints, strings, bools, None, tuples of those).
tl_value_t *tl_value_dict_get(const tl_value_t *dict, const tl_value_t *key);
void tl_value_dict_set(tl_arena_t *a, tl_value_t *dict, tl_value_t *key, tl_value_t *v);

// Python equality of two compile-time values (false for IR values).
bool tl_value_equal(const tl_value_t *a, const tl_value_t *b);
// An unknown value that is a module attribute (`torch.float16`: a dotted name, no call or
// subscript): Python gives the same object each time, so two such values are equal when
// their names are (torch's dtype aliases folded).
bool tl_value_is_attr_path(const tl_value_t *v);
bool tl_value_is_number(const tl_value_t *v); // bool, int or float
double tl_value_as_double(const tl_value_t *v);
// repr() of a value, as Python would print it (IR values print as IR).
void tl_value_repr(tl_buf_t *out, const tl_value_t *v);
// str() of a value (strings without quotes).
void tl_value_str_of(tl_buf_t *out, const tl_value_t *v);

#endif
