// What a T.copy moves, as an Ascend A2/A3 device running upstream's build
// moves it: the one rule the executor, the simulator, the CPU code generator,
// the access analysis and the verifier share (docs/language.md, "Copy shapes",
// has the matrix and the evidence).
//
// Upstream lowers T.copy to one helper per path (tl_templates/ascend/common.h,
// src/op/ascend.cc AscendCopy::Lower):
// - GM side: a box of rows x columns. The columns are the region's last
//   dimension, the rows its last other dimension of extent > 1 (the one before
//   the last when there is none); both are clipped at the tensor's shape. A
//   GM <-> UB copy folds the leading dimensions of extent > 1 into the rows
//   when the region is memory-uniform there (each such dimension after the
//   first whole, nothing between them): rows = the product of their extents,
//   the outermost one clipped (tilelang-ascend #1231). Otherwise other
//   dimensions of extent > 1 are an error (never a partial move).
// - GM <-> UB: DataCopyPad with the UB buffer's physical row pitch W (its
//   last dimension; a 1-D buffer: the region's extent, the buffer's when that
//   is not a compile-time constant). Rows land W elements apart when W is
//   whole 32-byte blocks; when it is not, only compact full rows move (the
//   region's rows whole, the GM rows one after another: one burst of rows x W
//   elements), anything else is an error (#1537, #1777). The region starts
//   32-byte aligned. A GM -> UB copy whose clipped box is not M x W (M: the
//   UB region's rows) first sets M x W elements from the region's start to
//   the pad value (Duplicate; 16- and 32-bit types only; past the buffer an
//   error), and completes each row's last 32-byte block (the flat burst's
//   only): with the pad value when cols != W, else with the block's first
//   element (asc-devkit DataCopyPad: dummy data).
// - GM -> L1 and L0C -> GM: the box at the same rows and columns of the
//   on-chip region's last two dimensions (zN / NZ layouts: the column start a
//   whole fractal). GM -> L1 clears the whole L1 tile (the buffer's last two
//   dimensions) first when the clipped box is not that tile and the copy
//   starts at a whole tile of the buffer (its element offset a multiple of
//   the tile's elements, at run time: upstream's need_clear).
// - L1 -> L0A / L0B: the L0 tile (the buffer's last two dimensions, whatever
//   the region) from the L1 region's start, transposed with `transpose`.
// - UB -> UB: DataCopy / Cast. When both regions' last extents are their
//   buffers' widths, one run of the destination's element count; else rows of
//   the source's last extent at both buffers' row pitches, as many as the
//   source's second-to-last extent. A same-dtype run must be whole 32-byte
//   blocks (DataCopy rounds the count down).
// - L0C -> UB and UB -> L1 (developer mode, through a GM workspace): as their
//   two halves.
// A copy the device would move differently from what its operands say (a
// partial move, elements outside a region, a pitch that is not the buffer's)
// is an error saying so, never a different copy.
//
// npuir (upstream's AscendNPU-IR back end, target="npuir"; `exact`): a copy
// between GM and UB or UB and UB is a strided memref copy that bishengir
// lowers itself: element k of the source region (row-major, unit dimensions
// dropped) moves to element k of the destination region, nothing else is
// written (no pad fill, no completed blocks), at any alignment. The two
// regions must agree in shape without their unit dimensions; tilec moves it as
// one box of rows x columns, so after merging the dimensions that are
// contiguous on both sides at most two may remain (else an error). The regions
// stay inside their buffers and tensors (no clipping).
#ifndef TL_IR_COPY_PLAN_H
#define TL_IR_COPY_PLAN_H

#include "ir/ir.h"

