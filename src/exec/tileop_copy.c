// T.copy (dispatch on the source and destination scopes) and T.tile.atomic_add.
//
// Paths (surface §2.3): GM->L1 and GM->UB (MTE2), L1->L0A/L0B (MTE1, optional
// transpose), L0C->GM (FIX: accumulator conversion with RINT, optional ReLU,
// int32->float16 through the deq scale), UB->GM (MTE3), UB->UB (V: same dtype
// moves, different dtypes cast with the mode of upstream's copy_ub_to_ub,
// base/dtype.h tl_cast_copy_mode; int32->float16 uses the deq scale) and, with
// ctx->allow_virtual_copies, L0C->UB (like FIX) and UB->L1 as direct moves.
// Every other pair is an error naming both scopes. Layouts are logical
// row-major on every scope.
//
// What moves where is the device's rule, ir/copy_plan.h (tl_copy_plan): a box
// of rows x columns, each side's elements at an origin and two strides; the GM
// side clipped at the tensor (a unit dimension's start outside the tensor is
// an error, a start at or past the end of the box's rows or columns moves
// nothing); GM->UB sets the pad value first where the device's Duplicate
// does (16- and 32-bit types) and completes each row's 32-byte block as
// DataCopyPad does; GM->L1 clears the L1 tile when the device does (a copy to
// the tile's base that does not cover it). A copy the device would move
// differently from what its operands say is an error (copy_plan.c says why).
//
// real_k / real_n (L1 -> L0A/L0B, tilelang-ascend's sparse flash MLA) limit
// the load to the valid K and N of the destination, rounded up to whole
// fractals; unit_flag (out of L0C) orders the copy against the mmads on the
// hardware and changes no value.
#include "exec/tileop_impl.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The box that moves: its size and each side's element strides.
typedef struct {
    int k;
    int64_t box[2];
    int64_t ss[2], ds[2]; // element strides
    uint8_t *src, *dst;   // box origins
} xfer_t;

typedef enum { ROW_MOVE, ROW_CONVERT, ROW_ADD } row_kind_t;

typedef struct {
    row_kind_t kind;
    tl_dtype_t st, dt;
    tl_round_t mode;
    bool relu;
    bool deq;
    float scale;
    bool stream; // moves bypass the caches (stream_move)
} row_op_t;

// A view as the copy rule's operand; `base` from the IR region's starts (every
// one the constant 0), or the view's when there is no region (library tests);
// dyn_cols / dyn_rows from its last two extents (not compile-time constants).
static void side_of(const tl_view_t *v, const tl_region_t *r, tl_copy_side_t *s)
{
    bool base = true;
    for (int d = 0; d < v->ndim; d++)
        base &= r ? r->start[d] && r->start[d]->kind == TL_EX_INT && r->start[d]->i == 0
                  : v->start[d] == 0;
    int64_t e;
    int n = r ? r->ndim : 0;
    bool dc = n >= 1 && r->extent[n - 1] && !tl_ir_is_const_int(r->extent[n - 1], &e);
    bool dr = n >= 2 && r->extent[n - 2] && !tl_ir_is_const_int(r->extent[n - 2], &e);
    *s = (tl_copy_side_t){
        v->scope, v->dtype, v->ndim, v->shape, v->start, v->extent, v->form == TL_REGION_POINT,
        base, dc, dr, false};
}

