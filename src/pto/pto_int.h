// Internals of the PTO emitter (src/pto): the emission context and the
// helpers the statement, operand, copy and op files share.
#ifndef TL_PTO_INT_H
#define TL_PTO_INT_H

#include "base/buf.h"
#include "ir/ir.h"
#include "ir/side.h"

typedef struct {
    const tl_kernel_t *k;
    tl_diag_t *d;
    tl_buf_t *out;
    const tl_side_map_t *sides;
    tl_side_t prog; // the program being written: TL_SIDE_CUBE or TL_SIDE_VEC
    int indent;
    int tmp;                           // counter for fresh names
    bool failed;                       // an error was reported (the rest is not emitted)
    const char *pad;                   // the pad value of the load being written (emit_copy.c)
    const char *gemm_a[2], *gemm_b[2]; // gemm_v0's operand starts in their L1 views (emit_cube.c)
    int64_t ub_top; // the first UB byte past every planned buffer: op scratch goes there
    int in_scope;   // inside a T.Scope of the program being written
    bool deq;       // the kernel sets the deq scale (each program keeps tilec_deq)
    bool sync_all;  // the kernel has T.sync_all (pto::SYNCALL: cross-core flags 11-14)
    const tl_var_t *declared[256]; // lets declared in the C++ blocks being written
    int ndeclared;
} pto_emit_t;

// --- emit.c: text and expressions ---------------------------------------------------------
void pto_line(pto_emit_t *e, const char *fmt, ...) TL_PRINTF(2, 3);
// Reports an unsupported construct at loc (once per emission): "... not lowered to PTO yet".
void pto_unsupported(pto_emit_t *e, tl_loc_t loc, const char *fmt, ...) TL_PRINTF(3, 4);
// The C++ text of a scalar expression into b (values computed in their dtype).
void pto_expr(pto_emit_t *e, tl_buf_t *b, const tl_expr_t *x);
// The expression as a string in the kernel's arena.
const char *pto_expr_str(pto_emit_t *e, const tl_expr_t *x);
// A condition's text c without one pair of parentheses around all of it:
// clang's -Wparentheses-equality warns on `if ((k == 0))`.
const char *pto_cond(pto_emit_t *e, const char *c);
// The C++ element type of a dtype ("float", "half", "TILEC_BF16", "int8_t", ...), or NULL.
const char *pto_ctype(tl_dtype_t t);
char *pto_fmt(pto_emit_t *e, const char *fmt, ...) TL_PRINTF(2, 3); // arena string

// --- emit_view.c: on-chip operands as tiles ----------------------------------------------
// An on-chip region seen as rows x cols elements with a row pitch of ld
// elements, starting at byte address addr (a C++ expression).
typedef struct {
    const tl_buffer_t *buf;
    const char *addr;
    int64_t rows, cols, ld;
    const char *vcols; // a run-time element count (flat views of `count` operands), or NULL
} pto_view_t;

bool pto_view(pto_emit_t *e, const tl_region_t *r, pto_view_t *v, tl_loc_t loc);
bool pto_view_contiguous(const pto_view_t *v);
// Declares a UB tile named `name` over v (ND rows, or one flat row when flat)
// and assigns its address.
void pto_vec_tile(pto_emit_t *e, const char *name, const pto_view_t *v, bool flat);
// A UB tile of n elements laid out as one column (per-row scalars: reduction
// results, row_expand operands).
void pto_col_tile(pto_emit_t *e, const char *name, const pto_view_t *v, int64_t n);

// A region of a cube-side buffer (L1, L0A/B/C) as a block of one of its
// matrices: the buffer's last two dimensions are the matrix (rows x cols),
// the leading ones (unit extents) choose which matrix (multi-buffered slots).
// In memory a matrix has frows rows: an L1, L0A or L0C matrix's rows in whole
// 16-row fractals, as the pto pipeline plans them (tl_buffer_planned_rows);
// the tiles over it are declared with frows static rows, the stores from it
// with the GM box's valid rows.
typedef struct {
    const tl_buffer_t *buf;
    const char *addr;    // byte address of the matrix
    int64_t rows, cols;  // the matrix
    int64_t frows;       // its rows as laid out
    const char *r0, *c0; // the block's start in it
    int64_t er, ec;      // the block's extents
    bool whole;          // the block is the whole matrix
} pto_matrix_t;

