// Argument binding, shared by every backend: a kernel's arguments by
// parameter name (tensors, scalar values, explicit symbolic dims), checked
// against the kernel's parameters, with the symbolic dims inferred, the
// outputs and workspaces the caller did not give allocated, and the number
// of blocks. The reference executor, the simulator (through it) and the CPU
// backend run on a bound tl_bind_t; the driver's backend interface
// (driver/backend.h) hands one to whichever backend runs.
//
//   tl_bind_t *b;
//   tl_bind_create(&b, kernel, &diag);
//   tl_bind_set_tensor(b, "A", a);
//   tl_bind_set_int(b, "n", 128);
//   if (tl_bind_check(b) == TL_OK) ... run a backend on b ...
//   c = tl_bind_tensor(b, "C");
//   tl_bind_destroy(b);
//
// Rules: every tensor must have the parameter's dtype and rank; a symbolic
// dim takes its value from an explicit tl_bind_set_dim, else from the first
// input tensor (then the first given output) whose shape has it as a plain
// dimension; then every dimension of every given tensor, compound expressions
// such as `b * m` included, is evaluated (with the executor's scalar
// semantics) and checked. Output and workspace tensors not given are
// allocated and filled with 0xFF bytes (NaN for floats): a kernel must not
// read what it did not write. A strided argument runs on a contiguous copy,
// copied back after the run (tl_bind_copy_back).
#ifndef TL_EXEC_BIND_H
#define TL_EXEC_BIND_H

#include "ir/ir.h"
#include "rt/tensor.h"

typedef struct tl_bind tl_bind_t;

tl_status_t tl_bind_create(tl_bind_t **out, const tl_kernel_t *k, tl_diag_t *d);
void tl_bind_destroy(tl_bind_t *b); // NULL is fine

// Arguments by parameter name. Tensors are borrowed: the caller keeps them
// alive while b uses them; outputs given here are written in place; NULL
// un-gives a tensor.
tl_status_t tl_bind_set_tensor(tl_bind_t *b, const char *name, tl_tensor_t *t);
tl_status_t tl_bind_set_int(tl_bind_t *b, const char *name, int64_t v);
tl_status_t tl_bind_set_float(tl_bind_t *b, const char *name, double v);
// Explicit value of a symbolic dim (`-d topk=8`); checked against the shapes.
tl_status_t tl_bind_set_dim(tl_bind_t *b, const char *name, int64_t v);

// Checks the arguments, infers the symbolic dims, allocates the missing
// outputs and workspaces and evaluates the grid; again only after a change.
tl_status_t tl_bind_check(tl_bind_t *b);

// The tensor of a parameter (given or allocated), or NULL. Allocated tensors
// belong to b unless taken (the caller then destroys it; a later check
// allocates a new one).
tl_tensor_t *tl_bind_tensor(tl_bind_t *b, const char *name);
tl_tensor_t *tl_bind_take_tensor(tl_bind_t *b, const char *name);
bool tl_bind_dim(const tl_bind_t *b, const char *name, int64_t *out);
int64_t tl_bind_num_blocks(const tl_bind_t *b); // after a check

// --- for the backends (after tl_bind_check) -------------------------------------------
// The contiguous tensor GM buffer `buf` runs on (NULL for other scopes).
tl_tensor_t *tl_bind_gm(const tl_bind_t *b, const tl_buffer_t *buf);
// The value of a symbolic dim or scalar parameter v in v's dtype: integers
// in *i, floats in *f (the other is the value converted); false when unset.
bool tl_bind_value(const tl_bind_t *b, const tl_var_t *v, int64_t *i, double *f);
// Copies the results of a run into the caller's strided tensors.
void tl_bind_copy_back(tl_bind_t *b);

#endif