bool tl_tileop_copy_plan(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int si, int di,
                         tl_copy_exec_t *x)
{
    const tl_view_t *sv = &call->args[si].view, *dv = &call->args[di].view;
    const tl_region_t *sr = NULL, *dr = NULL;
    if (call->op->nargs > TL_MAX(si, di) && call->op->args[di].kind == TL_ARG_REGION)
        sr = &call->op->args[si].region, dr = &call->op->args[di].region;
    tl_copy_side_t s, d;
    side_of(sv, sr, &s);
    side_of(dv, dr, &d);
    s.exact = d.exact = call->op->exact;
    bool transpose = call->op->code == TL_OP_COPY && call->op->transpose;
    char why[400];
    memset(x, 0, sizeof *x);
    if (!tl_copy_plan(&s, &d, transpose, &x->plan, why, sizeof why)) {
        tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s", why);
        return false;
    }
    const tl_copy_plan_t *p = &x->plan;
    x->rows = p->rows;
    x->cols = p->cols;
    for (int i = 0; i < 2 && !call->op->exact; i++) { // a GM side: starts >= 0, unit dimensions inside, the box clipped
        const tl_view_t *v = i ? dv : sv;
        if (v->scope != TL_SCOPE_GM) continue;
        for (int dd = 0; dd < v->ndim; dd++)
            if (v->start[dd] < 0 ||
                (dd != p->row_dim[i] && dd != p->col_dim[i] && v->start[dd] >= v->shape[dd])) {
                tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                               "index %lld is out of bounds for dimension %d of '%s' (size %lld)",
                               (long long)v->start[dd], dd, v->name, (long long)v->shape[dd]);
                return false;
            }
        int rd = p->row_dim[i], cd = p->col_dim[i]; // folded rows: the outermost clipped
        if (rd >= 0)
            x->rows = TL_MAX(0, TL_MIN(x->rows, (v->shape[rd] - v->start[rd]) * p->fold[i]));
        x->cols = TL_MAX(0, TL_MIN(x->cols, v->shape[cd] - v->start[cd]));
    }
    x->fill = p->fill > 0 && (x->rows != p->full_rows || x->cols != p->full_cols);
    if (x->fill && p->fill_past) {
        tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s", tl_copy_plan_fill_text(p, why, sizeof why));
        return false;
    }
    int ui = sv->scope == TL_SCOPE_UB ? 0 : 1;
    const tl_view_t *uv = ui ? dv : sv, *ov = ui ? sv : dv;
    if (uv->scope == TL_SCOPE_UB && ov->scope == TL_SCOPE_GM && x->rows > 1 && !call->op->exact &&
        tl_copy_plan_pitch(uv->dtype, p->width, x->cols) != p->rs[ui]) {
        tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                       "the tensor's edge clips the GM rows to %lld of %lld columns: the device "
                       "then moves them as rows at 32-byte boundaries, not as one burst of the "
                       "compact rows of '%s' (%lld B, not 32-byte aligned)",
                       (long long)x->cols, (long long)p->cols, uv->name,
                       (long long)(p->width * tl_dtype_size(uv->dtype)));
        return false;
    }
    x->tail_rows = p->flat ? TL_MIN(x->rows, 1) : x->rows;
    x->tail_len = p->flat ? x->rows * x->cols : x->cols;
    if (sv->scope == TL_SCOPE_GM && dv->scope == TL_SCOPE_UB && !call->op->exact)
        x->tail = tl_copy_plan_tail(p, dv->dtype, x->tail_len, &x->tail_end);
    // real_k / real_n: only the valid K rows (L0B; L0A: columns) and N columns
    // of the L0 tile move, in whole fractals (K in 32-byte units, N in 16s) as
    // LoadData moves them; the rest keeps its data
    bool l0a = dv->scope == TL_SCOPE_L0A, l0b = dv->scope == TL_SCOPE_L0B;
    if (call->op->code == TL_OP_COPY && (l0a || l0b)) {
        int64_t k0 = TL_MAX(1, 32 / tl_dtype_size(dv->dtype));
        int64_t *kx = l0b ? &x->rows : &x->cols;
        if (call->has_k_valid) *kx = TL_MIN(*kx, (call->k_valid + k0 - 1) / k0 * k0);
        if (call->has_n_valid && l0b) x->cols = TL_MIN(x->cols, (call->n_valid + 15) / 16 * 16);
    }
    return true;
}

// Copies n elements of size sz with an element stride into a contiguous buffer.
static void gather(uint8_t *out, const uint8_t *p, int64_t stride, int64_t n, int sz)
{
    for (int64_t i = 0; i < n; i++) memcpy(out + i * sz, p + i * stride * sz, (size_t)sz);
}

