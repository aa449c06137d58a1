// T.copy (dispatch on the source and destination scopes) and T.tile.atomic_add.
//
// Paths (surface §2.3): GM->L1 and GM->UB (MTE2), L1->L0A/L0B (MTE1, optional
// transpose), L0C->GM (FIX: accumulator conversion with RINT, optional ReLU,
// int32->float16 through the deq scale), UB->GM (MTE3), UB->UB (V: same dtype
// moves, different dtypes cast with CAST_NONE for the widening pairs of the
// upstream table and CAST_RINT otherwise; int32->float16 uses the deq scale)
// and, with ctx->allow_virtual_copies, L0C->UB (like FIX) and UB->L1 as direct
// moves. Every other pair is an error naming both scopes. Layouts are logical
// row-major on every scope.
//
// Shape rule (ours, a superset of upstream's 2-D behaviour): a start-point
// operand (`A[i, j]`) takes the other side's extents; operands of equal rank
// line up dimension by dimension when the source fits; otherwise each side
// drops its unit-extent dimensions and the remaining lists are right-aligned
// (the shorter padded with leading 1s); the GM side is clipped at the tensor
// boundary per dimension; the moved box is the element-wise minimum. Where
// upstream silently goes wrong we do the following instead:
// - any number of dimensions is moved (upstream moves 2: rows x columns), and
//   column regions (`A[a:b, j]`) move the right elements;
// - a source larger than an on-chip destination is an error (upstream copies
//   the source's valid region over whatever follows the destination);
// - a GM start index of a unit dimension outside the tensor is an error
//   (upstream reads or writes out of bounds); a start at or past the end of a
//   clipped dimension moves nothing;
// - GM->UB fills the rest of the destination region with the pad value for
//   every dtype (upstream skips 8-bit tiles); GM->L1 zero-fills the rest of
//   the destination region (upstream only when the copy targets the tile base).
//
// real_k / real_n (L1 -> L0A/L0B, tilelang-ascend's sparse flash MLA) limit
// the load to the valid K and N of the destination, rounded up to whole
// fractals (clip_valid); unit_flag (out of L0C) orders the copy against the
// mmads on the hardware and changes no value.
#include "exec/tileop_impl.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// One operand of a transfer.
typedef struct {
    const tl_view_t *v;
    int64_t ext[TL_MAX_DIMS]; // region extents (inferred for a start point)
    int nd;                   // number of non-unit dimensions
    int dims[TL_MAX_DIMS];    // their indices, in order
    bool gm;
} side_t;

