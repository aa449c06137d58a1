// Leaf statements that touch memory: tile ops (operands evaluated into views
// and scalars, then the tile-op library), scalar element stores, and the debug
// prints T.printf / T.dump_tensor (into the executor's output text). With
// warn_uninit, the bytes an op reads are checked and the bytes it writes marked,
// from the op signature: vector ops work on flat spans, copies and gemm on
// rectangles (a start-point operand takes its extents from the other operand).
#include "exec/exec_int.h"

#include <inttypes.h>
#include <string.h>

// Role letter (w, r, x, s, v) of operand i from the op signature.
static char role(const tl_opinfo_t *info, int i)
{
    int k = 0;
    for (const char *p = info->signature; *p; p++) {
        if (*p == '[' || *p == ']') continue;
        if (k++ == i) return *p;
    }
    return 's';
}

// Visits the rows of a rectangle (extents ext) of a view, clipped to its shape.
static void track_rect(const tl_exec_ctx_t *c, const tl_buffer_t *b, const tl_view_t *v,
                       const int64_t *ext, bool write, const char *what)
{
    int n = v->ndim, size = tl_dtype_size(v->dtype);
    int64_t e[TL_MAX_DIMS], idx[TL_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        idx[i] = v->start[i];
        e[i] = TL_MIN(ext[i], v->shape[i] - v->start[i]);
        if (idx[i] < 0 || e[i] <= 0) return;
    }
    for (;;) {
        int64_t off = 0;
        for (int i = 0; i < n; i++) off = off * v->shape[i] + idx[i];
        int64_t len = (n ? e[n - 1] : 1) * size;
        if (write)
            tl_exec_mem_mark(c, b, off * size, len);
        else
            tl_exec_mem_check(c, b, off * size, len, what);
        int d = n - 2;
        for (; d >= 0; d--) {
            if (++idx[d] < v->start[d] + e[d]) break;
            idx[d] = v->start[d];
        }
        if (d < 0) return;
    }
}

typedef struct {
    const tl_exec_ctx_t *c;
    const tl_opcall_t *call;
    bool write;
    const char *name;
} track_t;

static void track_access(void *arg, int operand, bool write, int64_t off, int64_t len)
{
    const track_t *tr = arg;
    const tl_operand_t *a = &tr->call->args[operand];
    if (write != tr->write || !a->is_view || a->view.scope == TL_SCOPE_GM) return;
    const tl_buffer_t *b = tr->call->op->args[operand].region.buf;
    if (write)
        tl_exec_mem_mark(tr->c, b, off, len);
    else
        tl_exec_mem_check(tr->c, b, off, len, tr->name);
}

static void track(const tl_exec_ctx_t *c, const tl_opcall_t *call, bool write)
{
    const tl_op_t *op = call->op;
    const tl_opinfo_t *info = tl_op_info(op->code);
    if (op->code == TL_OP_COPY_PA || op->code == TL_OP_IM2COL) { // the rows their scalars give
        track_t tr = {c, call, write, info->name};
        tl_tileop_accesses(call, track_access, &tr);
        return;
    }
    bool rect = info->cls == TL_OPC_COPY || info->cls == TL_OPC_GEMM || tl_tileop_is_rows(op->code);
    int64_t limit = -1; // optional trailing element count of vector ops
    if (!rect && op->nargs == info->max_args && strstr(info->signature, "[s]") &&
        !call->args[op->nargs - 1].is_view && !call->args[op->nargs - 1].scalar.is_float)
        limit = call->args[op->nargs - 1].scalar.i;
    for (int i = 0; i < call->nargs; i++) {
        const tl_operand_t *a = &call->args[i];
        if (!a->is_view || a->view.scope == TL_SCOPE_GM) continue;
        if (tl_tileop_is_sort(op->code)) { // ranges their sizes decide
            int64_t first[2], count[2];
            int size = tl_dtype_size(a->view.dtype),
                n = tl_tileop_sort_ranges(call, i, write, first, count);
            for (int k = 0; k < n; k++) {
                int64_t off = (tl_view_offset(&a->view) + first[k]) * size;
                if (write)
                    tl_exec_mem_mark(c, op->args[i].region.buf, off, count[k] * size);
                else
                    tl_exec_mem_check(c, op->args[i].region.buf, off, count[k] * size, info->name);
            }
            continue;
        }
        char r = role(info, i);
        bool reads = r == 'r' || r == 'v' || r == 'x', writes = r == 'w' || r == 'x';
        if (info->cls == TL_OPC_GEMM && i == 2 && call->init.i) reads = false;
        if (info->cls == TL_OPC_REDUCE && i == 1 && op->clear) reads = false;
        if (op->code == TL_OP_GATHER && i == 1) reads = false; // indexed, not a span
        if (write ? !writes : !reads) continue;
        const tl_buffer_t *b = op->args[i].region.buf;
        const tl_view_t *v = &a->view;
        if (!rect) {
            int size = tl_dtype_size(v->dtype);
            int64_t n = tl_view_count(v);
            if (limit >= 0) n = TL_MIN(n, limit);
            if (write)
                tl_exec_mem_mark(c, b, tl_view_offset(v) * size, n * size);
            else
                tl_exec_mem_check(c, b, tl_view_offset(v) * size, n * size, info->name);
            continue;
        }
        int64_t ext[TL_MAX_DIMS];
        memcpy(ext, v->extent, sizeof ext);
        const tl_view_t *o = call->nargs >= 2 && call->args[1 - (i & 1)].is_view
                                 ? &call->args[1 - (i & 1)].view
                                 : NULL;
        if (v->form == TL_REGION_POINT && o && o->form != TL_REGION_POINT)
            tl_copy_point_extents(v->ndim, o->extent, o->ndim, ext);
        track_rect(c, b, v, ext, write, info->name);
    }
}