static void scatter(uint8_t *p, int64_t stride, const uint8_t *in, int64_t n, int sz)
{
    for (int64_t i = 0; i < n; i++) memcpy(p + i * stride * sz, in + i * sz, (size_t)sz);
}

// Conversion with ReLU and/or the deq scale, rounded once into dt.
static void convert_transformed(const row_op_t *op, uint8_t *out, const uint8_t *in, int64_t n)
{
    if (tl_dtype_is_float(op->st) && op->st != TL_F64) {
        float w[TL_TILEOP_CHUNK];
        tl_tileop_load_f32(op->st, in, n, w);
        for (int64_t i = 0; i < n; i++) w[i] = w[i] < 0 ? 0.0f : w[i]; // only relu gets here
        tl_tileop_convert(op->dt, out, TL_F32, w, n, op->mode);
        return;
    }
    double w[TL_TILEOP_CHUNK];
    tl_convert(TL_F64, w, op->st, in, (size_t)n, TL_CAST_RINT);
    for (int64_t i = 0; i < n; i++) {
        if (op->deq) w[i] *= op->scale;
        if (op->relu && w[i] < 0) w[i] = 0;
    }
    tl_convert(op->dt, out, TL_F64, w, (size_t)n, op->mode);
}

// dst += src (src already in dst's dtype); floats computed in float, rounded
// to the dtype; integers wrap.
static void add_into(tl_dtype_t t, uint8_t *dst, const uint8_t *src, int64_t n)
{
    if (t == TL_F32) {
        float *d = (float *)dst;
        const float *s = (const float *)src;
        TL_VLOOP(float, n, d, i, d[i] + s[i]);
    } else if (tl_tileop_is_vfloat(t)) {
        float a[TL_TILEOP_CHUNK], b[TL_TILEOP_CHUNK];
        tl_tileop_load_f32(t, dst, n, a);
        tl_tileop_load_f32(t, src, n, b);
        TL_VLOOP(float, n, a, i, a[i] + b[i]);
        tl_tileop_store_f32(t, dst, n, a);
    } else {
        int64_t a[TL_TILEOP_CHUNK], b[TL_TILEOP_CHUNK];
        tl_tileop_load_i64(t, dst, n, a);
        tl_tileop_load_i64(t, src, n, b);
        for (int64_t i = 0; i < n; i++) a[i] = (int64_t)((uint64_t)a[i] + (uint64_t)b[i]);
        tl_tileop_store_i64(t, dst, n, a);
    }
}

// Stores that bypass the caches for the whole 64-byte lines of a move (the
// rest through memcpy). Used for the rows of on-chip -> GM copies into large
// tensors: the lines are not read first (no read for ownership), and an
// output much larger than the caches would only evict the inputs. The
// caller issues the store fence when the copy is done.
static void stream_move(uint8_t *d, const uint8_t *s, size_t n)
{
#if defined(__SSE2__)
    size_t head = (size_t)(-(uintptr_t)d & 63u);
    if (n < head + 64) {
        memmove(d, s, n);
        return;
    }
    memcpy(d, s, head);
    size_t i = head;
    for (; i + 64 <= n; i += 64)
        for (int q = 0; q < 4; q++)
            _mm_stream_si128((__m128i *)(d + i) + q, _mm_loadu_si128((const __m128i *)(s + i) + q));
    memcpy(d + i, s + i, n - i);
#else
    memmove(d, s, n);
#endif
}

