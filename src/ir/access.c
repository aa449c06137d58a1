// Buffer accesses of statements (see access.h for the rules).
#include "ir/access.h"

static void load(const tl_expr_t *e, tl_access_fn fn, void *arg)
{
    tl_access_t a = {e->load.buf, TL_ACCESS_READ, false, false, NULL, e->load.n, e->load.idx, true};
    fn(arg, &a);
}

void tl_access_expr(const tl_expr_t *e, tl_access_fn fn, void *arg)
{
    if (!e) return;
    switch (e->kind) {
    case TL_EX_LOAD:
        for (int i = 0; i < e->load.n; i++) tl_access_expr(e->load.idx[i], fn, arg);
        load(e, fn, arg);
        break;
    case TL_EX_BIN:
        tl_access_expr(e->op.a, fn, arg);
        tl_access_expr(e->op.b, fn, arg);
        break;
    case TL_EX_UN: tl_access_expr(e->op.a, fn, arg); break;
    case TL_EX_CAST:
    case TL_EX_REINTERPRET: tl_access_expr(e->arg, fn, arg); break;
    case TL_EX_SELECT:
        tl_access_expr(e->sel.cond, fn, arg);
        tl_access_expr(e->sel.a, fn, arg);
        tl_access_expr(e->sel.b, fn, arg);
        break;
    default: break;
    }
}

bool tl_access_region_whole(const tl_region_t *r)
{
    const tl_buffer_t *b = r->buf;
    if (b->scope == TL_SCOPE_GM || r->ndim != b->ndim) return false;
    for (int d = 0; d < r->ndim; d++) {
        int64_t s, e;
        if (!tl_ir_is_const_int(r->start[d], &s) || !tl_ir_is_const_int(r->extent[d], &e)) {
            return false;
        }
        if (s != 0 || e != b->shape[d]) return false;
    }
    // A start point takes its extents from the other operand at run time.
    return r->form != TL_REGION_POINT || tl_buffer_numel(b) == 1;
}

