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
#include "ir/ir.h"

// A buffer region with numbers: `data` is the buffer's first byte, shape the
// buffer's shape (for GM tensors the run-time shape), start/extent the region.
typedef struct {
    uint8_t *data;
    size_t bytes; // size of the buffer's memory reachable from data
    tl_dtype_t dtype;
    tl_scope_t scope;
    int ndim;
    int64_t shape[TL_MAX_DIMS];
    int64_t start[TL_MAX_DIMS];
    int64_t extent[TL_MAX_DIMS];
    tl_region_form_t form;
    const char *name;
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
    tl_operand_t args[8];
    tl_scalar_t init; // gemm: non-zero = overwrite C
    bool has_pad;
    tl_scalar_t pad; // copy GM -> UB tail fill value
    // op->k_valid / n_valid evaluated (has_*: given), and op->unit_flag (0 when absent)
    bool has_k_valid, has_n_valid;
    int64_t k_valid, n_valid;
    int unit_flag;
} tl_opcall_t;

// Runs one tile op. Errors (out of bounds, unsupported shape or dtype pair,
// illegal path) are reported to ctx->diag at call->loc naming the op, and give
// TL_ERR_RUNTIME (or TL_ERR_UNSUPPORTED).
tl_status_t tl_tileop_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call);

// The extents (TL_MAX_DIMS entries) a copy operand written as a start point
// (`A[i, j]`, form TL_REGION_POINT) takes from the other operand: the other's
// non-unit extents, right-aligned into the point's dimensions (reversed for a
// transposing copy). Other operands' extents are returned unchanged, as are a
// point's when the other operand has more non-unit dimensions than it has
// (T.copy reports that as an error).
void tl_tileop_copy_point_extents(const tl_view_t *point, const tl_view_t *other, bool transpose,
                                  int64_t *ext);

// What a copy (operands si -> di of `call`, as evaluated for tl_tileop_run)
// moves, in each side's own dimensions from its view's start: the box read
// and the box written, plus for a GM -> UB / L1 copy that fills the rest of
// its destination region that region's extents. False if the copy is not
// valid (tl_tileop_run would fail on it).
typedef struct {
    int64_t src_ext[TL_MAX_DIMS], dst_ext[TL_MAX_DIMS];
    bool fill;
    int64_t fill_ext[TL_MAX_DIMS];
} tl_copy_box_t;
bool tl_tileop_copy_box(const tl_opcall_t *call, int si, int di, tl_copy_box_t *out);

// On-chip -> GM copies into GM tensors of at least this many bytes use
// streaming stores (about where memcpy switches to them on machines with a few
// MiB of cache per core): whole lines, no read for ownership, no eviction of
// the inputs.
enum { TL_COPY_STREAM_BYTES = 8 << 20 };

// The part of a copy's plan that the operands' forms, scopes, ranks and
// extents decide (neither starts nor shapes are read): the moved dimensions,
// each with the dimension of either side it runs along (-1: none) and both
// sides' extents along it, and each side's region extents (a start point's
// inferred from the other side). The run then checks bounds, clips the GM
// side at the tensor's shape and, for a clipped GM -> UB / L1 copy, fills the
// rest of the destination region (dst_ext). k == 0: a single element. False
// when tl_tileop_run would fail on the extents alone.
typedef struct {
    int k;
    int smap[TL_MAX_DIMS], dmap[TL_MAX_DIMS];
    int64_t sext[TL_MAX_DIMS], dext[TL_MAX_DIMS];
    int64_t src_ext[TL_MAX_DIMS], dst_ext[TL_MAX_DIMS];
} tl_copy_layout_t;
bool tl_tileop_copy_layout(const tl_opcall_t *call, tl_copy_layout_t *out);

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

// The sorting ops (sort, topk, merge_sort, gather_mask, init_sort_buf) touch
// element ranges their sizes decide, not their operand regions: the ranges
// (first element from the region origin, count) that operand i reads or writes,
// at most two; returns how many. The call must be one tl_tileop_run accepted.
int tl_tileop_sort_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2], int64_t count[2]);
// The work of sort / topk (pairs sorted: N, and the 4-way merge rounds after
// Sort32) and of merge_sort (pairs merged, one round), for cost models; 0 pairs
// for the other ops.
void tl_tileop_sort_work(const tl_opcall_t *call, int64_t *pairs, int *rounds);
static inline bool tl_tileop_is_sort(tl_opcode_t op)
{
    return op >= TL_OP_SORT && op <= TL_OP_INIT_SORT_BUF;
}

// A scalar operand converted to dtype t (floats: RINT; float -> int: truncation with
// saturation; int -> int: two's complement wrap), stored as one element at out.
void tl_tileop_scalar_to(tl_dtype_t t, const tl_scalar_t *s, void *out);
// The scalar converted to float dtype t and read back as float.
float tl_tileop_scalar_f32(tl_dtype_t t, const tl_scalar_t *s);
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