// The box that moves: per aligned dimension its size and each side's stride.
typedef struct {
    int k;
    int64_t box[TL_MAX_DIMS];
    int64_t ss[TL_MAX_DIMS], ds[TL_MAX_DIMS]; // element strides
    uint8_t *src, *dst;                       // box origins
    bool partial;                             // box smaller than the destination region
    int64_t dext[TL_MAX_DIMS];                // destination region extents (inferred)
    int smap[TL_MAX_DIMS], dmap[TL_MAX_DIMS]; // each side's dimension per box dimension, or -1
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

static void find_dims(side_t *s)
{
    s->nd = 0;
    for (int d = 0; d < s->v->ndim; d++)
        if (s->ext[d] != 1) s->dims[s->nd++] = d;
}

static void init_side(side_t *s, const tl_view_t *v)
{
    s->v = v;
    s->gm = v->scope == TL_SCOPE_GM;
    memcpy(s->ext, v->extent, sizeof s->ext);
    find_dims(s);
}

// The extents of an index operand (`A[i, j]`) from the other operand. The
// callers pass views of the same kind of copy, so both sides see one rule.
void tl_tileop_copy_point_extents(const tl_view_t *point, const tl_view_t *other, bool transpose,
                                  int64_t *ext)
{
    side_t o;
    init_side(&o, other);
    memcpy(ext, point->extent, sizeof o.ext);
    if (point->form != TL_REGION_POINT || other->form == TL_REGION_POINT || o.nd > point->ndim)
        return;
    int lead = point->ndim - o.nd;
    for (int d = 0; d < point->ndim; d++) {
        int i = d - lead;
        ext[d] = i < 0 ? 1 : o.ext[o.dims[transpose ? o.nd - 1 - i : i]];
    }
}

// A start point takes the other side's non-unit extents, right-aligned.
static tl_status_t infer_point(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, side_t *p,
                               const side_t *o, bool reverse)
{
    char a[128];
    if (o->nd > p->v->ndim)
        return tl_tileop_fail(
            ctx, call, TL_ERR_RUNTIME, "cannot place a %s tile at a %d-dimensional index of '%s'",
            tl_tileop_dims(a, sizeof a, o->ext, o->v->ndim), p->v->ndim, p->v->name);
    tl_tileop_copy_point_extents(p->v, o->v, reverse, p->ext);
    find_dims(p);
    return TL_OK;
}

// Aligned extents of a side (its non-unit extents, right-aligned into k).
static void aligned(const side_t *s, int k, bool reverse, int *map, int64_t *ext)
{
    for (int a = 0; a < k; a++) {
        int i = a - (k - s->nd);
        map[a] = i < 0 ? -1 : s->dims[reverse ? s->nd - 1 - i : i];
        ext[a] = map[a] < 0 ? 1 : s->ext[map[a]];
    }
}

static int64_t dim_stride(const tl_view_t *v, int d)
{
    int64_t s = 1;
    for (int i = d + 1; i < v->ndim; i++) s *= v->shape[i];
    return s;
}

static tl_status_t check_bounds(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const side_t *s)
{
    const tl_view_t *v = s->v;
    char a[128], b[128], c[128];
    for (int d = 0; d < v->ndim; d++) {
        if (s->gm) {
            if (s->ext[d] == 1 && v->start[d] >= v->shape[d])
                return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                      "index %lld is out of bounds for dimension %d of '%s' "
                                      "(size %lld)",
                                      (long long)v->start[d], d, v->name, (long long)v->shape[d]);
        } else if (v->start[d] + s->ext[d] > v->shape[d]) {
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                  "region at %s with extents %s is outside '%s' %s",
                                  tl_tileop_dims(a, sizeof a, v->start, v->ndim),
                                  tl_tileop_dims(b, sizeof b, s->ext, v->ndim), v->name,
                                  tl_tileop_dims(c, sizeof c, v->shape, v->ndim));
        }
    }
    return TL_OK;
}

static uint8_t *origin(const tl_view_t *v)
{
    int64_t off = 0;
    for (int d = 0; d < v->ndim; d++) off += v->start[d] * dim_stride(v, d);
    return v->data + off * tl_dtype_size(v->dtype);
}

// The part of plan() that depends only on the operands' forms, scopes, ranks
// and extents (bounds checked in between when `bounds`): a start point's
// extents, and the moved dimensions paired between the sides.
static tl_status_t layout(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *sv,
                          const tl_view_t *dv, bool transpose, bool bounds, tl_copy_layout_t *out)
{
    side_t s, d;
    init_side(&s, sv);
    init_side(&d, dv);
    tl_status_t st = TL_OK;
    if (sv->form == TL_REGION_POINT && dv->form != TL_REGION_POINT)
        st = infer_point(ctx, call, &s, &d, transpose);
    else if (dv->form == TL_REGION_POINT && sv->form != TL_REGION_POINT)
        st = infer_point(ctx, call, &d, &s, transpose);
    if (st != TL_OK) return st;
    char a[128], b[128];
    if (transpose && s.nd > 2)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "transpose needs a 2-D source, '%s' has extents %s", sv->name,
                              tl_tileop_dims(a, sizeof a, s.ext, sv->ndim));
    if (bounds && ((st = check_bounds(ctx, call, &s)) != TL_OK ||
                   (st = check_bounds(ctx, call, &d)) != TL_OK))
        return st;
    // Operands of the same rank line up dimension by dimension when that fits
    // (a GM column [32, 1] into a UB tile [32, 8] fills its first column);
    // otherwise unit dimensions are dropped and the rest right-aligned.
    if (sv->ndim == dv->ndim && !transpose) {
        bool fits = true;
        for (int i = 0; i < sv->ndim; i++) fits = fits && (d.gm || s.ext[i] <= d.ext[i]);
        if (fits) {
            s.nd = d.nd = sv->ndim;
            for (int i = 0; i < sv->ndim; i++) s.dims[i] = d.dims[i] = i;
        }
    }
    int k = TL_MAX(s.nd, d.nd);
    aligned(&s, k, transpose, out->smap, out->sext);
    aligned(&d, k, false, out->dmap, out->dext);
    if (!d.gm)
        for (int i = 0; i < k; i++)
            if (out->sext[i] > out->dext[i])
                return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                      "source %s does not fit destination '%s' %s (source '%s')",
                                      tl_tileop_dims(a, sizeof a, out->sext, k), dv->name,
                                      tl_tileop_dims(b, sizeof b, out->dext, k), sv->name);
    out->k = k;
    memcpy(out->src_ext, s.ext, sizeof s.ext);
    memcpy(out->dst_ext, d.ext, sizeof d.ext);
    return TL_OK;
}

