// A small IR builder for the executor tests: kernels, buffers, expressions and
// nested statements in a few calls, with source locations on a synthetic file
// "k.py" whose line N reads "stmt N" (so diagnostics carry checkable lines).
#ifndef TL_TESTS_TEST_EXEC_UTIL_H
#define TL_TESTS_TEST_EXEC_UTIL_H

#include "exec/exec.h"

enum { KB_MAX_DEPTH = 16, KB_MAX_PARAMS = 16, KB_MAX_TENSORS = 16 };

typedef struct {
    tl_arena_t arena;
    tl_source_t *src;
    tl_kernel_t *k;
    tl_diag_t d;
    tl_exec_t *x;
    tl_stmt_t *stack[KB_MAX_DEPTH]; // open statement lists (seq) to append to
    tl_stmt_t *owner[KB_MAX_DEPTH]; // the compound statement each list belongs to
    int depth;
    tl_tensor_t *tensors[KB_MAX_TENSORS];
    int ntensors;
} kb_t;

void kb_init(kb_t *b, const char *name);
void kb_free(kb_t *b);
tl_loc_t kb_loc(kb_t *b, int line);
void kb_grid(kb_t *b, tl_expr_t *n);

// Expressions (int constants are int32; kb_f is float32).
tl_expr_t *kb_i(kb_t *b, int64_t v);
tl_expr_t *kb_it(kb_t *b, int64_t v, tl_dtype_t t);
tl_expr_t *kb_f(kb_t *b, double v, tl_dtype_t t);
tl_expr_t *kb_v(kb_t *b, tl_var_t *v);
tl_expr_t *kb_bin(kb_t *b, tl_binop_t op, tl_expr_t *x, tl_expr_t *y);
tl_expr_t *kb_un(kb_t *b, tl_unop_t op, tl_expr_t *x);
tl_expr_t *kb_cast(kb_t *b, tl_dtype_t t, tl_expr_t *x);
tl_expr_t *kb_bin_at(kb_t *b, int line, tl_binop_t op, tl_expr_t *x, tl_expr_t *y);
tl_expr_t *kb_cid(kb_t *b);
tl_expr_t *kb_vid(kb_t *b);
tl_expr_t *kb_load1(kb_t *b, tl_buffer_t *buf, tl_expr_t *i0);
tl_expr_t *kb_load2(kb_t *b, tl_buffer_t *buf, tl_expr_t *i0, tl_expr_t *i1);

// Parameters and buffers.
tl_var_t *kb_dim(kb_t *b, const char *name);
tl_buffer_t *kb_tensor(kb_t *b, const char *name, tl_param_role_t role, tl_dtype_t t, int ndim,
                       tl_expr_t *s0, tl_expr_t *s1);
tl_var_t *kb_param(kb_t *b, const char *name, tl_dtype_t t);
tl_buffer_t *kb_buf(kb_t *b, const char *name, tl_scope_t scope, tl_dtype_t t, int64_t n0,
                    int64_t n1); // n1 == 0: one dimension
tl_buffer_t *kb_var(kb_t *b, const char *name, tl_dtype_t t, tl_expr_t *init);

// Statements, appended to the innermost open body.
void kb_store1(kb_t *b, int line, tl_buffer_t *buf, tl_expr_t *i0, tl_expr_t *value);
void kb_store2(kb_t *b, int line, tl_buffer_t *buf, tl_expr_t *i0, tl_expr_t *i1, tl_expr_t *value);
void kb_setvar(kb_t *b, int line, tl_buffer_t *var, tl_expr_t *value);
tl_var_t *kb_let(kb_t *b, int line, const char *name, tl_expr_t *value);
tl_var_t *kb_for(kb_t *b, int line, const char *name, tl_expr_t *start, tl_expr_t *end);
void kb_while(kb_t *b, int line, tl_expr_t *cond);
void kb_if(kb_t *b, int line, tl_expr_t *cond);
void kb_else(kb_t *b);
void kb_scope(kb_t *b, int line, tl_side_t side);
void kb_end(kb_t *b); // closes the innermost for / while / if / scope
void kb_stmt(kb_t *b, int line, tl_stmt_kind_t kind); // break / continue
void kb_sync(kb_t *b, int line, tl_sync_kind_t kind, tl_pipe_t src, tl_pipe_t dst, int64_t id,
             int mode);
void kb_cross_set(kb_t *b, int line, tl_pipe_t pipe, int64_t id, int mode);
void kb_cross_wait(kb_t *b, int line, int64_t id);
void kb_printf(kb_t *b, int line, const char *fmt, tl_expr_t *arg);
void kb_dump(kb_t *b, int line, const char *desc, tl_buffer_t *buf); // T.dump_tensor
// A tile op: each argument is a whole buffer KB_BUF(x), a start point
// KB_AT(x, i, j) (j NULL for one dimension; the other operand gives the
// extents) or a scalar KB_EXPR(e).
typedef struct {
    tl_buffer_t *buf;
    tl_expr_t *expr;
    tl_expr_t *at[2];
} kb_arg_t;
#define KB_BUF(b)      ((kb_arg_t){(b), NULL, {NULL, NULL}})
#define KB_EXPR(e)     ((kb_arg_t){NULL, (e), {NULL, NULL}})
#define KB_AT(b, i, j) ((kb_arg_t){(b), NULL, {(i), (j)}})
tl_stmt_t *kb_op(kb_t *b, int line, tl_opcode_t code, int nargs, const kb_arg_t *args);

// Running.
tl_status_t kb_exec(kb_t *b, const tl_exec_opts_t *opts); // creates b->x (verifies the IR)
tl_status_t kb_run(kb_t *b);                              // kb_exec if needed, then run
tl_tensor_t *kb_new_tensor(kb_t *b, tl_dtype_t t, int ndim, int64_t s0, int64_t s1);
const char *kb_text(kb_t *b); // the diagnostics so far

#endif