static void run_row(const row_op_t *op, uint8_t *d, int64_t dstr, const uint8_t *s, int64_t sstr,
                    int64_t n)
{
    int ssz = tl_dtype_size(op->st), dsz = tl_dtype_size(op->dt);
    bool plain = op->kind == ROW_MOVE || (op->kind == ROW_CONVERT && !op->relu && !op->deq);
    if (plain && dstr == 1 && sstr == 1) {
        if (op->kind == ROW_MOVE && op->stream)
            stream_move(d, s, (size_t)(n * ssz));
        else if (op->kind == ROW_MOVE)
            memmove(d, s, (size_t)(n * ssz));
        else
            tl_tileop_convert(op->dt, d, op->st, s, n, op->mode);
        return;
    }
    if (op->kind == ROW_MOVE) {
        for (int64_t i = 0; i < n; i++) memcpy(d + i * dstr * dsz, s + i * sstr * ssz, (size_t)ssz);
        return;
    }
    uint8_t sb[TL_TILEOP_CHUNK * 8], db[TL_TILEOP_CHUNK * 8], cb[TL_TILEOP_CHUNK * 8];
    for (int64_t c = 0; c < n; c += TL_TILEOP_CHUNK) {
        int64_t m = TL_MIN(TL_TILEOP_CHUNK, n - c);
        const uint8_t *sp = s + c * sstr * ssz;
        uint8_t *dp = d + c * dstr * dsz;
        if (sstr != 1) gather(sb, sp, sstr, m, ssz), sp = sb;
        if (op->kind == ROW_CONVERT) {
            uint8_t *out = dstr == 1 ? dp : db;
            if (op->relu || op->deq)
                convert_transformed(op, out, sp, m);
            else
                tl_tileop_convert(op->dt, out, op->st, sp, m, op->mode);
            if (dstr != 1) scatter(dp, dstr, db, m, dsz);
            continue;
        }
        if (op->st != op->dt) {
            tl_tileop_convert(op->dt, cb, op->st, sp, m, TL_CAST_RINT);
            sp = cb;
        }
        if (dstr == 1) {
            add_into(op->dt, dp, sp, m);
        } else {
            gather(db, dp, dstr, m, dsz);
            add_into(op->dt, db, sp, m);
            scatter(dp, dstr, db, m, dsz);
        }
    }
}

// Rows of `rb` bytes (a constant after inlining): each row read whole before
// it is written, as memmove does, in registers.
#define MOVE_ROWS(rb)                                                                              \
    for (int64_t r = 0; r < rows; r++) {                                                           \
        uint8_t t_[rb];                                                                            \
        memcpy(t_, s + r * sstep, rb);                                                             \
        memcpy(d + r * dstep, t_, rb);                                                             \
    }

// A 2-D move of contiguous rows (the common GM <-> on-chip tile copy): one
// loop, short rows copied without a call. Row order and per-row semantics
// are those of the general loop below.
static bool move_rows(const row_op_t *op, const xfer_t *x, int sz)
{
    if (op->kind != ROW_MOVE || op->stream || x->k != 2 || x->ss[1] != 1 || x->ds[1] != 1)
        return false;
    int64_t rows = x->box[0], rb = x->box[1] * sz, sstep = x->ss[0] * sz, dstep = x->ds[0] * sz;
    const uint8_t *s = x->src;
    uint8_t *d = x->dst;
    switch (rb) {
    case 4: MOVE_ROWS(4); return true;
    case 8: MOVE_ROWS(8); return true;
    case 16: MOVE_ROWS(16); return true;
    case 32: MOVE_ROWS(32); return true;
    case 64: MOVE_ROWS(64); return true;
    default:
        for (int64_t r = 0; r < rows; r++) memmove(d + r * dstep, s + r * sstep, (size_t)rb);
        return true;
    }
}

// d[r * ds + c] = s[r + c * ss] over a rows x cols box, in square blocks so
// that both sides stay in cache; typed elements instead of a memcpy each.
#define TRANSPOSE_BLOCKED(T)                                                                       \
    {                                                                                              \
        const T *s_ = (const T *)x->src;                                                           \
        T *d_ = (T *)x->dst;                                                                       \
        for (int64_t r0 = 0; r0 < rows; r0 += TBLK)                                                \
            for (int64_t c0 = 0; c0 < cols; c0 += TBLK) {                                          \
                int64_t r1 = TL_MIN(rows, r0 + TBLK), c1 = TL_MIN(cols, c0 + TBLK);                \
                for (int64_t r = r0; r < r1; r++)                                                  \
                    for (int64_t c = c0; c < c1; c++) d_[r * ds + c] = s_[r + c * ss];             \
            }                                                                                      \
        return true;                                                                               \
    }

