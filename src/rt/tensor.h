// Host tensors: a dtype, up to 8 dimensions with element strides, and a data
// pointer that is either owned (64-byte aligned, zero-filled on creation) or
// borrowed from the caller.
//
// Strides count elements, not bytes, and may be zero (broadcast) or negative;
// `data` always points at element [0, 0, ...]. A 0-dimensional tensor is a
// scalar with one element.
#ifndef TL_RT_TENSOR_H
#define TL_RT_TENSOR_H

#include "base/buf.h"
#include "base/diag.h"
#include "base/dtype.h"

#define TL_TENSOR_MAX_DIMS 8
#define TL_TENSOR_ALIGN    64

typedef struct tl_tensor {
    tl_dtype_t dtype;
    int ndim;
    int64_t shape[TL_TENSOR_MAX_DIMS];
    int64_t strides[TL_TENSOR_MAX_DIMS]; // in elements
    void *data;
    bool owns_data;
} tl_tensor_t;

// A zero-filled, row-major tensor owning its data. `shape` may be NULL when ndim is 0.
tl_status_t tl_tensor_create(tl_tensor_t **out, tl_dtype_t dtype, int ndim, const int64_t *shape,
                             tl_diag_t *d);
// A tensor over caller memory (not freed by destroy). strides NULL means row-major.
tl_status_t tl_tensor_wrap(tl_tensor_t **out, tl_dtype_t dtype, int ndim, const int64_t *shape,
                           const int64_t *strides, void *data, tl_diag_t *d);
void tl_tensor_destroy(tl_tensor_t *t); // NULL is fine

size_t tl_tensor_numel(const tl_tensor_t *t);
size_t tl_tensor_nbytes(const tl_tensor_t *t); // numel * element size
bool tl_tensor_is_contiguous(const tl_tensor_t *t);
bool tl_tensor_same_shape(const tl_tensor_t *a, const tl_tensor_t *b);

// Element offset (in elements, from `data`) of a multi-index.
int64_t tl_tensor_offset(const tl_tensor_t *t, const int64_t *idx);
// Steps a multi-index to the next element in row-major order; false after the last.
bool tl_tensor_next_index(const tl_tensor_t *t, int64_t *idx);
// Element access as double; set rounds with RINT and saturates integers.
double tl_tensor_get(const tl_tensor_t *t, const int64_t *idx);
void tl_tensor_set(tl_tensor_t *t, const int64_t *idx, double v);
// Exact integer access (64-bit integers beyond 2^53 included); floats truncate on get.
int64_t tl_tensor_get_i64(const tl_tensor_t *t, const int64_t *idx);
void tl_tensor_set_i64(tl_tensor_t *t, const int64_t *idx, int64_t v);
// The same by row-major position i in [0, numel).
double tl_tensor_get_flat(const tl_tensor_t *t, size_t i);
void tl_tensor_set_flat(tl_tensor_t *t, size_t i, double v);

// "[2, 3, 4]" ("[]" for a scalar); used for shapes and multi-indices alike.
void tl_tensor_format_dims(tl_buf_t *b, int n, const int64_t *dims);
// The shape of t formatted into buf (truncated to size); returns buf.
const char *tl_tensor_shape_str(const tl_tensor_t *t, char *buf, size_t size);

#endif