// Whether the op writes every element of its destination region (operand 0,
// or 1 for copies).
static bool writes_region(const tl_op_t *op, const tl_region_t *dst)
{
    if (dst->form == TL_REGION_POINT) return false;
    int64_t count = tl_region_numel(dst);
    if (count < 0) return false;
    switch (op->code) {
    case TL_OP_COMPARE: {
        // one bit a source element, packed from the start of the mask region
        // (tileop_misc.c): it covers a contiguous region of at most that many bytes
        const tl_arg_t *src = &op->args[1];
        int64_t n = src->kind == TL_ARG_REGION ? tl_region_numel(&src->region) : -1;
        bool contiguous = dst->ndim == 1 || tl_access_region_whole(dst);
        return n >= 0 && contiguous && count * tl_dtype_size(dst->buf->dtype) <= (n + 7) / 8;
    }
    case TL_OP_GATHER:
    case TL_OP_REINTERPRETCAST:
    case TL_OP_COPY_PA: // the rows and columns its scalars give
    case TL_OP_IM2COL:
    // the repeat-form reductions write the slots their strides pick
    case TL_OP_BLOCK_REDUCE_SUM:
    case TL_OP_BLOCK_REDUCE_MAX:
    case TL_OP_BLOCK_REDUCE_MIN:
    case TL_OP_WHOLE_REDUCE_SUM:
    case TL_OP_WHOLE_REDUCE_MAX:
    case TL_OP_WHOLE_REDUCE_MIN:
    case TL_OP_REDUCE_SUM_X:
    case TL_OP_REDUCE_SUM_MASK_X:
    case TL_OP_BILINEAR: return false;
    case TL_OP_COPY: {
        // GM sources fill the rest of the region (the pad value: upstream's
        // copy_gm_to_ub Duplicates it first) -- for 16- and 32-bit types only
        // (its IsDuplicateSupported_v; ir/copy_plan.c): for the others a box
        // smaller than the region leaves the rest as it was. (A box clipped at
        // the tensor's end at run time is taken as whole: what it leaves is
        // stale data no kernel can rely on.) On-chip sources must match.
        const tl_region_t *src = &op->args[0].region;
        if (src->buf->scope == TL_SCOPE_GM) {
            int64_t box = src->form == TL_REGION_POINT ? count : tl_region_numel(src);
            int sz = tl_dtype_size(dst->buf->dtype);
            return sz == 2 || sz == 4 || (box >= 0 && box >= count);
        }
        return src->form != TL_REGION_POINT && tl_region_numel(src) == count;
    }
    default: break;
    }
    if (tl_op_info(op->code)->cls == TL_OPC_REDUCE) {
        if (!op->clear) return false;
        if (!op->real_shape[0] && !op->real_shape[1]) return true;
        // real_shape restricts a 2-D input to its valid rows and columns: one
        // result per valid row (dim -1) or column (dim 0), from the start of
        // the output (tileop_reduce.c); the output is full when they fill it
        const tl_region_t *in = &op->args[0].region;
        int64_t rows, cols;
        if (in->ndim != 2 || !tl_ir_is_const_int(in->extent[0], &rows) ||
            !tl_ir_is_const_int(in->extent[1], &cols))
            return false;
        if (op->real_shape[0]) rows = op->real_shape[0];
        if (op->real_shape[1]) cols = op->real_shape[1];
        return (op->dim == 0 ? cols : rows) == count;
    }
    // An optional trailing scalar is an element count (gather's is a base address).
    const char *sig = tl_op_info(op->code)->signature;
    int required = 0;
    for (const char *p = sig; *p && *p != '['; p++) required++;
    if (op->nargs > required && op->args[op->nargs - 1].kind == TL_ARG_SCALAR) {
        int64_t n;
        if (!tl_ir_is_const_int(op->args[op->nargs - 1].scalar, &n)) return false;
        return n >= count;
    }
    return true;
}

// Whether op reads no element of operand region r outside it.
static bool reads_within_region(const tl_op_t *op, const tl_region_t *r)
{
    if (r->form == TL_REGION_POINT) return false;
    int64_t count = tl_region_numel(r);
    if (count < 0) return false;
    switch (op->code) {
    case TL_OP_GATHER:
    case TL_OP_COPY_PA: // the KV rows its block table names
    case TL_OP_IM2COL: return false; // the feature map from the region's origin
    case TL_OP_COPY: return true;
    default: break;
    }
    const tl_opinfo_t *info = tl_op_info(op->code);
    if (info->cls == TL_OPC_REDUCE) return true;
    if (info->cls == TL_OPC_GEMM) return false;
    // as in writes_region: an optional trailing scalar is an element count
    int required = 0;
    for (const char *p = info->signature; *p && *p != '['; p++) required++;
    if (op->nargs > required && op->args[op->nargs - 1].kind == TL_ARG_SCALAR) {
        int64_t n;
        return tl_ir_is_const_int(op->args[op->nargs - 1].scalar, &n) && n <= count;
    }
    // without a count an operand may be read as far as the others reach
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].kind == TL_ARG_REGION && tl_region_numel(&op->args[i].region) != count)
            return false;
    return true;
}

