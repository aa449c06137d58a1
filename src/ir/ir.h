// Tile IR: the one program representation every stage of tilec works on.
//
// A kernel is: parameters (GM tensors whose shapes are expressions over symbolic
// dims, and scalars), a grid (number of blocks), on-chip buffers (name, scope,
// dtype, constant shape, later a planned address), and a structured statement
// tree (seq, for, if, let, store, tile op, scope, sync). Expressions are scalar
// and typed. Everything lives in the kernel's arena; nodes are never freed one by
// one. Passes annotate and rewrite the same IR (DESIGN.md §3).
#ifndef TL_IR_IR_H
#define TL_IR_IR_H

#include "base/arena.h"
#include "base/diag.h"
#include "base/dtype.h"
#include "ir/ops.h"

enum { TL_MAX_DIMS = 8 };

// --- memory scopes ------------------------------------------------------------
// name, short name used in dumps, which core owns it
#define TL_SCOPES(X)                                                                               \
    X(TL_SCOPE_GM, "gm", TL_SIDE_NONE)                                                             \
    X(TL_SCOPE_L1, "L1", TL_SIDE_CUBE)                                                             \
    X(TL_SCOPE_L0A, "L0A", TL_SIDE_CUBE)                                                           \
    X(TL_SCOPE_L0B, "L0B", TL_SIDE_CUBE)                                                           \
    X(TL_SCOPE_L0C, "L0C", TL_SIDE_CUBE)                                                           \
    X(TL_SCOPE_UB, "UB", TL_SIDE_VEC)                                                              \
    X(TL_SCOPE_SHARED, "shared", TL_SIDE_NONE)     /* alloc_shared: L1 or UB, inferred */          \
    X(TL_SCOPE_FRAGMENT, "fragment", TL_SIDE_NONE) /* alloc_fragment: L0A/L0B/L0C, inferred */     \
    X(TL_SCOPE_VAR, "var", TL_SIDE_NONE)           /* alloc_var: a scalar register */

// Which core a statement runs on (developer mode assigns these).
typedef enum { TL_SIDE_NONE = 0, TL_SIDE_CUBE = 1, TL_SIDE_VEC = 2, TL_SIDE_BOTH = 3 } tl_side_t;

typedef enum {
#define X(id, name, side) id,
    TL_SCOPES(X)
#undef X
    TL_SCOPE_COUNT
} tl_scope_t;

// --- hardware pipes -----------------------------------------------------------
#define TL_PIPES(X)                                                                                \
    X(TL_PIPE_NONE, "none")                                                                        \
    X(TL_PIPE_S, "s")                                                                              \
    X(TL_PIPE_MTE1, "mte1")                                                                        \
    X(TL_PIPE_MTE2, "mte2")                                                                        \
    X(TL_PIPE_MTE3, "mte3")                                                                        \
    X(TL_PIPE_M, "m")                                                                              \
    X(TL_PIPE_V, "v")                                                                              \
    X(TL_PIPE_FIX, "fix")                                                                          \
    X(TL_PIPE_ALL, "all")

typedef enum {
#define X(id, name) id,
    TL_PIPES(X)
#undef X
    TL_PIPE_COUNT
} tl_pipe_t;

