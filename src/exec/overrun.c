// Vector ops that run past an operand's buffer: an element-wise op's count,
// gather_mask's kept elements (ir/overrun.h), reported against the layout
// (layout.h: tl_overrun_report).
//
// Upstream's `count` (T.tile.cast(dst, src, mode, count), clamp, ...) is the
// number of elements the AscendC instruction processes from each operand's
// address; the device checks no buffer bound, so a count past the buffer
// reads and writes the UB bytes after it (other buffers, or unused UB), and
// only an access past the physical UB raises the vector core exception.
// Upstream's own tests do it (testing/.../elementwise.py cast, cast_slice,
// cast_scale, clamp_slice: count 4096 on 256-element buffers; cann-bench
// arg_max's sort kernel gathers 2048 elements into [8] buffers). tilec runs such
// an op the same way against its layout (the UB arena is then the chip's
// whole UB, tl_view_t.reach) and says here, once the buffers are placed,
// which bytes and buffers it touches: what it computes there depends on the
// layout, as on the device.
#include "exec/layout.h"
#include "ir/overrun.h"

#include <inttypes.h>
#include <stdlib.h>

// The lowest and highest element offset of r's origin in its buffer: exact
// when its start is constant, else anywhere a region of n elements fits.
static void origin_range(const tl_region_t *r, int64_t n, int64_t *lo, int64_t *hi)
{
    const tl_buffer_t *b = r->buf;
    int64_t off = 0, s;
    for (int i = 0; i < r->ndim; i++) {
        if (!tl_ir_is_const_int(r->start[i], &s)) {
            *lo = 0;
            *hi = tl_buffer_numel(b) - TL_MAX(n, 1);
            return;
        }
        off = off * b->shape[i] + s;
    }
    *lo = *hi = off;
}

// One warning: an operand of an op past its buffer. Copies of one source
// operand (loops the CPU target unrolls) merge into one, over all their bytes.
typedef struct {
    tl_loc_t loc;
    const tl_stmt_t *s;
    const tl_buffer_t *b;
    int operand;
    int64_t count, from, to;
} past_t;

typedef struct {
    const tl_kernel_t *k;
    const tl_layout_t *l;
    tl_diag_t *d;
    tl_status_t st;
    past_t *past;
    int npast, cap;
} report_t;

// The UB buffers of l other than b with bytes in [lo, hi), and the bytes of
// that range no buffer holds, appended to out.
static void holders(const report_t *r, const tl_buffer_t *b, int64_t lo, int64_t hi, tl_buf_t *out)
{
    int64_t held = 0;
    for (int i = 0; i < r->k->buffers.len; i++) {
        const tl_buffer_t *o = r->k->buffers.items[i];
        if (o == b || o->scope != TL_SCOPE_UB) continue;
        int64_t at = r->l->addr[o->id], end = at + tl_buffer_bytes(o);
        if (end <= lo || at >= hi) continue;
        int64_t from = TL_MAX(at, lo), to = TL_MIN(end, hi);
        tl_buf_printf(out, "%s'%s' (bytes [%" PRId64 ", %" PRId64 ") of it)", out->len ? ", " : "",
                      o->name, from - at, to - at);
        held += to - from; // an upper bound when buffers share addresses
    }
    if (held < hi - lo) tl_buf_printf(out, "%sbytes no buffer holds here", out->len ? " and " : "");
}

static bool same_loc(tl_loc_t a, tl_loc_t b)
{
    return a.src == b.src && a.line == b.line && a.col == b.col;
}

static void remember(report_t *r, past_t p)
{
    for (int i = 0; i < r->npast; i++) {
        past_t *q = &r->past[i];
        if (same_loc(q->loc, p.loc) && q->b == p.b && q->operand == p.operand) {
            q->from = TL_MIN(q->from, p.from);
            q->to = TL_MAX(q->to, p.to);
            return;
        }
    }
    if (r->npast == r->cap) {
        int cap = r->cap ? r->cap * 2 : 8;
        past_t *n = realloc(r->past, sizeof *n * (size_t)cap);
        if (!n) return; // a warning less
        r->past = n;
        r->cap = cap;
    }
    r->past[r->npast++] = p;
}

static const char *does(const tl_stmt_t *s, int operand)
{
    char role = tl_op_role(s->op.code, operand);
    return role == 'w' ? "writes" : role == 'x' ? "reads and writes" : "reads";
}

// What fixes the number of elements of operand i: the count, or gather_mask's
// whole repeats (its source) and pattern (its destination).
static const char *what(const tl_stmt_t *s, int i)
{
    return tl_op_count(&s->op) ? "its count"
           : i == 1            ? "whole 256-byte repeats"
                               : "those its pattern keeps";
}

static bool report_op(void *arg, const tl_stmt_t *s, int i, int64_t c, bool known)
{
    report_t *r = arg;
    const tl_arg_t *a = &s->op.args[i];
    const tl_buffer_t *b = a->region.buf;
    int64_t n = tl_region_numel(&a->region), size = tl_dtype_size(b->dtype), lo, hi;
    int64_t numel = tl_buffer_numel(b), at = r->l->addr[b->id];
    if (!known || n < 0 || c <= n) return true;
    origin_range(&a->region, n, &lo, &hi);
    if (hi + c <= numel) return true; // past the region, inside the buffer
    tl_loc_t loc = a->region.loc.line > 0 ? a->region.loc : s->loc;
    int64_t arena = r->l->arena[TL_SCOPE_UB];
    if (at + (lo + c) * size > arena) {
        r->st = tl_diag_report(
            r->d, TL_SEV_ERROR, loc, TL_ERR_COMPILE,
            "T.tile.%s %s %" PRId64 " elements (%s) from '%s' at UB byte %" PRId64
            ": past the end of the %" PRId64 " B UB (on the device: a vector core exception)",
            tl_op_info(s->op.code)->name, does(s, i), c, what(s, i), b->name, at + lo * size,
            arena);
        return true;
    }
    remember(
        r, (past_t){loc, s, b, i, c, at + tl_buffer_bytes(b), TL_MIN(at + (hi + c) * size, arena)});
    return true;
}

tl_status_t tl_overrun_report(const tl_kernel_t *k, const tl_layout_t *l, tl_diag_t *d)
{
    if (!l->overruns) return TL_OK;
    report_t r = {k, l, d, TL_OK, NULL, 0, 0};
    tl_overrun_each(k->body, report_op, &r);
    for (int i = 0; i < r.npast && r.st == TL_OK; i++) {
        const past_t *p = &r.past[i];
        const char *verb = does(p->s, p->operand);
        tl_buf_t who;
        tl_buf_init(&who);
        holders(&r, p->b, p->from, p->to, &who);
        tl_diag_warning(d, p->loc,
                        "T.tile.%s %s %" PRId64 " elements (%s) from '%s', which has %" PRId64
                        ": as on the device (no bound per buffer) it %s UB bytes [%" PRId64
                        ", %" PRId64 ") past the buffer, which hold %s; what it computes there "
                        "depends on the buffers' placement",
                        tl_op_info(p->s->op.code)->name, verb, p->count, what(p->s, p->operand),
                        p->b->name, tl_buffer_numel(p->b), verb, p->from, p->to, tl_buf_cstr(&who));
        tl_buf_free(&who);
    }
    free(r.past);
    return r.st;
}