static void op_accesses(const tl_op_t *op, tl_access_fn fn, void *arg)
{
    const tl_opinfo_t *info = tl_op_info(op->code);
    const char *p = info->signature;
    tl_access_expr(op->init, fn, arg);
    tl_access_expr(op->pad_value, fn, arg);
    tl_access_expr(op->k_valid, fn, arg);
    tl_access_expr(op->n_valid, fn, arg);
    tl_access_expr(op->unit_flag, fn, arg);
    for (int i = 0; i < op->nargs; i++) {
        while (*p == '[' || *p == ']') p++;
        char letter = *p ? *p++ : 'r';
        const tl_arg_t *a = &op->args[i];
        if (a->kind == TL_ARG_SCALAR) {
            tl_access_expr(a->scalar, fn, arg);
            continue;
        }
        const tl_region_t *r = &a->region;
        for (int d = 0; d < r->ndim; d++) {
            tl_access_expr(r->start[d], fn, arg);
            tl_access_expr(r->extent[d], fn, arg);
        }
        unsigned mode = letter == 'w'   ? TL_ACCESS_WRITE
                        : letter == 'x' ? TL_ACCESS_READ | TL_ACCESS_WRITE
                                        : TL_ACCESS_READ;
        int64_t init;
        if (letter == 'x' && info->cls == TL_OPC_GEMM && tl_ir_is_const_int(op->init, &init) &&
            init)
            mode = TL_ACCESS_WRITE;
        if (letter == 'x' && info->cls == TL_OPC_REDUCE && op->clear) mode = TL_ACCESS_WRITE;
        tl_access_t acc = {r->buf, mode, false, false, r, 0, NULL, false};
        acc.covers = mode == TL_ACCESS_WRITE && writes_region(op, r);
        acc.bounded = mode == TL_ACCESS_READ && reads_within_region(op, r);
        acc.full = acc.covers && tl_access_region_whole(r);
        fn(arg, &acc);
    }
}

void tl_access_stmt(const tl_stmt_t *s, tl_access_fn fn, void *arg)
{
    switch (s->kind) {
    case TL_ST_FOR:
        tl_access_expr(s->for_.start, fn, arg);
        tl_access_expr(s->for_.end, fn, arg);
        break;
    case TL_ST_WHILE: tl_access_expr(s->while_.cond, fn, arg); break;
    case TL_ST_IF: tl_access_expr(s->if_.cond, fn, arg); break;
    case TL_ST_LET: tl_access_expr(s->let.value, fn, arg); break;
    case TL_ST_STORE: {
        for (int i = 0; i < s->store.n; i++) tl_access_expr(s->store.idx[i], fn, arg);
        tl_access_expr(s->store.value, fn, arg);
        const tl_buffer_t *b = s->store.buf;
        tl_access_t a = {s->store.buf,
                         TL_ACCESS_WRITE,
                         tl_buffer_numel(b) == 1 && b->scope != TL_SCOPE_GM,
                         true,
                         NULL,
                         s->store.n,
                         s->store.idx,
                         false};
        fn(arg, &a);
        break;
    }
    case TL_ST_OP: op_accesses(&s->op, fn, arg); break;
    case TL_ST_SYNC: tl_access_expr(s->sync.id, fn, arg); break;
    case TL_ST_PRINT:
        for (int i = 0; i < s->print.n; i++) tl_access_expr(s->print.args[i], fn, arg);
        if (s->print.region) {
            tl_access_t a = {s->print.region->buf,
                             TL_ACCESS_READ,
                             false,
                             false,
                             s->print.region,
                             0,
                             NULL,
                             false};
            fn(arg, &a);
        }
        break;
    default: break;
    }
}

void tl_access_tree(const tl_stmt_t *s, const tl_stmt_t *skip, tl_access_fn fn, void *arg)
{
    if (!s || s == skip) return;
    tl_access_stmt(s, fn, arg);
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++) tl_access_tree(s->seq.items[i], skip, fn, arg);
        break;
    case TL_ST_FOR: tl_access_tree(s->for_.body, skip, fn, arg); break;
    case TL_ST_WHILE: tl_access_tree(s->while_.body, skip, fn, arg); break;
    case TL_ST_IF:
        tl_access_tree(s->if_.then_, skip, fn, arg);
        tl_access_tree(s->if_.else_, skip, fn, arg);
        break;
    case TL_ST_SCOPE: tl_access_tree(s->scope.body, skip, fn, arg); break;
    default: break;
    }
}
