// The bytes a tile op reads and writes (tileop.h: tl_tileop_accesses), for
// race detectors and cost models. The shapes follow the op implementations:
// copies the plan tl_tileop_copy_plan computes (the box's rows on each side,
// the fill, the rows' completed blocks), gemm and reduction inputs their
// region rectangles, vector operands flat spans from the region origin
// (tileop.c), with the same per-op exceptions the ops make.
#include "exec/tileop_impl.h"

// Role letter (w, r, x, s, v) of operand i from the op signature.
static char role(const char *sig, int i)
{
    int k = 0;
    for (const char *p = sig; *p; p++) {
        if (*p == '[' || *p == ']') continue;
        if (k++ == i) return *p;
    }
    return 's';
}

// The rectangle of v at its start with extents ext, as runs of whole rows
// (rows that are complete in the trailing dimensions merge into one run).
static void rect(const tl_view_t *v, const int64_t *ext_in, int operand, bool write,
                 tl_tileop_access_fn fn, void *arg)
{
    int n = v->ndim, size = tl_dtype_size(v->dtype);
    int64_t ext[TL_MAX_DIMS], idx[TL_MAX_DIMS];
    if (n <= 0) return;
    for (int d = 0; d < n; d++) {
        ext[d] = TL_MIN(ext_in[d], v->shape[d] - v->start[d]);
        if (ext[d] <= 0 || v->start[d] < 0) return;
        idx[d] = v->start[d];
    }
    int inner = n - 1;
    int64_t run = ext[inner];
    while (inner > 0 && ext[inner] == v->shape[inner]) run *= ext[--inner];
    for (;;) {
        int64_t off = 0;
        for (int d = 0; d < n; d++) off = off * v->shape[d] + idx[d];
        fn(arg, operand, write, off * size, run * size);
        int d = inner - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < v->start[d] + ext[d]) break;
            idx[d] = v->start[d];
        }
        if (d < 0) return;
    }
}

static void span(const tl_view_t *v, int64_t count, int operand, bool write, tl_tileop_access_fn fn,
                 void *arg)
{
    int size = tl_dtype_size(v->dtype);
    if (count > 0) fn(arg, operand, write, tl_view_offset(v) * size, count * size);
}

// The rows x cols box of side i (0 source, 1 destination) of a copy plan.
static void box_rows(const tl_copy_exec_t *cx, int i, const tl_view_t *v, int operand, bool write,
                     tl_tileop_access_fn fn, void *arg)
{
    const tl_copy_plan_t *p = &cx->plan;
    int64_t size = tl_dtype_size(v->dtype);
    for (int64_t r = 0; r < cx->rows && cx->cols > 0; r++) {
        int64_t row = p->o[i] + r * p->rs[i];
        if (p->cs[i] == 1)
            fn(arg, operand, write, row * size, cx->cols * size);
        else
            for (int64_t c = 0; c < cx->cols; c++)
                fn(arg, operand, write, (row + c * p->cs[i]) * size, size);
    }
}

static void copy(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg)
{
    if (call->op->code == TL_OP_COPY_PA) {
        tl_tileop_copy_pa_accesses(call, fn, arg);
        return;
    }
    if (call->op->code == TL_OP_IM2COL) {
        tl_tileop_im2col_accesses(call, fn, arg);
        return;
    }
    bool atomic = call->op->code == TL_OP_ATOMIC_ADD;
    int si = atomic ? 1 : 0, di = atomic ? 0 : 1;
    tl_copy_exec_t cx;
    tl_tileop_ctx_t quiet = {0};
    if (!tl_tileop_copy_plan(&quiet, call, si, di, &cx)) return;
    const tl_view_t *sv = &call->args[si].view, *dv = &call->args[di].view;
    int64_t size = tl_dtype_size(dv->dtype);
    box_rows(&cx, 0, sv, si, false, fn, arg);
    if (atomic) box_rows(&cx, 1, dv, di, false, fn, arg);
    if (cx.fill) fn(arg, di, true, cx.plan.o[1] * size, cx.plan.fill * size);
    box_rows(&cx, 1, dv, di, true, fn, arg);
    if (cx.tail == TL_COPY_TAIL_NONE) return;
    int64_t numel = 1;
    for (int d = 0; d < dv->ndim; d++) numel *= dv->shape[d];
    for (int64_t r = 0; r < cx.tail_rows; r++) { // the completed blocks
        int64_t row = cx.plan.o[1] + r * cx.plan.rs[1], end = TL_MIN(row + cx.tail_end, numel);
        if (cx.tail == TL_COPY_TAIL_FIRST) fn(arg, di, false, row * size, size);
        if (end > row + cx.tail_len)
            fn(arg, di, true, (row + cx.tail_len) * size, (end - row - cx.tail_len) * size);
    }
}

// The optional trailing element count of a vector op (-1: none).
static int64_t count_limit(const tl_opcall_t *call, const tl_opinfo_t *info)
{
    const tl_op_t *op = call->op;
    if (op->code == TL_OP_GATHER || !strstr(info->signature, "[s]") ||
        call->nargs != info->max_args)
        return -1;
    const tl_operand_t *a = &call->args[call->nargs - 1];
    return a->is_view ? -1 : tl_tileop_scalar_int(&a->scalar);
}

