// Vector ops whose operands may run past their buffers, as on the device,
// which bounds no access by its buffer (exec/overrun.c reports them against
// the placed buffers; the CPU pipeline places a kernel with one as the
// reference does, pass/memplan.c).
#ifndef TL_IR_OVERRUN_H
#define TL_IR_OVERRUN_H

#include "ir/ir.h"

// The elements operand i of op statement s processes from its region's
// origin when that may exceed the region: an element-wise op's count (every
// operand), gather_mask's whole 256-byte repeats (its source) and kept
// elements (its destination). False when the
// operand's extent is its region's; *known false when the number is known
// only at run time.
bool tl_overrun_elements(const tl_stmt_t *s, int i, int64_t *n, bool *known);
typedef bool (*tl_overrun_fn)(void *arg, const tl_stmt_t *s, int i, int64_t n, bool known);
// Calls fn on every UB operand of an op under s that tl_overrun_elements
// counts; false when fn stopped the walk.
bool tl_overrun_each(const tl_stmt_t *s, tl_overrun_fn fn, void *arg);
// Whether an op of k may run past an operand's region (a number above the
// region's elements, or one known only at run time).
bool tl_overrun_possible(const tl_kernel_t *k);

#endif
