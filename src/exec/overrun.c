// Element-wise vector ops whose count runs past an operand's buffer
// (layout.h: tl_overrun_possible, tl_overrun_report).
//
// Upstream's `count` (T.tile.cast(dst, src, mode, count), clamp, ...) is the
// number of elements the AscendC instruction processes from each operand's
// address; the device checks no buffer bound, so a count past the buffer
// reads and writes the UB bytes after it (other buffers, or unused UB), and
// only an access past the physical UB raises the vector core exception.
// Upstream's own tests do it (testing/.../elementwise.py cast, cast_slice,
// cast_scale, clamp_slice: count 4096 on 256-element buffers). tilec runs such
// an op the same way against its layout (the UB arena is then the chip's
// whole UB, tl_view_t.reach) and says here, once the buffers are placed,
// which bytes and buffers it touches: what it computes there depends on the
// layout, as on the device.
#include "exec/layout.h"

#include <inttypes.h>
#include <stdlib.h>

// Elements of r, or -1 when an extent is not constant.
static int64_t region_numel(const tl_region_t *r)
{
    int64_t n = 1, e;
    for (int i = 0; i < r->ndim; i++)
        if (!tl_ir_is_const_int(r->extent[i], &e) || __builtin_mul_overflow(n, e, &n)) return -1;
    return n;
}

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

typedef bool (*op_fn)(void *arg, const tl_stmt_t *s, const tl_expr_t *count);

// Calls fn on every op with a count under s; false when fn stopped the walk.
static bool each_counted(const tl_stmt_t *s, op_fn fn, void *arg)
{
    if (!s) return true;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (!each_counted(s->seq.items[i], fn, arg)) return false;
        return true;
    case TL_ST_FOR: return each_counted(s->for_.body, fn, arg);
    case TL_ST_WHILE: return each_counted(s->while_.body, fn, arg);
    case TL_ST_IF:
        return each_counted(s->if_.then_, fn, arg) && each_counted(s->if_.else_, fn, arg);
    case TL_ST_SCOPE: return each_counted(s->scope.body, fn, arg);
    case TL_ST_OP: {
        const tl_expr_t *c = tl_op_count(&s->op);
        return !c || fn(arg, s, c);
    }
    default: return true;
    }
}

static bool find_possible(void *arg, const tl_stmt_t *s, const tl_expr_t *count)
{
    int64_t c;
    bool known = tl_ir_is_const_int(count, &c);
    for (int i = 0; i < s->op.nargs; i++) {
        const tl_arg_t *a = &s->op.args[i];
        if (a->kind != TL_ARG_REGION || a->region.buf->scope != TL_SCOPE_UB) continue;
        int64_t n = region_numel(&a->region);
        if (!known || n < 0 || c > n) {
            *(bool *)arg = true;
            return false;
        }
    }
    return true;
}

bool tl_overrun_possible(const tl_kernel_t *k)
{
    bool found = false;
    each_counted(k->body, find_possible, &found);
    return found;
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

static bool report_op(void *arg, const tl_stmt_t *s, const tl_expr_t *count)
{
    report_t *r = arg;
    int64_t c;
    if (!tl_ir_is_const_int(count, &c)) return true;
    int64_t arena = r->l->arena[TL_SCOPE_UB];
    for (int i = 0; i < s->op.nargs; i++) {
        const tl_arg_t *a = &s->op.args[i];
        const tl_buffer_t *b = a->region.buf;
        if (a->kind != TL_ARG_REGION || b->scope != TL_SCOPE_UB) continue;
        int64_t n = region_numel(&a->region), size = tl_dtype_size(b->dtype), lo, hi;
        int64_t numel = tl_buffer_numel(b), at = r->l->addr[b->id];
        if (n < 0 || c <= n) continue;
        origin_range(&a->region, n, &lo, &hi);
        if (hi + c <= numel) continue; // past the region, inside the buffer
        tl_loc_t loc = a->region.loc.line > 0 ? a->region.loc : s->loc;
        if (at + (lo + c) * size > arena) {
            r->st = tl_diag_report(
                r->d, TL_SEV_ERROR, loc, TL_ERR_COMPILE,
                "T.tile.%s %s %" PRId64 " elements (its count) from '%s' at UB byte %" PRId64
                ": past the end of the %" PRId64 " B UB (on the device: a vector core exception)",
                tl_op_info(s->op.code)->name, does(s, i), c, b->name, at + lo * size, arena);
            continue;
        }
        remember(r, (past_t){loc, s, b, i, c, at + tl_buffer_bytes(b),
                             TL_MIN(at + (hi + c) * size, arena)});
    }
    return true;
}

tl_status_t tl_overrun_report(const tl_kernel_t *k, const tl_layout_t *l, tl_diag_t *d)
{
    if (!l->overruns) return TL_OK;
    report_t r = {k, l, d, TL_OK, NULL, 0, 0};
    each_counted(k->body, report_op, &r);
    for (int i = 0; i < r.npast && r.st == TL_OK; i++) {
        const past_t *p = &r.past[i];
        const char *verb = does(p->s, p->operand);
        tl_buf_t who;
        tl_buf_init(&who);
        holders(&r, p->b, p->from, p->to, &who);
        tl_diag_warning(d, p->loc,
                        "T.tile.%s %s %" PRId64
                        " elements (its count) from '%s', which has %" PRId64
                        ": as on the device (no bound per buffer) it %s UB bytes [%" PRId64
                        ", %" PRId64 ") past the buffer, which hold %s; what it computes there "
                        "depends on the buffers' placement",
                        tl_op_info(p->s->op.code)->name, verb, p->count, p->b->name,
                        tl_buffer_numel(p->b), verb, p->from, p->to, tl_buf_cstr(&who));
        tl_buf_free(&who);
    }
    free(r.past);
    return r.st;
}