// --- operators (of expressions, and the element-wise tile ops') -----------------
// Binary operators. DIV on integers and MOD truncate toward zero, as the C the
// upstream compiler emits does (DESIGN.md §2); FLOORDIV/FLOORMOD are the
// explicit T.floordiv/T.floormod. Comparisons and logical ops yield bool.
#define TL_BINOPS(X)                                                                               \
    X(TL_BIN_ADD, "+", 11)                                                                         \
    X(TL_BIN_SUB, "-", 11)                                                                         \
    X(TL_BIN_MUL, "*", 12)                                                                         \
    X(TL_BIN_DIV, "/", 12)                                                                         \
    X(TL_BIN_MOD, "%", 12)                                                                         \
    X(TL_BIN_FLOORDIV, "floordiv", 0)                                                              \
    X(TL_BIN_FLOORMOD, "floormod", 0)                                                              \
    X(TL_BIN_MIN, "min", 0)                                                                        \
    X(TL_BIN_MAX, "max", 0)                                                                        \
    X(TL_BIN_POW, "pow", 0)                                                                        \
    X(TL_BIN_AND, "&", 7)                                                                          \
    X(TL_BIN_OR, "|", 5)                                                                           \
    X(TL_BIN_XOR, "^", 6)                                                                          \
    X(TL_BIN_SHL, "<<", 10)                                                                        \
    X(TL_BIN_SHR, ">>", 10)                                                                        \
    X(TL_BIN_EQ, "==", 8)                                                                          \
    X(TL_BIN_NE, "!=", 8)                                                                          \
    X(TL_BIN_LT, "<", 9)                                                                           \
    X(TL_BIN_LE, "<=", 9)                                                                          \
    X(TL_BIN_GT, ">", 9)                                                                           \
    X(TL_BIN_GE, ">=", 9)                                                                          \
    X(TL_BIN_LAND, "and", 3)                                                                       \
    X(TL_BIN_LOR, "or", 2)

typedef enum {
#define X(id, text, prec) id,
    TL_BINOPS(X)
#undef X
    TL_BIN_COUNT,
    TL_BIN_NONE = TL_BIN_COUNT // no operator (the op table's bin column)
} tl_binop_t;

// --- tile ops -------------------------------------------------------------------
typedef enum { TL_OPC_COPY, TL_OPC_GEMM, TL_OPC_VEC, TL_OPC_REDUCE, TL_OPC_STATE } tl_opclass_t;

typedef enum {
#define X(id, name, sig, cls, pipe, cost, bin, run, front, api) id,
    TL_OPS(X)
#undef X
    TL_OP_COUNT
} tl_opcode_t;

typedef enum {
#define X(id) id,
    TL_COSTS(X)
#undef X
    TL_COST_COUNT
} tl_cost_t;

// One row of the op table (ops.h), with what it implies.
typedef struct {
    const char *name;      // "add", "copy", ...
    const char *signature; // see ops.h
    tl_opclass_t cls;
    tl_pipe_t pipe;        // TL_PIPE_NONE for copies (depends on scopes)
    tl_cost_t cost;        // how the chip model prices it
    tl_binop_t bin;        // its element-wise operator, TL_BIN_NONE if none (ops.h)
    int min_args, max_args;
    const char *spelling; // as a kernel writes it: "T.tile.add" (the api column's first word)
} tl_opinfo_t;

const tl_opinfo_t *tl_op_info(tl_opcode_t op);
// The operator of a binary vector op, dst = src0 OP src1 element by element
// with src1 a tile of dst's shape or a scalar (add, sub, mul, div, max, min,
// bitwise_and, bitwise_or, bitwise_xor); TL_BIN_NONE for every other op.
tl_binop_t tl_op_binary(tl_opcode_t op);
// Whether op is a binary vector op with an arithmetic operator (add, sub,
// mul, div, max, min), not a bitwise one.
bool tl_op_arith(tl_opcode_t op);
// Role letter of operand i from the signature (w, r, x, s, v; 's' past the end).
char tl_op_role(tl_opcode_t op, int i);
// gather_mask's fixed patterns: 1..7 <-> "P0101" "P1010" "P0001" "P0010" "P0100" "P1000" "P1111"
// (which elements of each 4 are kept, the rightmost digit being the first).
const char *tl_gather_pattern_name(int pattern);
bool tl_gather_pattern_parse(const char *name, int *out);
bool tl_op_lookup(const char *name, tl_opcode_t *out);

// --- scalar variables -----------------------------------------------------------
typedef enum {
    TL_VAR_DIM,      // symbolic dimension (T.symbolic), bound from input shapes
    TL_VAR_PARAM,    // scalar kernel parameter
    TL_VAR_BLOCK,    // cid: block index
    TL_VAR_SUBBLOCK, // vid: vector core index within the block (0 or 1)
    TL_VAR_LOOP,     // loop variable
    TL_VAR_LET,      // immutable binding `x = expr` inside the body
} tl_var_kind_t;