// One operand, as numbers. Unknown values (the static check): shape NULL for a
// GM tensor, start NULL, an extent -1.
typedef struct {
    tl_scope_t scope;
    tl_dtype_t dtype;
    int ndim;
    const int64_t *shape;
    const int64_t *start;
    const int64_t *ext; // a start point's taken from the other operand
    bool point;         // written as a start point (`A[i, j]`)
    bool base;          // every start is the constant 0 (not used by the rule)
    // UB side of a GM <-> UB copy: its last (second-to-last) extent is not a
    // compile-time constant (`x[:, 0:n]`, n known only at run time). Upstream's
    // lowering then gives DataCopyPad the buffer's last (second-to-last)
    // dimension instead (src/op/ascend.cc: a runtime extent cannot be a
    // template argument): rows at the buffer's pitch, and the pad fill
    // covers the buffer's whole rows from the region's start.
    bool dyn_cols, dyn_rows;
    // npuir (tl_op_t.exact, either side): the copy moves exactly its regions,
    // element by element (see tl_copy_plan)
    bool exact;
} tl_copy_side_t;

typedef enum { TL_COPY_TAIL_NONE, TL_COPY_TAIL_PAD, TL_COPY_TAIL_FIRST } tl_copy_tail_t;

// Element (r, c) of the box moves from src offset o[0] + r * rs[0] + c * cs[0]
// to dst offset o[1] + r * rs[1] + c * cs[1] (elements from the buffers'
// starts; o and GM strides only when starts and shapes are known).
typedef struct {
    int64_t rows, cols;         // the box, the GM side's before clipping
    int row_dim[2], col_dim[2]; // a GM side's dimensions of rows and columns (-1: one row)
    int64_t fold[2];            // a GM side's rows per index of row_dim (leading dimensions folded)
    int active[2];              // a GM side's dimensions of extent > 1 moved (with the columns')
    int64_t o[2], rs[2], cs[2];
    // GM -> UB / L1: when the clipped box is not full_rows x full_cols, `fill`
    // elements from o[1] (UB: the pad value; L1: zeros, at a whole tile) are set
    // before the move
    int64_t full_rows, full_cols, fill;
    bool fill_zero;
    bool fill_past;      // ... and those elements are not the UB region: an error when it runs
    int64_t width;       // GM <-> UB: the UB buffer's physical row pitch W (elements)
    bool flat;           // GM <-> UB: compact full rows moved as one burst (W not 32-byte aligned)
    tl_copy_tail_t tail; // GM -> UB: every row's last 32-byte block (see above)
    int64_t tail_end;    // ... up to this column (elements)
} tl_copy_plan_t;

// The plan of a copy from src to dst, or false with the reason in why.
bool tl_copy_plan(const tl_copy_side_t *src, const tl_copy_side_t *dst, bool transpose,
                  tl_copy_plan_t *p, char *why, size_t cap);

// The extents of an operand written as a start point (`A[i, j]`, ndim
// indices): the other operand's trailing extents, with leading 1s when it has
// more indices (upstream's rule, tilelang/language/copy.py).
void tl_copy_point_extents(int ndim, const int64_t *other, int other_ndim, int64_t *out);

// The pitch (elements) at which the device lays the rows of a GM <-> UB copy
// of `cols` columns in a UB buffer of physical row pitch `width`: `width`
// when it is whole 32-byte blocks, or when cols == width (compact full rows,
// one burst); else -1 (DataCopyPad would put each row at a 32-byte boundary,
// which is not the buffer's row).
int64_t tl_copy_plan_pitch(tl_dtype_t t, int64_t width, int64_t cols);
// The error of a fill that would run past the UB region (fill_past).
const char *tl_copy_plan_fill_text(const tl_copy_plan_t *p, char *buf, size_t cap);

// The tail of a GM -> UB copy whose box was clipped to `cols` columns: the
// kind, and the element its block's last 32 bytes end at (from the block's
// start). A flat plan's one block is all its rows: pass rows x cols.
tl_copy_tail_t tl_copy_plan_tail(const tl_copy_plan_t *p, tl_dtype_t t, int64_t cols, int64_t *end);

#endif