// A 2-D move whose destination rows are the source's columns (the transposing
// L1 -> L0A/L0B copy), when the two sides do not overlap (else the general
// loop keeps its element order).
static bool move_transposed(const row_op_t *op, const xfer_t *x, int sz)
{
    enum { TBLK = 16 };
    if (op->kind != ROW_MOVE || x->k != 2 || x->ds[1] != 1 || x->ss[0] != 1 || x->ss[1] <= 1 ||
        x->ds[0] < x->box[1])
        return false;
    int64_t rows = x->box[0], cols = x->box[1], ds = x->ds[0], ss = x->ss[1];
    const uint8_t *s_end = x->src + ((rows - 1) + (cols - 1) * ss + 1) * sz;
    const uint8_t *d_end = x->dst + ((rows - 1) * ds + cols) * sz;
    if (x->src < d_end && x->dst < s_end) return false;
    switch (sz) {
    case 1: TRANSPOSE_BLOCKED(uint8_t);
    case 2: TRANSPOSE_BLOCKED(uint16_t);
    case 4: TRANSPOSE_BLOCKED(uint32_t);
    case 8: TRANSPOSE_BLOCKED(uint64_t);
    default: return false;
    }
}

static void run_xfer(const row_op_t *op, const xfer_t *x)
{
    int64_t idx[TL_MAX_DIMS] = {0};
    int k = x->k, ssz = tl_dtype_size(op->st), dsz = tl_dtype_size(op->dt);
    for (int i = 0; i < k; i++)
        if (x->box[i] <= 0) return;
    if (move_rows(op, x, ssz)) return;
    if (move_transposed(op, x, ssz)) return;
    for (;;) {
        int64_t so = 0, dof = 0;
        for (int i = 0; i < k - 1; i++) so += idx[i] * x->ss[i], dof += idx[i] * x->ds[i];
        run_row(op, x->dst + dof * dsz, x->ds[k - 1], x->src + so * ssz, x->ss[k - 1],
                x->box[k - 1]);
        int i = k - 2;
        while (i >= 0 && ++idx[i] == x->box[i]) idx[i--] = 0;
        if (i < 0) return;
    }
}

// The box of a plan as a transfer between the views.
static void to_xfer(const tl_copy_exec_t *cx, const tl_view_t *sv, const tl_view_t *dv, xfer_t *x)
{
    const tl_copy_plan_t *p = &cx->plan;
    x->k = 2;
    x->box[0] = cx->rows;
    x->box[1] = cx->cols;
    x->ss[0] = p->rs[0], x->ss[1] = p->cs[0];
    x->ds[0] = p->rs[1], x->ds[1] = p->cs[1];
    x->src = sv->data + p->o[0] * tl_dtype_size(sv->dtype);
    x->dst = dv->data + p->o[1] * tl_dtype_size(dv->dtype);
}

// n elements of v from element `at` set to one value (elem: dtype-sized bytes).
static void fill_run(const tl_view_t *v, int64_t at, int64_t n, const uint8_t *elem)
{
    int sz = tl_dtype_size(v->dtype);
    uint8_t *p = v->data + at * sz;
    bool zero = true;
    for (int i = 0; i < sz; i++) zero &= elem[i] == 0;
    if (zero) {
        memset(p, 0, (size_t)(n * sz));
        return;
    }
    for (int64_t i = 0; i < n; i++) memcpy(p + i * sz, elem, (size_t)sz);
}

// GM -> UB: every moved block's last 32 bytes completed as DataCopyPad does
// (a row's, or a flat burst's one block), with the pad value or the block's
// first element, inside the buffer's elements (past them is the allocation's
// padding: the plan allows nothing else).
static void complete_rows(const tl_copy_exec_t *cx, const tl_view_t *dv, const uint8_t *pad)
{
    const tl_copy_plan_t *p = &cx->plan;
    int sz = tl_dtype_size(dv->dtype);
    int64_t numel = 1;
    for (int d = 0; d < dv->ndim; d++) numel *= dv->shape[d];
    for (int64_t r = 0; r < cx->tail_rows; r++) {
        int64_t row = p->o[1] + r * p->rs[1];
        const uint8_t *elem = cx->tail == TL_COPY_TAIL_PAD ? pad : dv->data + row * sz;
        int64_t end = TL_MIN(row + cx->tail_end, numel);
        if (end > row + cx->tail_len) fill_run(dv, row + cx->tail_len, end - row - cx->tail_len, elem);
    }
}