bool pto_matrix(pto_emit_t *e, const tl_region_t *r, pto_matrix_t *m, tl_loc_t loc);
// The L1 matrix of m as a Mat tile (NZ), or read as its transpose (ZN).
void pto_mat_tile(pto_emit_t *e, const char *name, const pto_matrix_t *m, bool transposed);
// An L0A (Left, zZ) or L0B (Right, nZ) tile of rows x cols at addr, its
// valid rows vr and columns vc (run-time expressions; NULL: all).
void pto_l0_tile(pto_emit_t *e, const char *name, tl_scope_t scope, tl_dtype_t t, int64_t rows,
                 int64_t cols, const char *addr, const char *vr, const char *vc);

// --- emit_vec.c: what the vector op files share ------------------------------------------
typedef struct {
    pto_view_t v[4];
    int n;
    bool flat; // every operand is contiguous: one-row tiles of the span
} pto_operands_t;

// Views of the region operands of s listed in idx (-1 ends), one layout for
// all (flat spans when every one is contiguous, rows otherwise).
bool pto_vec_views(pto_emit_t *e, const tl_stmt_t *s, const int *idx, pto_operands_t *o);
// The UB region operand i of s as a view (an error when it is not one).
bool pto_ub_view(pto_emit_t *e, const tl_stmt_t *s, int i, pto_view_t *v);
// Declares tiles tl_d, tl_a, tl_b, tl_c over the operands in order.
void pto_vec_tiles(pto_emit_t *e, const pto_operands_t *o);
// The scalar operand i of s converted to dtype t (as tilec does).
const char *pto_typed_scalar(pto_emit_t *e, const tl_stmt_t *s, int i, tl_dtype_t t);
// UB scratch of `bytes` past every planned buffer (an error when it does not fit).
bool pto_scratch(pto_emit_t *e, const tl_stmt_t *s, int64_t bytes, int64_t *addr);
// A flat tile `name` of n elements of dtype t at byte address addr.
void pto_flat_at(pto_emit_t *e, const char *name, tl_dtype_t t, int64_t n, const char *addr);
// emit_mask.c: compare, select, createvecindex, reinterpretcast, xor, shifts,
// silu, axpy, pow, transpose; false when s is none of them.
bool pto_emit_vec_more(pto_emit_t *e, const tl_stmt_t *s);
// emit_repeat.c: brcb, the _experiment row ops, sort32, gatherb and the
// repeat-form reductions; false when s is none of them.
bool pto_emit_repeat(pto_emit_t *e, const tl_stmt_t *s);
// emit_sort.c: sort, merge_sort, gather_mask, arith_progression; false when s
// is none of them.
bool pto_emit_sort(pto_emit_t *e, const tl_stmt_t *s);
// emit_scan.c: T.cumsum (a chain of TADDs); false when s is not one.
bool pto_emit_scan(pto_emit_t *e, const tl_stmt_t *s);

// --- emit_copy.c, emit_vec.c, emit_cube.c
// ----------------------------------------------------------
void pto_emit_copy(pto_emit_t *e, const tl_stmt_t *s);
void pto_emit_copy_pa(pto_emit_t *e, const tl_stmt_t *s); // emit_pa.c
void pto_emit_im2col(pto_emit_t *e, const tl_stmt_t *s);  // emit_pa.c
void pto_emit_vec(pto_emit_t *e, const tl_stmt_t *s);
void pto_emit_mma(pto_emit_t *e, const tl_stmt_t *s);
void pto_emit_gemm_v0(pto_emit_t *e, const tl_stmt_t *s);

#endif