// The *_experiment ops (tileop_rows.c): src0 and dst their region
// rectangles (a column slice is strided), src1 its Brcb blocks, one per row,
// or with a tmp one element per row, and tmp written (brcb) and read.
static void rows_op(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg)
{
    const tl_view_t *d = &call->args[0].view;
    int64_t width = TL_MAX(1, d->extent[d->ndim - 1]);
    int64_t rows = tl_view_count(d) / width, epb = 32 / tl_dtype_size(d->dtype);
    bool tmp = call->nargs > 3 && call->args[3].is_view;
    rect(&call->args[1].view, call->args[1].view.extent, 1, false, fn, arg);
    if (call->nargs > 2 && call->args[2].is_view)
        span(&call->args[2].view, tmp ? rows : rows * epb, 2, false, fn, arg);
    if (tmp) {
        span(&call->args[3].view, rows * epb, 3, true, fn, arg);
        span(&call->args[3].view, rows * epb, 3, false, fn, arg);
    }
    rect(d, d->extent, 0, true, fn, arg);
}

static void vector(const tl_opcall_t *call, const tl_opinfo_t *info, tl_tileop_access_fn fn,
                   void *arg)
{
    const tl_op_t *op = call->op;
    if (tl_tileop_is_rows(op->code)) {
        rows_op(call, fn, arg);
        return;
    }
    int64_t limit = count_limit(call, info);
    if (tl_tileop_is_sort(op->code)) {
        for (int i = 0; i < call->nargs; i++) {
            if (!call->args[i].is_view) continue;
            const tl_view_t *v = &call->args[i].view;
            int size = tl_dtype_size(v->dtype);
            for (int w = 0; w < 2; w++) {
                int64_t first[2], count[2];
                int n = tl_tileop_sort_ranges(call, i, w, first, count);
                for (int r = 0; r < n; r++)
                    fn(arg, i, w, (tl_view_offset(v) + first[r]) * size, count[r] * size);
            }
        }
        return;
    }
    for (int i = 0; i < call->nargs; i++) {
        const tl_operand_t *a = &call->args[i];
        if (!a->is_view) continue;
        const tl_view_t *v = &a->view;
        char r = role(info->signature, i);
        int64_t n = tl_view_count(v);
        // an element-wise op's count is its span from the region's origin, also
        // past the buffer (tileop.c: tl_tileop_span)
        if (limit >= 0) n = tl_op_count(op) ? limit : TL_MIN(n, limit);
        // a packed int4 cast operand: count is in elements, its bytes hold two each
        if (v->int4 && limit >= 0 && tl_op_count(op)) n = (n + 1) / 2;
        if (op->code == TL_OP_COMPARE && i == 0 && call->nargs > 1 && call->args[1].is_view) {
            int64_t bits = tl_view_count(&call->args[1].view);
            if (limit >= 0) bits = TL_MIN(bits, limit);
            fn(arg, i, true, tl_view_offset(v) * tl_dtype_size(v->dtype), (bits + 7) / 8);
            continue;
        }
        if (op->code == TL_OP_GATHER && i == 1) { // indexed: anywhere after the origin
            int64_t total = 1;
            for (int d = 0; d < v->ndim; d++) total *= v->shape[d];
            n = total - tl_view_offset(v);
        }
        if (op->code == TL_OP_GATHER && i == 0 && call->nargs > 2 && call->args[2].is_view)
            n = TL_MIN(n, tl_view_count(&call->args[2].view));
        if (r == 'r' || r == 'v' || r == 'x') span(v, n, i, false, fn, arg);
        if (r == 'w' || r == 'x') span(v, n, i, true, fn, arg);
    }
}

// The extents of gemm operand i (A, B, C) narrowed to k_actual / n_actual.
static void gemm_extents(const tl_opcall_t *call, int i, int64_t *ext)
{
    const tl_view_t *v = &call->args[i].view;
    int nd = v->ndim;
    memcpy(ext, v->extent, sizeof(int64_t) * TL_MAX_DIMS);
    if (nd < 1) return;
    bool mma = call->op->code == TL_OP_MMA;
    bool ta = !mma && call->op->transpose_a, tb = !mma && call->op->transpose_b;
    int last = nd - 1, rows = nd >= 2 ? nd - 2 : -1;
    int kd = i == 0 ? (ta ? rows : last) : i == 1 ? (tb ? last : rows) : -1;
    int nd_ = i == 1 ? (tb ? rows : last) : i == 2 ? last : -1;
    // an int4 operand's last dimension counts bytes, two elements each
    int64_t kv = call->k_valid, nv = call->n_valid;
    if (v->int4 && kd == last) kv = (kv + 1) / 2;
    if (v->int4 && nd_ == last) nv = (nv + 1) / 2;
    if (call->has_k_valid && kd >= 0) ext[kd] = TL_MIN(ext[kd], kv);
    if (call->has_n_valid && nd_ >= 0) ext[nd_] = TL_MIN(ext[nd_], nv);
}

void tl_tileop_accesses(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg)
{
    const tl_op_t *op = call->op;
    const tl_opinfo_t *info = tl_op_info(op->code);
    switch (info->cls) {
    case TL_OPC_COPY: copy(call, fn, arg); return;
    case TL_OPC_GEMM:
        for (int i = 0; i < 3 && i < call->nargs; i++) {
            const tl_view_t *v = &call->args[i].view;
            int64_t ext[TL_MAX_DIMS];
            gemm_extents(call, i, ext);
            if (i < 2 || tl_tileop_scalar_value(&call->init) == 0) rect(v, ext, i, false, fn, arg);
            if (i == 2) rect(v, ext, i, true, fn, arg);
        }
        return;
    case TL_OPC_REDUCE: {
        const tl_view_t *in = &call->args[0].view, *out = &call->args[1].view;
        rect(in, in->extent, 0, false, fn, arg);
        if (!op->clear) span(out, tl_view_count(out), 1, false, fn, arg);
        span(out, tl_view_count(out), 1, true, fn, arg);
        return;
    }
    case TL_OPC_VEC: vector(call, info, fn, arg); return;
    case TL_OPC_STATE: return;
    }
}