// Conversion out of L0C (FIX pipe): float accumulators to any float dtype,
// int32 to int32 or to float16 through the deq scale.
static tl_status_t l0c_row_op(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *sv,
                              const tl_view_t *dv, row_op_t *op)
{
    tl_dtype_t st = sv->dtype, dt = dv->dtype;
    op->relu = call->op->enable_relu;
    op->mode = TL_CAST_RINT;
    if (st == dt) {
        op->kind = op->relu ? ROW_CONVERT : ROW_MOVE;
        return TL_OK;
    }
    op->kind = ROW_CONVERT;
    if (tl_dtype_is_float(st) && tl_dtype_is_float(dt)) return TL_OK;
    if (st == TL_I32 && dt == TL_F16) {
        op->deq = true;
        op->scale = ctx->deq_scale;
        return TL_OK;
    }
    return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                          "L0C '%s' (%s) cannot be converted to %s on the way to '%s'", sv->name,
                          tl_dtype_name(st), tl_dtype_name(dt), dv->name);
}

static tl_status_t need_same_dtype(tl_tileop_ctx_t *ctx, const tl_opcall_t *call,
                                   const tl_view_t *sv, const tl_view_t *dv)
{
    if (sv->dtype == dv->dtype) return TL_OK;
    return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                          "copying %s '%s' (%s) to %s '%s' (%s) needs equal dtypes; cast in UB "
                          "(T.copy between UB buffers or T.tile.cast)",
                          tl_scope_name(sv->scope), sv->name, tl_dtype_name(sv->dtype),
                          tl_scope_name(dv->scope), dv->name, tl_dtype_name(dv->dtype));
}