typedef struct tl_var {
    const char *name;
    tl_dtype_t dtype;
    tl_var_kind_t kind;
    int id; // index into tl_kernel_t.vars; unique per kernel
    tl_loc_t loc;
} tl_var_t;

// --- expressions ----------------------------------------------------------------
typedef enum {
    TL_EX_INT,   // integer constant (dtype: int32 unless promoted)
    TL_EX_FLOAT, // floating constant (may be +-inf, NaN)
    TL_EX_VAR,
    TL_EX_LOAD,  // scalar element load: buf[idx...]
    TL_EX_BIN,
    TL_EX_UN,
    TL_EX_CAST,        // value conversion to dtype (T.Cast / T.float32(x) / ...)
    TL_EX_REINTERPRET, // bit reinterpretation to dtype of the same size
    TL_EX_SELECT,      // cond ? a : b (T.if_then_else, T.Select)
} tl_expr_kind_t;

#define TL_UNOPS(X)                                                                                \
    X(TL_UN_NEG, "-")                                                                              \
    X(TL_UN_NOT, "not")                                                                            \
    X(TL_UN_BITNOT, "~")                                                                           \
    X(TL_UN_EXP, "exp")                                                                            \
    X(TL_UN_LOG, "log")                                                                            \
    X(TL_UN_SQRT, "sqrt")                                                                          \
    X(TL_UN_RSQRT, "rsqrt")                                                                        \
    X(TL_UN_ABS, "abs")                                                                            \
    X(TL_UN_SIGMOID, "sigmoid")                                                                    \
    X(TL_UN_TANH, "tanh")                                                                          \
    X(TL_UN_FLOOR, "floor")                                                                        \
    X(TL_UN_CEIL, "ceil")                                                                          \
    X(TL_UN_ROUND, "round")                                                                        \
    X(TL_UN_TRUNC, "trunc")                                                                        \
    X(TL_UN_SIN, "sin")                                                                            \
    X(TL_UN_COS, "cos")

typedef enum {
#define X(id, text) id,
    TL_UNOPS(X)
#undef X
    TL_UN_COUNT
} tl_unop_t;

typedef struct tl_buffer tl_buffer_t;
typedef struct tl_expr tl_expr_t;

struct tl_expr {
    tl_expr_kind_t kind;
    tl_dtype_t dtype;
    tl_loc_t loc;
    int height; // 1 for a leaf, else 1 + the largest of its operands' (tl_ir_fix_height)
    union {
        int64_t i;  // TL_EX_INT
        double f;   // TL_EX_FLOAT
        tl_var_t *var;
        struct {
            tl_buffer_t *buf;
            int n;
            tl_expr_t **idx;
        } load;
        struct {
            int op; // tl_binop_t or tl_unop_t
            tl_expr_t *a, *b;
        } op;
        tl_expr_t *arg; // CAST, REINTERPRET
        struct {
            tl_expr_t *cond, *a, *b;
        } sel;
    };
};

// --- buffers -----------------------------------------------------------------------
typedef enum { TL_ROLE_INPUT, TL_ROLE_OUTPUT, TL_ROLE_WORKSPACE } tl_param_role_t;