static tl_status_t scalar(const tl_exec_ctx_t *c, const tl_expr_t *e, tl_scalar_t *out)
{
    tl_num_t v;
    tl_status_t st = tl_exec_eval(c, e, &v);
    if (st) return st;
    out->is_float = tl_dtype_is_float(v.t);
    out->i = out->is_float ? 0 : v.i;
    out->f = out->is_float ? v.f : (double)v.i;
    return TL_OK;
}

// The valid extents and unit flag of a cube op (ir.h: k_valid, n_valid, unit_flag).
static tl_status_t valid_attrs(const tl_exec_ctx_t *c, tl_opcall_t *call)
{
    const tl_op_t *op = call->op;
    tl_status_t st;
    int64_t uf = 0;
    if (op->k_valid && (st = tl_exec_eval_int(c, op->k_valid, &call->k_valid))) return st;
    if (op->n_valid && (st = tl_exec_eval_int(c, op->n_valid, &call->n_valid))) return st;
    if (op->unit_flag && (st = tl_exec_eval_int(c, op->unit_flag, &uf))) return st;
    call->has_k_valid = op->k_valid != NULL;
    call->has_n_valid = op->n_valid != NULL;
    call->unit_flag = (int)TL_MAX(TL_MIN(uf, 255), -1);
    return TL_OK;
}

tl_status_t tl_exec_op(const tl_exec_ctx_t *c)
{
    const tl_stmt_t *s = c->st;
    const tl_op_t *op = &s->op;
    tl_opcall_t call;
    memset(&call, 0, sizeof call);
    call.op = op;
    call.loc = s->loc;
    if (op->nargs > (int)TL_ARRAY_LEN(call.args))
        return tl_exec_fail(c, s->loc, "%s has too many operands", tl_op_info(op->code)->name);
    call.nargs = op->nargs;
    tl_status_t st;
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        call.args[i].is_view = a->kind == TL_ARG_REGION;
        if (a->kind == TL_ARG_REGION)
            st = tl_exec_mem_view(c, &a->region, s->loc, &call.args[i].view);
        else
            st = scalar(c, a->scalar, &call.args[i].scalar);
        if (st) return st;
    }
    if (op->init && (st = scalar(c, op->init, &call.init))) return st;
    if (op->pad_value) {
        call.has_pad = true;
        if ((st = scalar(c, op->pad_value, &call.pad))) return st;
    }
    if ((st = valid_attrs(c, &call))) return st;
    if (c->x->opts.warn_uninit) track(c, &call, false);
    if ((st = tl_tileop_run(&c->ag->ctx, &call))) {
        if (!c->x->d->nerrors)
            return tl_exec_fail(c, s->loc, "%s failed: %s", tl_op_info(op->code)->name,
                                tl_status_str(st));
        tl_diag_note(c->x->d, (tl_loc_t){0}, "while the %s of block %" PRId64 " ran it",
                     tl_side_agent_name(c->ag->id), c->ag->blk->index);
        return st;
    }
    if (c->x->opts.warn_uninit) track(c, &call, true);
    tl_exec_event_t ev = {.kind = TL_EXEC_EV_OP, .call = &call, .addr = -1};
    return tl_exec_hook(c, &ev);
}