tl_status_t tl_tileop_copy_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *sv, *dv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &sv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &dv)) != TL_OK)
        return st;
    tl_scope_t s = sv->scope, d = dv->scope;
    bool virt = ctx->allow_virtual_copies;
    bool gm_l1 = s == TL_SCOPE_GM && d == TL_SCOPE_L1, gm_ub = s == TL_SCOPE_GM && d == TL_SCOPE_UB;
    bool l1_l0 = s == TL_SCOPE_L1 && (d == TL_SCOPE_L0A || d == TL_SCOPE_L0B);
    bool l0c_out = s == TL_SCOPE_L0C && (d == TL_SCOPE_GM || (virt && d == TL_SCOPE_UB));
    bool ub_out = s == TL_SCOPE_UB && (d == TL_SCOPE_GM || (virt && d == TL_SCOPE_L1));
    bool ub_ub = s == TL_SCOPE_UB && d == TL_SCOPE_UB;
    if (!(gm_l1 || gm_ub || l1_l0 || l0c_out || ub_out || ub_ub)) {
        bool dev =
            (s == TL_SCOPE_L0C && d == TL_SCOPE_UB) || (s == TL_SCOPE_UB && d == TL_SCOPE_L1);
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "copy from %s ('%s') to %s ('%s') is not a legal data path%s",
                              tl_scope_name(s), sv->name, tl_scope_name(d), dv->name,
                              dev ? " (it is a developer-mode hand-off that the compiler routes "
                                    "through GM)"
                                  : "");
    }
    if (call->op->enable_relu && !l0c_out)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "enable_relu only applies to copies out of L0C");
    if (call->op->transpose && !l1_l0)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "transpose only applies to copies from L1 to L0A/L0B");
    // GM->L1 (upstream's copy_gm_to_l1, which takes no pad value) clears the tile
    // with zeros (InitConstValue): a zero pad_value says just that (conv2d's K-tail
    // zeroing), another value would not be what the device writes.
    if (call->has_pad && gm_l1 && (call->pad.is_float ? call->pad.f != 0 : call->pad.i != 0))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "pad_value of a GM->L1 copy must be 0: the device clears the L1 tile with "
                              "zeros (copy_gm_to_l1's InitConstValue), whatever pad_value says");
    if (call->has_pad && !gm_ub && !gm_l1)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "pad_value only applies to GM->UB and GM->L1 copies");

    row_op_t op = {.kind = ROW_MOVE, .st = sv->dtype, .dt = dv->dtype, .mode = TL_CAST_RINT};
    if (l0c_out) {
        st = l0c_row_op(ctx, call, sv, dv, &op);
    } else if (ub_ub && sv->dtype != dv->dtype) {
        op.kind = ROW_CONVERT;
        op.mode = tl_cast_copy_mode(dv->dtype, sv->dtype);
        if (!tl_cast_on_ascend(dv->dtype, sv->dtype, op.mode, NULL)) {
            char why[256];
            tl_cast_explain(why, sizeof why, dv->dtype, sv->dtype, op.mode);
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "%s", why);
        }
        if (sv->dtype == TL_I32 && dv->dtype == TL_F16) op.deq = true, op.scale = ctx->deq_scale;
    } else if (!ub_ub) {
        st = need_same_dtype(ctx, call, sv, dv);
    }
    if (st != TL_OK) return st;

    tl_copy_exec_t cx;
    if (!tl_tileop_copy_plan(ctx, call, 0, 1, &cx)) return TL_ERR_RUNTIME;
    uint8_t pad[8] = {0};
    if (gm_ub && call->has_pad) tl_tileop_scalar_to(dv->dtype, &call->pad, pad);
    if (cx.fill) fill_run(dv, cx.plan.o[1], cx.plan.fill, pad);
    xfer_t x;
    to_xfer(&cx, sv, dv, &x);
    // the source must not overlap the destination (on-chip -> GM never does)
    op.stream = ub_out && d == TL_SCOPE_GM && dv->bytes >= TL_COPY_STREAM_BYTES;
    run_xfer(&op, &x);
#if defined(__SSE2__)
    if (op.stream) _mm_sfence(); // the streaming stores are visible before the next access
#endif
    if (cx.tail != TL_COPY_TAIL_NONE) complete_rows(&cx, dv, pad);
    return TL_OK;
}

tl_status_t tl_tileop_copy_atomic_add(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) != TL_OK ||
        (st = tl_tileop_view(ctx, call, 1, &sv)) != TL_OK)
        return st;
    if (dv->scope != TL_SCOPE_GM || (sv->scope != TL_SCOPE_UB && sv->scope != TL_SCOPE_L0C))
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "adds a UB or L0C region into a GM region, not %s ('%s') into %s "
                              "('%s')",
                              tl_scope_name(sv->scope), sv->name, tl_scope_name(dv->scope),
                              dv->name);
    if (!tl_tileop_is_vfloat(dv->dtype) && !tl_tileop_is_vint(dv->dtype))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "cannot add into %s '%s'",
                              tl_dtype_name(dv->dtype), dv->name);
    if (sv->scope == TL_SCOPE_UB && (st = need_same_dtype(ctx, call, sv, dv)) != TL_OK) return st;
    if (sv->scope == TL_SCOPE_L0C && sv->dtype != dv->dtype &&
        !(tl_dtype_is_float(sv->dtype) && tl_dtype_is_float(dv->dtype)))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "L0C '%s' (%s) cannot be added into %s '%s'", sv->name,
                              tl_dtype_name(sv->dtype), tl_dtype_name(dv->dtype), dv->name);
    tl_copy_exec_t cx;
    if (!tl_tileop_copy_plan(ctx, call, 1, 0, &cx)) return TL_ERR_RUNTIME;
    xfer_t x;
    to_xfer(&cx, sv, dv, &x);
    row_op_t op = {.kind = ROW_ADD, .st = sv->dtype, .dt = dv->dtype, .mode = TL_CAST_RINT};
    run_xfer(&op, &x);
    return TL_OK;
}