// real_k / real_n of an L1 -> L0A/L0B load: only the valid K rows (L0B; L0A:
// columns) and N columns of the destination move, in whole fractals (K in
// 32-byte units, N in 16s) as LoadData moves them; the rest keeps its data.
static void clip_valid(const tl_opcall_t *call, const tl_view_t *dv, xfer_t *x)
{
    if (call->op->code != TL_OP_COPY || (!call->has_k_valid && !call->has_n_valid)) return;
    bool l0b = dv->scope == TL_SCOPE_L0B;
    int kdim = dv->ndim - (l0b ? 2 : 1), ndim = l0b ? dv->ndim - 1 : -1;
    int64_t k0 = TL_MAX(1, 32 / tl_dtype_size(dv->dtype));
    for (int i = 0; i < x->k; i++) {
        if (call->has_k_valid && x->dmap[i] == kdim && kdim >= 0)
            x->box[i] = TL_MIN(x->box[i], (call->k_valid + k0 - 1) / k0 * k0);
        if (call->has_n_valid && x->dmap[i] == ndim && ndim >= 0)
            x->box[i] = TL_MIN(x->box[i], (call->n_valid + 15) / 16 * 16);
    }
}

static tl_status_t plan(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t *sv,
                        const tl_view_t *dv, bool transpose, xfer_t *x)
{
    tl_copy_layout_t l;
    tl_status_t st = layout(ctx, call, sv, dv, transpose, true, &l);
    if (st != TL_OK) return st;
    bool sgm = sv->scope == TL_SCOPE_GM, dgm = dv->scope == TL_SCOPE_GM;
    int k = l.k;
    x->k = k;
    x->partial = false;
    memcpy(x->smap, l.smap, sizeof l.smap);
    memcpy(x->dmap, l.dmap, sizeof l.dmap);
    for (int i = 0; i < k; i++) {
        int64_t se = l.sext[i], de = l.dext[i];
        if (sgm && l.smap[i] >= 0)
            se = TL_MAX(0, TL_MIN(se, sv->shape[l.smap[i]] - sv->start[l.smap[i]]));
        if (dgm && l.dmap[i] >= 0)
            de = TL_MAX(0, TL_MIN(de, dv->shape[l.dmap[i]] - dv->start[l.dmap[i]]));
        x->box[i] = TL_MIN(se, de);
        x->partial |= x->box[i] < l.dext[i];
        x->ss[i] = l.smap[i] < 0 ? 0 : dim_stride(sv, l.smap[i]);
        x->ds[i] = l.dmap[i] < 0 ? 0 : dim_stride(dv, l.dmap[i]);
    }
    if (k == 0) { // a single element
        x->k = 1;
        x->box[0] = 1;
        x->ss[0] = x->ds[0] = 0;
        x->smap[0] = x->dmap[0] = -1;
    }
    x->src = origin(sv);
    x->dst = origin(dv);
    memcpy(x->dext, l.dst_ext, sizeof x->dext);
    clip_valid(call, dv, x);
    return TL_OK;
}