struct tl_buffer {
    const char *name;
    tl_scope_t scope;
    tl_dtype_t dtype;
    int ndim;
    int64_t shape[TL_MAX_DIMS];       // on-chip buffers: constant shape
    tl_expr_t *gm_shape[TL_MAX_DIMS]; // GM buffers: shape expressions (may use dims)
    int id;                           // index into tl_kernel_t.buffers
    tl_loc_t loc;
    int param;           // index into tl_kernel_t.params, or -1
    tl_expr_t *init;     // alloc_var initial value (may be NULL)
    int64_t addr;        // planned byte address in its scratchpad, -1 until planned
    bool addr_pinned;    // set by T.annotate_address
    bool internal;       // created by a pass (e.g. a GM workspace for L0C->UB)
    int version_group;   // pipelined: the loop this is one of the versions of (from 1), else 0
    int version;         // and which version (0: the original buffer)
    tl_scope_t declared; // scope as written (SHARED/FRAGMENT before inference)
    // A view (T.reinterpretcast, pass/views.c): this buffer names view_of's
    // bytes from view_offset on, read as its own dtype and shape; it is placed
    // at view_of's address plus view_offset, never on its own. NULL otherwise.
    tl_buffer_t *view_of;
    int64_t view_offset;
    // upstream's int4 (AscendC int4b_t), nibble-packed: two elements a byte,
    // the even element in the low nibble, each sign-extended when read. The
    // buffer is held as its packed bytes: dtype uint8 and a last dimension of
    // half the elements (shape, gm_shape); kernels index it in elements and the
    // front end halves the last index (front/trace.c). Only T.copy between int4
    // buffers, T.gemm_v0 and T.tile.cast (float16 <-> int4) take it (verify.c).
    bool int4;
    tl_expr_t *int4_elems; // GM int4 with a run-time last dimension: it in elements
                           // (gm_shape's last is it // 2; a run makes sure it is even)
};

// Number of elements / bytes of an on-chip buffer.
int64_t tl_buffer_numel(const tl_buffer_t *b);
int64_t tl_buffer_bytes(const tl_buffer_t *b);

// A rectangular part of a buffer: per dimension a start and an extent. Operands
// written as a whole buffer (`a`), a slice (`a[0:4, :]`) or a start point
// (`A[i, j]`, whose extents are inferred from the other copy operand) all become
// regions; `form` remembers how it was written for dumps and diagnostics.
typedef enum { TL_REGION_WHOLE, TL_REGION_SLICE, TL_REGION_POINT } tl_region_form_t;

typedef struct {
    tl_buffer_t *buf;
    tl_region_form_t form;
    int ndim; // == buf->ndim
    tl_expr_t *start[TL_MAX_DIMS];
    tl_expr_t *extent[TL_MAX_DIMS];
    tl_loc_t loc;
} tl_region_t;

// Elements of a region, or -1 when an extent is not constant (or the product overflows).
int64_t tl_region_numel(const tl_region_t *r);

typedef enum { TL_ARG_REGION, TL_ARG_SCALAR } tl_arg_kind_t;

typedef struct {
    tl_arg_kind_t kind;
    tl_region_t region; // TL_ARG_REGION
    tl_expr_t *scalar;  // TL_ARG_SCALAR (may be a single-element load)
} tl_arg_t;

// Compare / select modes of T.tile.compare and T.tile.select.
#define TL_CMP_MODES(X) X(TL_CMPMODE_EQ, "EQ") X(TL_CMPMODE_NE, "NE") X(TL_CMPMODE_GT, "GT") X(TL_CMPMODE_GE, "GE") \
    X(TL_CMPMODE_LT, "LT") X(TL_CMPMODE_LE, "LE")
typedef enum {
#define X(id, name) id,
    TL_CMP_MODES(X)
#undef X
    TL_CMPMODE_COUNT
} tl_cmp_mode_t;

#define TL_SEL_MODES(X)                                                                            \
    X(TL_SEL_CMPMASK_SPR, "VSEL_CMPMASK_SPR")                                                      \
    X(TL_SEL_TENSOR_SCALAR, "VSEL_TENSOR_SCALAR_MODE")                                             \
    X(TL_SEL_TENSOR_TENSOR, "VSEL_TENSOR_TENSOR_MODE")
typedef enum {
#define X(id, name) id,
    TL_SEL_MODES(X)
#undef X
    TL_SEL_COUNT
} tl_sel_mode_t;

// ReduceOrder of WholeReduceMax/Min (asc-devkit ReduceRepeat.md).
#define TL_REDUCE_ORDERS(X)                                                                        \
    X(TL_ORDER_VALUE_INDEX, "ORDER_VALUE_INDEX")                                                   \
    X(TL_ORDER_INDEX_VALUE, "ORDER_INDEX_VALUE")                                                   \
    X(TL_ORDER_ONLY_VALUE, "ORDER_ONLY_VALUE")                                                     \
    X(TL_ORDER_ONLY_INDEX, "ORDER_ONLY_INDEX")
