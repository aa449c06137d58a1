// Host tensors: creation, wrapping, shape queries and element access.
#include "rt/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tl_status_t err(tl_diag_t *d, tl_status_t code, const char *msg)
{
    return tl_diag_fail(d, code, "tensor: %s", msg);
}

// Checks dtype and shape and computes numel.
static tl_status_t check_shape(int ndim, const int64_t *shape, size_t *numel, tl_dtype_t dtype,
                               tl_diag_t *d)
{
    if ((unsigned)dtype >= TL_DTYPE_COUNT) return err(d, TL_ERR_ARG, "invalid dtype");
    if (ndim < 0 || ndim > TL_TENSOR_MAX_DIMS)
        return err(d, TL_ERR_ARG, "rank must be between 0 and 8");
    // The strides are products of the non-zero extents, so those must fit in
    // int64 (and the bytes in size_t) even when another extent is 0.
    uint64_t n = 1, max = SIZE_MAX < INT64_MAX ? SIZE_MAX : INT64_MAX;
    uint64_t limit = max / (uint64_t)tl_dtype_size(dtype);
    bool zero = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) return err(d, TL_ERR_ARG, "negative dimension");
        if (shape[i] == 0) {
            zero = true;
            continue;
        }
        if ((uint64_t)shape[i] > limit / n) return err(d, TL_ERR_ARG, "size overflows");
        n *= (uint64_t)shape[i];
    }
    *numel = zero ? 0 : (size_t)n;
    return TL_OK;
}

static void row_major(tl_tensor_t *t)
{
    int64_t s = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        t->strides[i] = s;
        s *= t->shape[i] > 0 ? t->shape[i] : 1;
    }
}

static tl_tensor_t *new_header(tl_dtype_t dtype, int ndim, const int64_t *shape)
{
    tl_tensor_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->dtype = dtype;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) t->shape[i] = shape[i];
    row_major(t);
    return t;
}

tl_status_t tl_tensor_create(tl_tensor_t **out, tl_dtype_t dtype, int ndim, const int64_t *shape,
                             tl_diag_t *d)
{
    *out = NULL;
    size_t numel;
    tl_status_t s = check_shape(ndim, shape, &numel, dtype, d);
    if (s != TL_OK) return s;
    size_t bytes = numel * (size_t)tl_dtype_size(dtype);
    tl_tensor_t *t = bytes > SIZE_MAX - TL_TENSOR_ALIGN ? NULL : new_header(dtype, ndim, shape);
    // aligned_alloc wants a size that is a multiple of the alignment.
    void *data =
        t ? aligned_alloc(TL_TENSOR_ALIGN, TL_ALIGN_UP(TL_MAX(bytes, 1), TL_TENSOR_ALIGN)) : NULL;
    if (!data) { // the shape and the bytes: a typo in a dimension shows
        free(t);
        tl_buf_t b;
        tl_buf_init(&b);
        tl_tensor_format_dims(&b, ndim, shape);
        tl_status_t st = tl_diag_fail(d, TL_ERR_NOMEM, "tensor: cannot allocate %s%s (%.3g bytes): out of memory",
                                      tl_dtype_name(dtype), tl_buf_cstr(&b), (double)numel * tl_dtype_size(dtype));
        tl_buf_free(&b);
        return st;
    }
    memset(data, 0, bytes);
    t->data = data;
    t->owns_data = true;
    *out = t;
    return TL_OK;
}

tl_status_t tl_tensor_wrap(tl_tensor_t **out, tl_dtype_t dtype, int ndim, const int64_t *shape,
                           const int64_t *strides, void *data, tl_diag_t *d)
{
    *out = NULL;
    size_t numel;
    tl_status_t s = check_shape(ndim, shape, &numel, dtype, d);
    if (s != TL_OK) return s;
    if (!data && numel > 0) return err(d, TL_ERR_ARG, "wrapping a NULL pointer");
    tl_tensor_t *t = new_header(dtype, ndim, shape);
    if (!t) return err(d, TL_ERR_NOMEM, "out of memory");
    if (strides)
        for (int i = 0; i < ndim; i++) t->strides[i] = strides[i];
    t->data = data;
    *out = t;
    return TL_OK;
}