bool tl_tileop_copy_layout(const tl_opcall_t *call, tl_copy_layout_t *out)
{
    tl_tileop_ctx_t quiet = {0};
    memset(out, 0, sizeof *out);
    if (call->nargs != 2 || !call->args[0].is_view || !call->args[1].is_view) return false;
    bool transpose = call->op->code == TL_OP_COPY && call->op->transpose;
    return layout(&quiet, call, &call->args[0].view, &call->args[1].view, transpose, false, out) ==
           TL_OK;
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

// Fills the region of v at its start with extents ext with one element value
// (elem: dtype-sized bytes).
static void fill_region(const tl_view_t *v, const int64_t *ext, const uint8_t *elem)
{
    int nd = v->ndim, sz = tl_dtype_size(v->dtype);
    int64_t idx[TL_MAX_DIMS] = {0}, row = ext[nd - 1];
    for (int d = 0; d < nd; d++)
        if (ext[d] <= 0) return;
    bool zero = true;
    for (int i = 0; i < sz; i++) zero &= elem[i] == 0;
    // a region of whole rows (every dimension after its first non-unit one
    // complete) is one run of memory
    int first = 0;
    while (first < nd - 1 && ext[first] == 1) first++;
    bool run = true;
    int64_t total = ext[first];
    for (int d = first + 1; d < nd; d++) run &= ext[d] == v->shape[d], total *= ext[d];
    if (run && zero) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) off += v->start[d] * dim_stride(v, d);
        memset(v->data + off * sz, 0, (size_t)(total * sz));
        return;
    }
    for (;;) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) off += (v->start[d] + idx[d]) * dim_stride(v, d);
        uint8_t *p = v->data + off * sz;
        if (zero)
            memset(p, 0, (size_t)(row * sz));
        else
            for (int64_t j = 0; j < row; j++) memcpy(p + j * sz, elem, (size_t)sz);
        int d = nd - 2;
        while (d >= 0 && ++idx[d] == ext[d]) idx[d--] = 0;
        if (d < 0) return;
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
    if (call->has_pad && !gm_ub)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "pad_value only applies to GM->UB copies");

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

    xfer_t x;
    if ((st = plan(ctx, call, sv, dv, call->op->transpose, &x)) != TL_OK) return st;
    if (x.partial && (gm_ub || gm_l1)) {
        uint8_t pad[8] = {0};
        if (gm_ub && call->has_pad) tl_tileop_scalar_to(dv->dtype, &call->pad, pad);
        fill_region(dv, x.dext, pad);
    }
    // the source must not overlap the destination (on-chip -> GM never does)
    op.stream = ub_out && d == TL_SCOPE_GM && dv->bytes >= TL_COPY_STREAM_BYTES;
    run_xfer(&op, &x);
#if defined(__SSE2__)
    if (op.stream) _mm_sfence(); // the streaming stores are visible before the next access
#endif
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
    xfer_t x;
    if ((st = plan(ctx, call, sv, dv, false, &x)) != TL_OK) return st;
    row_op_t op = {.kind = ROW_ADD, .st = sv->dtype, .dt = dv->dtype, .mode = TL_CAST_RINT};
    run_xfer(&op, &x);
    return TL_OK;
}

bool tl_tileop_copy_box(const tl_opcall_t *call, int si, int di, tl_copy_box_t *out)
{
    tl_tileop_ctx_t quiet = {0};
    const tl_view_t *sv = &call->args[si].view, *dv = &call->args[di].view;
    bool transpose = call->op->code == TL_OP_COPY && call->op->transpose;
    xfer_t x;
    memset(out, 0, sizeof *out);
    if (plan(&quiet, call, sv, dv, transpose, &x) != TL_OK) return false;
    for (int d = 0; d < TL_MAX_DIMS; d++) out->src_ext[d] = out->dst_ext[d] = 1;
    for (int i = 0; i < x.k; i++) {
        if (x.smap[i] >= 0) out->src_ext[x.smap[i]] = x.box[i];
        if (x.dmap[i] >= 0) out->dst_ext[x.dmap[i]] = x.box[i];
    }
    out->fill = x.partial && sv->scope == TL_SCOPE_GM && dv->scope != TL_SCOPE_GM;
    if (out->fill) memcpy(out->fill_ext, x.dext, sizeof out->fill_ext);
    return true;
}