typedef enum {
#define X(id, name) id,
    TL_REDUCE_ORDERS(X)
#undef X
        TL_ORDER_COUNT
} tl_reduce_order_t;

typedef struct {
    tl_opcode_t code;
    int nargs;
    tl_arg_t *args;
    // attributes (only those of the op are meaningful)
    tl_expr_t *init;       // gemm_v0/mma: overwrite C when true (bool expression)
    bool transpose_a, transpose_b;
    bool enable_relu;      // copy L0C -> GM
    bool transpose;        // copy L1 -> L0A/L0B
    bool exact;            // copy in an npuir kernel: moves exactly its regions (ir/copy_plan.h)
    tl_expr_t *pad_value;  // copy GM -> UB tail fill (NULL = 0)
    // The valid part of a cube operand (NULL: the operands' extents): copies
    // L1 -> L0A/L0B real_k / real_n, mma k_actual / n_actual, gemm_v0 n_actual.
    tl_expr_t *k_valid, *n_valid;
    tl_expr_t *unit_flag;  // mma and copies out of L0C: 0 (NULL), 2 or 3 (L0C unit flags)
    int k_l0;              // gemm_v0 kL0Size: the K of one L1 -> L0A/L0B chunk (0 = 128)
    tl_round_t round;      // cast
    tl_cmp_mode_t cmp;     // compare
    tl_sel_mode_t sel;     // select
    int dim;               // reductions: 0 or -1 (normalised); broadcast axis (-1 = infer)
    bool clear;            // reductions: overwrite (true) or merge into dst
    bool reverse;          // cumsum: from the last element of dim to the first
    int64_t real_shape[2]; // reductions: valid rows/cols (0 = full)
    tl_dtype_t dtype;      // reinterpretcast target
    int pattern;           // gather_mask: fixed pattern 1..7 (P0101..P1111), 0 = pattern buffer
    tl_reduce_order_t order; // wholereducemax/min: where the value and its index go
} tl_op_t;

// Whether an operand of op is a packed int4 buffer (tl_buffer_t.int4).
bool tl_op_has_int4(const tl_op_t *op);

// The pipe that executes an op, from the op table and (for copies) the scopes.
tl_pipe_t tl_op_pipe(const tl_op_t *op);

// --- statements -----------------------------------------------------------------------
typedef enum {
    TL_ST_SEQ,
    TL_ST_FOR,
    TL_ST_WHILE,
    TL_ST_IF,
    TL_ST_LET,   // var = value, visible to the rest of the enclosing seq
    TL_ST_STORE, // buf[idx...] = value (scalar store; also alloc_var assignment)
    TL_ST_OP,    // tile op
    TL_ST_SCOPE, // T.Scope("C"/"V"): body runs on that side only
    TL_ST_SYNC,  // set_flag / wait_flag / barriers / cross-core flags
    TL_ST_PRINT, // T.printf / T.dump_tensor (debug output)
    TL_ST_BREAK,
    TL_ST_CONTINUE,
} tl_stmt_kind_t;

typedef enum { TL_LOOP_SERIAL, TL_LOOP_PARALLEL, TL_LOOP_PIPELINED, TL_LOOP_UNROLL } tl_loop_kind_t;

#define TL_SYNCS(X)                                                                                \
    X(TL_SYNC_SET_FLAG, "set_flag")                                                                \
    X(TL_SYNC_WAIT_FLAG, "wait_flag")                                                              \
    X(TL_SYNC_PIPE_BARRIER, "pipe_barrier")                                                        \
    X(TL_SYNC_BARRIER_ALL, "barrier_all")                                                          \
    X(TL_SYNC_SET_CROSS, "set_cross_flag")                                                         \
    X(TL_SYNC_WAIT_CROSS, "wait_cross_flag")                                                       \
    X(TL_SYNC_ALL, "sync_all")

typedef enum {
#define X(id, name) id,
    TL_SYNCS(X)
#undef X
    TL_SYNC_COUNT
} tl_sync_kind_t;

typedef struct tl_stmt tl_stmt_t;

