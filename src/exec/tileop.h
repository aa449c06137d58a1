// The tile-op library: the one implementation of what every tile op computes
// (DESIGN.md §3: "each op's semantics is written once"). The functional
// executor, the simulator and the code the CPU backend generates all call it on
// typed views of memory.
//
// The caller (an executor) has already evaluated every expression of the op:
// region starts and extents are numbers, scalar operands are values, attribute
// expressions (gemm `init`, copy `pad_value`) are evaluated. The library checks
// bounds and reports errors through the context; it never reads or writes
// outside a view's buffer.
//
// Operands come in the order of the op's signature in ir/ops.h (copy: src, dst;
// atomic_add: dst, src; gemm: A, B, C; vector ops: dst first; reductions: src,
// out); the other attributes (transpose, enable_relu, cast mode, compare and
// select modes, axis/dim, clear, real_shape) are read from call->op. A
// start-point operand (`A[i, j]`, form TL_REGION_POINT) of a copy takes its
// extents from the other operand. The exact semantics, and where they differ
// from upstream's, are written at the top of each tileop_*.c file.
//
// Calls are independent: there is no global state (T.set_deq_scale writes
// ctx->deq_scale), so different contexts may run on different threads. gemm,
// reductions and in-place transposes allocate temporary heap memory.
#ifndef TL_EXEC_TILEOP_H
#define TL_EXEC_TILEOP_H

#include "base/diag.h"
#include "ir/copy_plan.h"
#include "ir/ir.h"

// A buffer region with numbers: `data` is the buffer's first byte, shape the
// buffer's shape (for GM tensors the run-time shape), start/extent the region.
typedef struct {
    uint8_t *data;
    size_t bytes; // size of the buffer's memory reachable from data
    // UB: the bytes from data to the end of the agent's UB arena (the chip's
    // UB from the buffer's address), which a vector op's count may run into as
    // on the device (tl_tileop_span); 0 elsewhere (no access past the buffer)
    size_t reach;
    tl_dtype_t dtype;
    tl_scope_t scope;
    int ndim;
    int64_t shape[TL_MAX_DIMS];
    int64_t start[TL_MAX_DIMS];
    int64_t extent[TL_MAX_DIMS];
    tl_region_form_t form;
    const char *name;
    bool int4; // the buffer holds packed int4 (tl_buffer_t.int4): dtype uint8, last dim in bytes
} tl_view_t;

// A scalar operand: integers exactly, floats as double.
typedef struct {
    bool is_float;
    int64_t i;
    double f;
} tl_scalar_t;

typedef struct {
    bool is_view;
    tl_view_t view;
    tl_scalar_t scalar;
} tl_operand_t;

// Threads an op may hand parts of its work to (the CPU target's pool,
// rt/pool.h). idle(): how many could take parts now; run(n, part, arg) calls
// part(arg, i, thread) for every i in [0, n), some of them on other threads
// at once, and returns when all are done. Parts write disjoint memory, and
// every element an op computes goes through the same operations however its
// work is split, so results do not depend on the thread count.
typedef struct {
    int (*idle)(void);
    void (*run)(int64_t n, void (*part)(void *arg, int64_t i, int thread), void *arg);
} tl_tileop_share_t;

// Per-agent state some ops read (T.set_deq_scale) and error reporting.
typedef struct {
    tl_diag_t *diag;
    float deq_scale; // T.set_deq_scale; 1 by default
    // When set, L0C->UB and UB->L1 copies (developer-mode hand-offs that the
    // compiler later routes through GM) are executed as direct moves.
    bool allow_virtual_copies;
    const tl_tileop_share_t *share; // NULL: every op runs on the calling thread
} tl_tileop_ctx_t;

typedef struct {
    const tl_op_t *op; // opcode and constant attributes
    tl_loc_t loc;      // for error messages
    int nargs;
    tl_operand_t args[20]; // im2col has 18 operands
    tl_scalar_t init;      // gemm: non-zero = overwrite C
    bool has_pad;
    tl_scalar_t pad; // copy GM -> UB tail fill value (GM -> L1: 0 only)
    // op->k_valid / n_valid evaluated (has_*: given), and op->unit_flag (0 when absent)
    bool has_k_valid, has_n_valid;
    int64_t k_valid, n_valid;
    int unit_flag;
} tl_opcall_t;

// Runs one tile op. Errors (out of bounds, unsupported shape or dtype pair,
// illegal path) are reported to ctx->diag at call->loc naming the op, and give
// TL_ERR_RUNTIME (or TL_ERR_UNSUPPORTED).
tl_status_t tl_tileop_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);

