// T.call_extern of the one toolchain helper a kernel file calls by name (issue 19):
// tl::ascend::copy_ub_to_ub, the strided UB -> UB copy of upstream's
// tl_templates/ascend/common.h, given buffer pointers from buf.access_ptr(...).
// It becomes T.copy ops, which tilec runs and simulates; any other extern function
// stays an error (tapi.c).
#include "front/front.h"

#include <stdlib.h>
#include <string.h>

// The element the flat offset `f` of buffer `b` names, as a one-element region
// (form POINT): start[k] = f / stride(k) % shape(k), the last f % shape(last).
static tl_region_t *point_at(tl_eval_t *ev, tl_buffer_t *b, tl_expr_t *f, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_region_t *r = tl_arena_alloc(ev->arena, sizeof *r);
    r->buf = b;
    r->form = TL_REGION_POINT;
    r->ndim = b->ndim;
    r->loc = loc;
    int64_t stride = 1;
    for (int d = b->ndim - 1; d >= 0; d--) {
        tl_expr_t *q = stride == 1 ? f : tl_ir_bin(k, TL_BIN_FLOORDIV, f, tl_ir_int(k, stride, TL_I32, loc), loc);
        r->start[d] = d == 0 ? q : tl_ir_bin(k, TL_BIN_FLOORMOD, q, tl_ir_int(k, b->shape[d], TL_I32, loc), loc);
        r->extent[d] = tl_ir_int(k, 1, TL_I32, loc);
        stride *= b->shape[d];
    }
    return r;
}

// The flat element offset of a POINT region (the inverse of point_at).
static tl_expr_t *flat_of(tl_eval_t *ev, const tl_region_t *r, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_expr_t *f = NULL;
    int64_t stride = 1;
    for (int d = r->ndim - 1; d >= 0; d--) {
        tl_expr_t *t = stride == 1 ? r->start[d]
                                   : tl_ir_bin(k, TL_BIN_MUL, r->start[d], tl_ir_int(k, stride, TL_I32, loc), loc);
        f = f ? tl_ir_bin(k, TL_BIN_ADD, f, t, loc) : t;
        stride *= r->buf->shape[d];
    }
    return f;
}

// buf.access_ptr(mode, offset=0): a pointer to the element at the flat offset, for
// T.call_extern; tilec keeps it as that element of the buffer.
static tl_value_t *m_access_ptr(tl_eval_t *ev, tl_call_t *c)
{
    static const char *kws[] = {"access_mask", "offset", "extent", NULL};
    if (!tl_call_check(ev, c, "access_ptr", 1, 3, kws) || !tl_trace_require(ev, c->loc, "access_ptr"))
        return NULL;
    tl_value_t *off = tl_call_arg(c, 1, "offset");
    tl_expr_t *f = off ? tl_value_to_expr(ev, off, tl_call_arg_loc(c, 1, "offset"), TL_I32)
                       : tl_ir_int(ev->kernel, 0, TL_I32, c->loc);
    if (!f) return NULL;
    tl_value_t *v = tl_value_new(ev->arena, TL_V_REGION);
    v->region = point_at(ev, c->self->buffer, f, c->loc);
    return v;
}

tl_value_t *tl_front_access_ptr(tl_eval_t *ev, tl_value_t *buf)
{
    return tl_value_builtin(ev->arena, "access_ptr", m_access_ptr, buf);
}

static int64_t gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