struct tl_stmt {
    tl_stmt_kind_t kind;
    tl_loc_t loc;
    tl_side_t side; // developer mode: where this statement runs (set by passes)
    bool inserted;  // created by a pass (syncs, copies), for dumps and reports
    int origin;     // cv_split: pre-order number (from 1) of the developer-mode
                    // statement this one was projected from; 0 if none
    union {
        struct {
            int n, cap;
            tl_stmt_t **items;
        } seq;
        struct {
            tl_var_t *var;
            tl_expr_t *start, *end; // end exclusive; step 1
            tl_loop_kind_t loop;
            int num_stages;     // T.Pipelined
            int cross_interval; // T.Pipelined(cross_interval=)
            // pipelined's staggered form: a read in the body before a write
            // of the same tensor reads what an earlier step wrote
            bool staggered;
            tl_stmt_t *body;
        } for_;
        struct {
            tl_expr_t *cond;
            tl_stmt_t *body;
        } while_;
        struct {
            tl_expr_t *cond;
            tl_stmt_t *then_, *else_; // else_ may be NULL
        } if_;
        struct {
            tl_var_t *var;
            tl_expr_t *value;
        } let;
        struct {
            tl_buffer_t *buf;
            int n;
            tl_expr_t **idx;
            tl_expr_t *value;
        } store;
        tl_op_t op;
        struct {
            tl_side_t side; // CUBE for "C", VEC for "V"
            tl_stmt_t *body;
        } scope;
        struct {
            tl_sync_kind_t kind;
            tl_pipe_t src, dst; // set/wait_flag: src->dst; pipe_barrier: src; set_cross: src
            tl_expr_t *id;      // event or cross-core flag id
            int mode;           // set_cross_flag mode (0, 1, 2)
        } sync;
        struct {
            const char *fmt; // printf format, or the dump_tensor description
            int n;
            tl_expr_t **args;
            tl_region_t *region; // dump_tensor
        } print;
    };
};

// --- kernels -----------------------------------------------------------------------------
typedef struct {
    const char *name;
    tl_param_role_t role;
    tl_buffer_t *buf; // tensor parameter (GM), or NULL
    tl_var_t *var;    // scalar parameter, or NULL
} tl_param_t;

// Switches (upstream pass_configs keys and tilec flags).
typedef struct {
    bool auto_sync;        // TL_ASCEND_AUTO_SYNC
    bool memory_planning;  // TL_ASCEND_MEMORY_PLANNING
    bool auto_cv_combine;  // TL_ASCEND_AUTO_CV_COMBINE
    bool auto_cv_sync;     // TL_ASCEND_AUTO_CV_SYNC
    bool sync_baseline;    // tilec: intra_sync puts barrier_all after every op (a baseline)
    bool schedule;         // tilec: the schedule pass reorders straight-line code (default on)
    bool tail_mask;        // TL_ASCEND_TAIL_MASK (pass/tail_mask.c)
    bool auto_sync_vs;     // TL_ASCEND_AUTO_SYNC_VS: upstream's V/S sync pass, on unless set
                           // False; only target pto reads it (upstream's default there)
    const char *target;    // "auto", "ascendc", "pto", "npuir"
} tl_config_t;

typedef struct tl_kernel {
    tl_arena_t *arena;
    const char *name;  // the prim_func's name ("main" in most files)
    const char *entry; // what the front end compiled (what -k names): the jit factory,
                       // builder or prim_func; NULL for a kernel built otherwise
    tl_loc_t loc;
    tl_config_t config;
    int nparams;
    tl_param_t *params;
    tl_vec_t dims;    // tl_var_t* of kind DIM, in order of first appearance
    tl_vec_t vars;    // every tl_var_t, indexed by id
    tl_vec_t buffers; // every tl_buffer_t, indexed by id (params first)
    tl_expr_t *grid;  // number of blocks
    tl_var_t *cid, *vid;
    int threads; // 0: `as (cid, vid)` form; 1 or 2: developer `threads=` form
    // Set by cv_split: the body is in expert form (a T.Scope per core) and
    // config.auto_cv_combine is cleared, so every later stage runs it as written.
    bool cv_split;
    // Set by memplan: one line per planned scope saying how it was placed
    // (printed with the IR), or NULL.
    const char *plan_note;
    // Set by memplan for the pto pipeline: cube matrices (the last two
    // dimensions of L1, L0A/B/C buffers) are planned in whole 16-row fractals.
    bool cube_fractal_rows;
    tl_stmt_t *body;
} tl_kernel_t;

