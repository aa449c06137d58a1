// Helpers shared by the golden references: argument checks, error messages,
// rounding to a narrower precision, scratch allocation.
#include "ref/ref.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/dtype.h"

double tl_ref_round(double v, tl_ref_prec_t p)
{
    uint16_t h = 0;
    switch (p) {
    case TL_REF_F32: return (double)tl_f64_to_f32(v, TL_CAST_RINT);
    case TL_REF_BF16:
        tl_convert(TL_BF16, &h, TL_F64, &v, 1, TL_CAST_RINT);
        return (double)tl_bf16_to_f32(h);
    case TL_REF_F16:
        tl_convert(TL_F16, &h, TL_F64, &v, 1, TL_CAST_RINT);
        return (double)tl_f16_to_f32(h);
    default: return v;
    }
}

bool tl_ref_prec_valid(tl_ref_prec_t p)
{
    return (unsigned)p < TL_REF_PREC_COUNT;
}

tl_status_t tl_ref_error(tl_diag_t *d, const char *op, const char *fmt, ...)
{
    if (!d) return TL_ERR_ARG;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tl_loc_t none = {0};
    return tl_diag_report(d, TL_SEV_ERROR, none, TL_ERR_ARG, "%s: %s", op, msg);
}

tl_status_t tl_ref_nomem(tl_diag_t *d, const char *op)
{
    return tl_diag_fail(d, TL_ERR_NOMEM, "%s: out of memory", op);
}

tl_status_t tl_ref_tensor(tl_diag_t *d, const char *op, const char *name, const void *ptr,
                          bool optional, int ndims, const int64_t *dims, size_t *count)
{
    // Keep every byte count (elements * 8) well inside size_t and ptrdiff_t.
    const uint64_t limit = (uint64_t)PTRDIFF_MAX / 16;
    uint64_t n = 1;
    bool ok = true;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            ok = false;
        else if (dims[i] > 0 && n > limit / (uint64_t)dims[i])
            ok = false;
        else
            n *= (uint64_t)dims[i];
    }
    if (!ok) {
        char shape[256];
        int len = 0;
        for (int i = 0; i < ndims && len < (int)sizeof shape - 24; i++)
            len += snprintf(shape + len, sizeof shape - (size_t)len, "%s%lld", i ? ", " : "",
                            (long long)dims[i]);
        shape[len] = 0;
        return tl_ref_error(d, op,
                            "%s has an invalid shape [%s] (sizes must be >= 0 and fit in "
                            "memory)",
                            name, shape);
    }
    *count = (size_t)n;
    if (!ptr && n > 0 && !optional) return tl_ref_error(d, op, "%s is NULL", name);
    return TL_OK;
}

void *tl_ref_alloc(size_t n, size_t size)
{
    if (size && n > (size_t)PTRDIFF_MAX / size) return NULL;
    size_t bytes = n * size;
    return malloc(bytes ? bytes : 1);
}