// n contiguous elements, src[fs ..] -> dst[fd ..], as T.copy ops of one-row regions: pieces
// of g = gcd(n, both last dimensions) elements, which stay inside a row of both buffers when
// the offsets are multiples of g (a piece that crosses a row is out of bounds when it runs).
static bool copy_run(tl_eval_t *ev, tl_builtin_fn copy, const tl_region_t *src, tl_expr_t *fs,
                     const tl_region_t *dst, tl_expr_t *fd, int64_t n, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    int64_t g = gcd(gcd(n, src->buf->shape[src->ndim - 1]), dst->buf->shape[dst->ndim - 1]);
    for (int64_t j = 0; j < n / g; j++) {
        tl_expr_t *s = j ? tl_ir_bin(k, TL_BIN_ADD, fs, tl_ir_int(k, j * g, TL_I32, loc), loc) : fs;
        tl_expr_t *d = j ? tl_ir_bin(k, TL_BIN_ADD, fd, tl_ir_int(k, j * g, TL_I32, loc), loc) : fd;
        tl_region_t *rs = point_at(ev, src->buf, s, loc), *rd = point_at(ev, dst->buf, d, loc);
        rs->form = rd->form = TL_REGION_SLICE;
        rs->extent[rs->ndim - 1] = rd->extent[rd->ndim - 1] = tl_ir_int(k, g, TL_I32, loc);
        tl_value_t *args[2] = {tl_value_new(ev->arena, TL_V_REGION), tl_value_new(ev->arena, TL_V_REGION)};
        args[0]->region = rs;
        args[1]->region = rd;
        tl_loc_t locs[2] = {loc, loc};
        tl_call_t call = {.nargs = 2, .args = args, .arg_locs = locs, .loc = loc};
        if (!copy(ev, &call)) return false;
    }
    return true;
}

// T.call_extern("handle", "tl::ascend::copy_ub_to_ub<T1, T2, len>", src.access_ptr("r", offset=a),
//               dst.access_ptr("w", offset=b), src_rows, src_cols, src_stride, dst_rows, dst_cols,
//               dst_stride): common.h copies `len` elements at once when both sides are dense
// (cols == stride), else src_rows rows of src_cols elements at the strides (DataCopy, or
// Cast when the dtypes differ, on the V pipe): here the same rows as T.copy ops.
tl_value_t *tl_front_extern_copy_ub(tl_eval_t *ev, tl_call_t *c, const char *name)
{
    static const char *what[6] = {"src_rows", "src_cols", "src_stride", "dst_rows", "dst_cols", "dst_stride"};
    if (c->nargs != 10)
        return tl_eval_fail(ev, c->loc, "T.call_extern(\"%s\") takes the source and destination access_ptr "
                                        "and six sizes (rows, cols, stride of each), got %d arguments",
                            name, c->nargs - 2);
    const tl_region_t *ptr[2];
    for (int i = 0; i < 2; i++) {
        tl_value_t *p = c->args[2 + i];
        if (p->kind != TL_V_REGION || p->region->form != TL_REGION_POINT ||
            p->region->buf->scope != TL_SCOPE_UB)
            return tl_eval_fail(ev, tl_call_arg_loc(c, 2 + i, NULL),
                                "copy_ub_to_ub's %s must be a UB buffer's access_ptr(...)", i ? "destination" : "source");
        ptr[i] = p->region;
    }
    int64_t v[6];
    for (int i = 0; i < 6; i++)
        if (!tl_value_to_int(ev, c->args[4 + i], tl_call_arg_loc(c, 4 + i, NULL), what[i], &v[i])) return NULL;
    const char *lt = strrchr(name, ','), *gt = strrchr(name, '>');
    int64_t len = lt && gt > lt ? strtoll(lt + 1, NULL, 10) : 0;
    tl_value_t *copy_fn = tl_value_module_get(ev->lang, "copy");
    tl_kernel_t *k = ev->kernel;
    tl_loc_t loc = c->loc;
    tl_expr_t *fs = flat_of(ev, ptr[0], loc), *fd = flat_of(ev, ptr[1], loc);
    if (v[1] == v[2] && v[4] == v[5]) // dense on both sides: one run of len elements
        return copy_run(ev, copy_fn->builtin.fn, ptr[0], fs, ptr[1], fd, len > 0 ? len : v[0] * v[1], loc)
                   ? tl_value_none()
                   : NULL;
    for (int64_t i = 0; i < v[0]; i++) {
        tl_expr_t *s = tl_ir_bin(k, TL_BIN_ADD, fs, tl_ir_int(k, i * v[2], TL_I32, loc), loc);
        tl_expr_t *d = tl_ir_bin(k, TL_BIN_ADD, fd, tl_ir_int(k, i * v[5], TL_I32, loc), loc);
        if (!copy_run(ev, copy_fn->builtin.fn, ptr[0], s, ptr[1], d, v[1], loc)) return NULL;
    }
    return tl_value_none();
}