// The rows of each matrix of b (its last two dimensions) as memplan lays them
// out: when k->cube_fractal_rows (the pto pipeline) an L1, L0A or L0C matrix
// holds whole 16-row fractals (pto-isa's Mat, Left and Acc tiles), so its
// rows rounded up to 16; else its rows. (L0B's rows are K, in 32-byte fractals.)
int64_t tl_buffer_planned_rows(const tl_kernel_t *k, const tl_buffer_t *b);
// The bytes memplan gives b: tl_buffer_bytes with those rows.
int64_t tl_buffer_planned_bytes(const tl_kernel_t *k, const tl_buffer_t *b);

// gemm_v0's L0 steps as upstream's newest helper takes them: K in chunks of
// kL0Size (128 unless given); N whole, or, when B is not transposed and a
// kL0Size x N chunk would pass half of L0B, in tiles of 32 KB / (kL0Size *
// size) if n is a multiple of that (PR #1312, merged 2026-07-09); elem_bits: 4 for int4.
int64_t tl_gemm_v0_k_l0(const tl_op_t *op);
int64_t tl_gemm_v0_n_tile(const tl_op_t *op, int64_t n, int64_t elem_bits);

// --- construction (ir.c) -------------------------------------------------------------------
tl_kernel_t *tl_ir_kernel_new(tl_arena_t *a, const char *name, tl_loc_t loc);
// An npuir kernel (@tilelang.jit(target="npuir")): its copies are `exact` (ir/copy_plan.h).
bool tl_kernel_npuir(const tl_kernel_t *k);
tl_var_t *tl_ir_var(tl_kernel_t *k, const char *name, tl_dtype_t t, tl_var_kind_t kind,
                    tl_loc_t loc);
tl_buffer_t *tl_ir_buffer(tl_kernel_t *k, const char *name, tl_scope_t scope, tl_dtype_t t,
                          int ndim, const int64_t *shape, tl_loc_t loc);
tl_expr_t *tl_ir_int(tl_kernel_t *k, int64_t v, tl_dtype_t t, tl_loc_t loc);
tl_expr_t *tl_ir_float(tl_kernel_t *k, double v, tl_dtype_t t, tl_loc_t loc);
tl_expr_t *tl_ir_varref(tl_kernel_t *k, tl_var_t *v, tl_loc_t loc);
tl_expr_t *tl_ir_load(tl_kernel_t *k, tl_buffer_t *b, int n, tl_expr_t **idx, tl_loc_t loc);
// Typed, with constant folding of constant operands; dtype follows the usual
// promotion (float wins over int; the wider wins; comparisons give bool).
tl_expr_t *tl_ir_bin(tl_kernel_t *k, tl_binop_t op, tl_expr_t *a, tl_expr_t *b, tl_loc_t loc);
// The operand dtype tl_ir_bin gives a binary op of a and b (the executor
// evaluates comparisons in it).
tl_dtype_t tl_ir_promote(const tl_expr_t *a, const tl_expr_t *b);
tl_expr_t *tl_ir_un(tl_kernel_t *k, tl_unop_t op, tl_expr_t *a, tl_loc_t loc);
tl_expr_t *tl_ir_cast(tl_kernel_t *k, tl_dtype_t t, tl_expr_t *a, tl_loc_t loc);
tl_expr_t *tl_ir_reinterpret(tl_kernel_t *k, tl_dtype_t t, tl_expr_t *a, tl_loc_t loc);
tl_expr_t *tl_ir_select(tl_kernel_t *k, tl_expr_t *c, tl_expr_t *a, tl_expr_t *b, tl_loc_t loc);
// Statement levels of a kernel at most (each compound statement and each body
// sequence is a level): TL_MAX_BLOCKS from the source, two levels each, and
// room for the loops, scopes and branches passes add.
enum { TL_MAX_IR_DEPTH = 2 * TL_MAX_BLOCKS + 64 };
// Checks the nesting limits on k without recursing past them: statements at
// most TL_MAX_IR_DEPTH levels deep, expressions at most TL_MAX_NESTING high.
// Reports the first violation at its statement (tl_ir_verify does this first).
tl_status_t tl_ir_check_nesting(const tl_kernel_t *k, tl_diag_t *d);
// Sets e->height from its operands' (after changing an operand of a copy).
void tl_ir_fix_height(tl_expr_t *e);
// The height of e (0 for NULL): compare with TL_MAX_NESTING.
static inline int tl_ir_height(const tl_expr_t *e)
{
    return e ? e->height : 0;
}
bool tl_ir_is_const_int(const tl_expr_t *e, int64_t *out);
// T.tile.broadcast's shape rule (exec and the compile-time check): dst extents de[dn]
// and src extents se[*sn] (1-D or 2-D), axis -1 (inferred), 0 or 1. On success se/sn
// are the source's extents as broadcast (2-D when dst is) and *axis the axis used.
bool tl_broadcast_fit(const int64_t *de, int dn, int64_t *se, int *sn, int *axis);