// What a copy (operands si -> di of `call`, as evaluated for tl_tileop_run)
// does, by the device's rule (ir/copy_plan.h) with the run's numbers: the box
// after the GM side is clipped at the tensor (rows x cols), whether the fill
// runs (plan.fill elements from plan.o[1]) and each row's tail (GM -> UB). A
// start-point operand's extents are its region's (the front end took them
// from the other operand). False, with the reason reported to ctx (which may
// have no diag), when the copy is not valid.
typedef struct {
    tl_copy_plan_t plan;
    int64_t rows, cols;
    bool fill;
    tl_copy_tail_t tail;
    // the blocks completed: tail_rows blocks plan.rs[1] apart, each of
    // tail_len elements moved and completed up to tail_end (from its start);
    // a flat plan's one block is all its rows
    int64_t tail_rows, tail_len, tail_end;
} tl_copy_exec_t;
bool tl_tileop_copy_plan(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int si, int di,
                         tl_copy_exec_t *x);

// On-chip -> GM copies into GM tensors of at least this many bytes use
// streaming stores (about where memcpy switches to them on machines with a few
// MiB of cache per core): whole lines, no read for ownership, no eviction of
// the inputs.
enum { TL_COPY_STREAM_BYTES = 8 << 20 };

// The memory a tile op reads and writes, as runs of bytes of its operands'
// buffers: fn is called for each contiguous run with the operand index, whether
// it is a write (an operand read and written is reported twice), and the byte
// offset from the view's `data` and length. Copies and gemm touch rectangles
// (the moved box, the pad-filled destination region), vector ops flat spans
// (the optional element count included; a compare mask in bits), reductions a
// rectangle in and a span out; gather reads its whole source span. Scalar
// operands touch nothing. The call must be one tl_tileop_run accepted.
typedef void (*tl_tileop_access_fn)(void *arg, int operand, bool write, int64_t off, int64_t len);
void tl_tileop_accesses(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg);

// The sorting ops (sort, topk, merge_sort, gather_mask, init_sort_buf, brcb) and
// the repeat-form reductions (block_reduce_*, wholereduce*) touch
// element ranges their sizes decide, not their operand regions: the ranges
// (first element from the region origin, count) that operand i reads or writes,
// at most two; returns how many. The call must be one tl_tileop_run accepted.
int tl_tileop_sort_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2],
                          int64_t count[2]);
// The same for the repeat-form reductions (tileop_repeat.c; one range each).
int tl_tileop_repeat_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2],
                            int64_t count[2]);
// ... and for bilinear_interpolation (tileop_bilinear.c; dst: the hull it writes).
int tl_tileop_bilinear_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2],
                              int64_t count[2]);
// The work of sort / topk (pairs sorted: N, and the 4-way merge rounds after
// Sort32) and of merge_sort (pairs merged, one round), for cost models; 0 pairs
// for the other ops.
void tl_tileop_sort_work(const tl_opcall_t *call, int64_t *pairs, int *rounds);
static inline bool tl_tileop_is_sort(tl_opcode_t op)
{
    return op >= TL_OP_SIZED_FIRST && op <= TL_OP_SIZED_LAST;
}
// The *_experiment ops: one 256-byte repeat per row of a (column-sliced)
// region, tileop_rows.c.
static inline bool tl_tileop_is_rows(tl_opcode_t op)
{
    return op >= TL_OP_ROW_EXPAND_MUL_X && op <= TL_OP_EXP_X;
}

// A scalar operand converted to dtype t (floats: RINT; float -> int: truncation with
// saturation; int -> int: two's complement wrap), stored as one element at out.
void tl_tileop_scalar_to(tl_dtype_t t, const tl_scalar_t *s, void *out);
// The scalar converted to float dtype t and read back as float.
float tl_tileop_scalar_f32(tl_dtype_t t, const tl_scalar_t *s);
// The scalar operand of binary op `op` on float dtype t as its kernels use it:
// converted to t, negated for sub (x - s is x + (-s)), and for div the float32
// reciprocal converted to t (x / s is x * (1 / s): goldens depend on it).
float tl_tileop_binary_scalar_f32(tl_dtype_t t, tl_opcode_t op, const tl_scalar_t *s);
// The scalar converted to integer dtype t and read back as int64.
int64_t tl_tileop_scalar_i64(tl_dtype_t t, const tl_scalar_t *s);
// The scalar's value as a double / an int64 (floats truncated, saturated).
double tl_tileop_scalar_value(const tl_scalar_t *s);
int64_t tl_tileop_scalar_int(const tl_scalar_t *s);

// Number of elements of a region, and the flat element offset of its origin in
// row-major order (vector ops work on that contiguous span).
int64_t tl_view_count(const tl_view_t *v);
int64_t tl_view_offset(const tl_view_t *v);

#endif