void tl_tensor_destroy(tl_tensor_t *t)
{
    if (!t) return;
    if (t->owns_data) free(t->data);
    free(t);
}

size_t tl_tensor_numel(const tl_tensor_t *t)
{
    size_t n = 1;
    for (int i = 0; i < t->ndim; i++) n *= (size_t)t->shape[i];
    return n;
}

size_t tl_tensor_nbytes(const tl_tensor_t *t)
{
    return tl_tensor_numel(t) * (size_t)tl_dtype_size(t->dtype);
}

bool tl_tensor_is_contiguous(const tl_tensor_t *t)
{
    int64_t s = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 0) return true;
        // The stride of a dimension of extent 1 never matters.
        if (t->shape[i] != 1 && t->strides[i] != s) return false;
        s *= t->shape[i];
    }
    return true;
}

bool tl_tensor_same_shape(const tl_tensor_t *a, const tl_tensor_t *b)
{
    if (a->ndim != b->ndim) return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

int64_t tl_tensor_offset(const tl_tensor_t *t, const int64_t *idx)
{
    int64_t off = 0;
    for (int i = 0; i < t->ndim; i++) off += idx[i] * t->strides[i];
    return off;
}

bool tl_tensor_next_index(const tl_tensor_t *t, int64_t *idx)
{
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (++idx[i] < t->shape[i]) return true;
        idx[i] = 0;
    }
    return false;
}

// Pointer to the element at offset `off`: strides may be negative, so index
// from a shifted base rather than passing a negative index.
static void *elem(const tl_tensor_t *t, int64_t off)
{
    return (char *)t->data + off * tl_dtype_size(t->dtype);
}

double tl_tensor_get(const tl_tensor_t *t, const int64_t *idx)
{
    return tl_load_f64(t->dtype, elem(t, tl_tensor_offset(t, idx)), 0);
}

void tl_tensor_set(tl_tensor_t *t, const int64_t *idx, double v)
{
    tl_store_f64(t->dtype, elem(t, tl_tensor_offset(t, idx)), 0, v, TL_CAST_RINT);
}

int64_t tl_tensor_get_i64(const tl_tensor_t *t, const int64_t *idx)
{
    return tl_load_i64(t->dtype, elem(t, tl_tensor_offset(t, idx)), 0);
}

void tl_tensor_set_i64(tl_tensor_t *t, const int64_t *idx, int64_t v)
{
    tl_store_i64(t->dtype, elem(t, tl_tensor_offset(t, idx)), 0, v);
}

static int64_t flat_offset(const tl_tensor_t *t, size_t i)
{
    if (tl_tensor_is_contiguous(t)) return (int64_t)i;
    int64_t off = 0;
    for (int k = t->ndim - 1; k >= 0; k--) {
        size_t ext = (size_t)t->shape[k];
        off += (int64_t)(i % ext) * t->strides[k];
        i /= ext;
    }
    return off;
}

double tl_tensor_get_flat(const tl_tensor_t *t, size_t i)
{
    return tl_load_f64(t->dtype, elem(t, flat_offset(t, i)), 0);
}

void tl_tensor_set_flat(tl_tensor_t *t, size_t i, double v)
{
    tl_store_f64(t->dtype, elem(t, flat_offset(t, i)), 0, v, TL_CAST_RINT);
}

void tl_tensor_format_dims(tl_buf_t *b, int n, const int64_t *dims)
{
    tl_buf_putc(b, '[');
    for (int i = 0; i < n; i++) tl_buf_printf(b, "%s%lld", i ? ", " : "", (long long)dims[i]);
    tl_buf_putc(b, ']');
}

const char *tl_tensor_shape_str(const tl_tensor_t *t, char *buf, size_t size)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_tensor_format_dims(&b, t->ndim, t->shape);
    if (size > 0) snprintf(buf, size, "%s", tl_buf_cstr(&b));
    tl_buf_free(&b);
    return buf;
}