// --- analysis (simplify.c) ------------------------------------------------------------------
enum { TL_LINEAR_MAX_TERMS = 8 };
typedef struct {
    int n;
    const tl_expr_t *terms[TL_LINEAR_MAX_TERMS];
    int64_t coefs[TL_LINEAR_MAX_TERMS];
    int64_t c;
} tl_linear_t;
bool tl_ir_expr_equal(const tl_expr_t *a, const tl_expr_t *b);
// Integer expression as sum(coefs[i] * terms[i]) + c; false if not expressible.
bool tl_ir_linear(const tl_expr_t *e, tl_linear_t *out);
// Whether a - b is a compile-time constant (stored in *diff).
bool tl_ir_const_diff(const tl_expr_t *a, const tl_expr_t *b, int64_t *diff);
// Evaluates an integer expression over variables whose values are known
// (values/known indexed by var id); false if it cannot.
bool tl_ir_eval_int(const tl_expr_t *e, const int64_t *values, const bool *known, int64_t *out);

tl_stmt_t *tl_ir_stmt(tl_kernel_t *k, tl_stmt_kind_t kind, tl_loc_t loc);
tl_stmt_t *tl_ir_seq(tl_kernel_t *k, tl_loc_t loc);
void tl_ir_seq_push(tl_kernel_t *k, tl_stmt_t *seq, tl_stmt_t *s);

const char *tl_scope_name(tl_scope_t s);
tl_side_t tl_scope_side(tl_scope_t s);
const char *tl_pipe_name(tl_pipe_t p);
bool tl_pipe_parse(const char *name, tl_pipe_t *out); // "mte2", "MTE2", "v", ...
const char *tl_binop_text(tl_binop_t op);
const char *tl_unop_text(tl_unop_t op);
const char *tl_sync_name(tl_sync_kind_t k);

// --- printing and checking (print.c, verify.c) ----------------------------------------------
#include "base/buf.h"
void tl_ir_print_kernel(tl_buf_t *out, const tl_kernel_t *k);
void tl_ir_print_expr(tl_buf_t *out, const tl_expr_t *e);
void tl_ir_print_stmt(tl_buf_t *out, const tl_stmt_t *s, int indent);
void tl_ir_print_region(tl_buf_t *out, const tl_region_t *r);
// Checks structural invariants (scopes legal for each op, extents consistent,
// names unique, variables defined before use). Reports problems to d.
tl_status_t tl_ir_verify(const tl_kernel_t *k, tl_diag_t *d);
// The trailing element count (upstream's `count`) of an element-wise vector op
// whose operands then run that many elements from their regions' origins
// (past a region, and past its buffer, as on the device), or NULL.
const tl_expr_t *tl_op_count(const tl_op_t *op);

#endif