tl_status_t tl_exec_store(const tl_exec_ctx_t *c)
{
    const tl_stmt_t *s = c->st;
    const tl_buffer_t *b = s->store.buf;
    int64_t idx[TL_MAX_DIMS];
    if (s->store.n > TL_MAX_DIMS) return tl_exec_fail(c, s->loc, "too many indices");
    tl_status_t st;
    for (int i = 0; i < s->store.n; i++)
        if ((st = tl_exec_eval_int(c, s->store.idx[i], &idx[i]))) return st;
    tl_num_t v;
    if ((st = tl_exec_eval(c, s->store.value, &v))) return st;
    uint8_t *p;
    int64_t elem, addr;
    if ((st = tl_exec_mem_elem(c, b, s->store.n, idx, s->loc, &p, &elem, &addr))) return st;
    tl_num_store(b->dtype, p, v);
    int size = tl_dtype_size(b->dtype);
    tl_exec_mem_mark(c, b, elem * size, size);
    tl_exec_event_t ev = {
        .kind = TL_EXEC_EV_STORE, .buf = b, .elem = elem, .addr = addr, .data = p};
    return tl_exec_hook(c, &ev);
}

// printf-style formatting of evaluated arguments (ints as int64, floats as double).
static tl_status_t format(const tl_exec_ctx_t *c, tl_buf_t *out, const char *fmt, int n,
                          const tl_num_t *args)
{
    int ai = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            tl_buf_putc(out, *p);
            continue;
        }
        if (p[1] == '%') {
            tl_buf_putc(out, '%');
            p++;
            continue;
        }
        char spec[32] = "%";
        size_t len = 1;
        const char *q = p + 1;
        while (*q && strchr("-+ #0123456789.", *q) && len < 20) spec[len++] = *q++;
        while (*q && strchr("hlLqjzt", *q)) q++; // length modifiers: we pick our own
        char conv = *q;
        if (!conv || !strchr("diuxXocfFeEgGaA", conv))
            return tl_exec_fail(c, c->st->loc, "T.printf: unsupported conversion '%%%c'",
                                conv ? conv : ' ');
        if (ai >= n)
            return tl_exec_fail(c, c->st->loc,
                                "T.printf: the format needs more than %d "
                                "argument(s)",
                                n);
        tl_num_t v = args[ai++];
        bool fl = tl_dtype_is_float(v.t);
        if (strchr("di", conv)) {
            memcpy(spec + len, "lld", 4);
            tl_buf_printf(out, spec, fl ? (long long)v.f : (long long)v.i);
        } else if (strchr("uxXo", conv)) {
            spec[len++] = 'l';
            spec[len++] = 'l';
            spec[len++] = conv;
            tl_buf_printf(out, spec, fl ? (unsigned long long)v.f : (unsigned long long)v.i);
        } else if (conv == 'c') {
            spec[len++] = 'c';
            tl_buf_printf(out, spec, (int)(fl ? v.f : (double)v.i));
        } else {
            spec[len++] = conv;
            tl_buf_printf(out, spec, fl ? v.f : (double)v.i);
        }
        p = q;
    }
    return TL_OK;
}

static tl_status_t dump(const tl_exec_ctx_t *c, const tl_region_t *r)
{
    const tl_stmt_t *s = c->st;
    tl_view_t v;
    tl_status_t st = tl_exec_mem_view(c, r, s->loc, &v);
    if (st) return st;
    int64_t idx[TL_MAX_DIMS], count = 1;
    for (int i = 0; i < v.ndim; i++) {
        if (v.start[i] < 0 || v.extent[i] < 0 || v.start[i] + v.extent[i] > v.shape[i])
            return tl_exec_fail(c, s->loc, "T.dump_tensor: region of '%s' is out of bounds",
                                v.name);
        idx[i] = v.start[i];
        count *= v.extent[i];
    }
    tl_buf_t *out = &c->x->out;
    tl_buf_printf(out, "%s %s (block %" PRId64 " %s):", s->print.fmt ? s->print.fmt : "", v.name,
                  c->ag->blk->index, tl_side_agent_name(c->ag->id));
    int size = tl_dtype_size(v.dtype);
    for (int64_t k = 0; k < count; k++) {
        int64_t off = 0;
        for (int i = 0; i < v.ndim; i++) off = off * v.shape[i] + idx[i];
        tl_buf_putc(out, ' ');
        tl_num_print(out, tl_num_load(v.dtype, v.data + off * size));
        for (int d = v.ndim - 1; d >= 0; d--) {
            if (++idx[d] < v.start[d] + v.extent[d]) break;
            idx[d] = v.start[d];
        }
    }
    tl_buf_putc(out, '\n');
    return TL_OK;
}

tl_status_t tl_exec_print(const tl_exec_ctx_t *c)
{
    const tl_stmt_t *s = c->st;
    if (s->print.region) return dump(c, s->print.region);
    tl_num_t args[16];
    if (s->print.n > (int)TL_ARRAY_LEN(args))
        return tl_exec_fail(c, s->loc, "T.printf takes at most %d arguments",
                            (int)TL_ARRAY_LEN(args));
    tl_status_t st;
    for (int i = 0; i < s->print.n; i++)
        if ((st = tl_exec_eval(c, s->print.args[i], &args[i]))) return st;
    return format(c, &c->x->out, s->print.fmt ? s->print.fmt : "", s->print.n, args);
}
