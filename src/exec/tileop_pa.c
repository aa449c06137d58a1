// T.copy_pa(dst, kv, block_table, block_size, head_num, head_dim, kv_stride,
// max_block_num_per_batch, act_head_dim, copy_row_num, copy_row_num_align,
// b_idx, n2_idx, s2_idx, d_idx): the paged-KV load of upstream's
// tilelang-ascend (language: ascend.py copy_pa; template: common.h copy_pa<T>,
// the PA_ND branch of the reference op's DataCopyPA). Semantics, as the
// template computes them (read, not copied):
// - the window of copy_row_num rows starting at logical KV row s2_idx is
//   walked one page at a time: page p = s2 / block_size of batch b_idx is the
//   physical page id = block_table[b_idx * max_block_num_per_batch + p] (an
//   int32 read from GM), the run is the rows from s2 % block_size to the end
//   of the page, cut at the window's end;
// - the run's row i is KV element
//   id * kv_stride + n2_idx * head_dim * block_size + (s2 % block_size + i) *
//   head_dim + d_idx + j for j in [0, act_head_dim) (element offsets from the
//   kv operand's origin), written to row (rows done + i), column j of dst (an
//   Nd2Nz DataCopy whose C0 stride is copy_row_num_align rows);
// - head_num is not used (PA_ND parity); the rest of dst is not written.
// tilec keeps L1 tiles logical (row-major), so it takes dst as the last two
// dimensions of a whole tile (rows R, columns C) and needs copy_row_num_align
// to be R rounded up to 16 (the zN tile's C0 stride: any other value puts
// the rows elsewhere in the fractal layout), act_head_dim a multiple of the
// 32-byte C0 block (Nd2Nz pads a partial block, which tilec does not model),
// copy_row_num <= R and act_head_dim <= C. Every KV and block-table read is
// bounds-checked against its tensor (the device reads whatever is there).
#include "exec/tileop_impl.h"

#include <string.h>

typedef struct {
    int64_t block_size, head_dim, kv_stride, max_blocks, act, rows, align, b, n2, s2, d;
} pa_t;

static int64_t arg_int(const tl_opcall_t *call, int i)
{
    return tl_tileop_scalar_int(&call->args[i].scalar);
}

static void params_of(const tl_opcall_t *call, pa_t *p)
{
    p->block_size = arg_int(call, 3);
    p->head_dim = arg_int(call, 5);
    p->kv_stride = arg_int(call, 6);
    p->max_blocks = arg_int(call, 7);
    p->act = arg_int(call, 8);
    p->rows = arg_int(call, 9);
    p->align = arg_int(call, 10);
    p->b = arg_int(call, 11);
    p->n2 = arg_int(call, 12);
    p->s2 = arg_int(call, 13);
    p->d = arg_int(call, 14);
}

static int64_t numel(const tl_view_t *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->shape[d];
    return n;
}

// One page's run: dst rows [done, done + n) from KV element `src` (row pitch
// head_dim), the block table's entry at `entry`.
typedef struct {
    int64_t done, n, entry, src;
} run_t;

// The page walk; calls fn for each run (stops at the first error it returns).
// The block table is read from bt.
typedef tl_status_t (*run_fn)(void *arg, const run_t *r);

static tl_status_t walk(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const pa_t *p,
                        const tl_view_t *bt, run_fn fn, void *arg)
{
    int64_t bt_n = numel(bt), bt0 = tl_view_offset(bt);
    const int32_t *table = (const int32_t *)(const void *)bt->data;
    int64_t done = 0, s2 = p->s2;
    while (done < p->rows) {
        int64_t page = s2 / p->block_size, in_page = s2 % p->block_size;
        int64_t entry = bt0 + p->b * p->max_blocks + page;
        if (entry < 0 || entry >= bt_n)
            return ctx ? tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                                        "block_table '%s' read at element %lld, outside its %lld "
                                        "elements (window row %lld, page %lld of batch %lld)",
                                        bt->name, (long long)entry, (long long)bt_n, (long long)s2,
                                        (long long)page, (long long)p->b)
                       : TL_ERR_RUNTIME;
        int32_t id;
        memcpy(&id, table + entry, sizeof id);
        int64_t n = TL_MIN(p->block_size - in_page, p->rows - done);
        run_t r = {done, n, entry,
                   (int64_t)id * p->kv_stride + p->n2 * p->head_dim * p->block_size +
                       in_page * p->head_dim + p->d};
        tl_status_t st = fn(arg, &r);
        if (st) return st;
        done += n;
        s2 += n;
    }
    return TL_OK;
}

typedef struct {
    tl_tileop_ctx_t *ctx;
    const tl_opcall_t *call;
    const pa_t *p;
    const tl_view_t *dst, *kv;
} move_t;

static tl_status_t move(void *arg, const run_t *r)
{
    const move_t *m = arg;
    const pa_t *p = m->p;
    int size = tl_dtype_size(m->kv->dtype);
    int64_t kv_n = numel(m->kv), base = tl_view_offset(m->kv) + r->src;
    int64_t first = base, last = base + (r->n - 1) * p->head_dim + p->act - 1;
    if (first < 0 || last >= kv_n)
        return tl_tileop_fail(m->ctx, m->call, TL_ERR_RUNTIME,
                              "reads '%s' elements %lld..%lld, outside its %lld elements (page id "
                              "%lld from block_table element %lld)",
                              m->kv->name, (long long)first, (long long)last, (long long)kv_n,
                              (long long)((r->src - p->n2 * p->head_dim * p->block_size - p->d) /
                                          (p->kv_stride ? p->kv_stride : 1)),
                              (long long)r->entry);
    const tl_view_t *d = m->dst;
    int64_t pitch = d->shape[d->ndim - 1], d0 = tl_view_offset(d);
    for (int64_t i = 0; i < r->n; i++)
        memcpy(d->data + (d0 + (r->done + i) * pitch) * size,
               m->kv->data + (base + i * p->head_dim) * size, (size_t)(p->act * size));
    return TL_OK;
}

// Checks the operands and the parameters tilec needs (see the top).
static tl_status_t check(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const pa_t *p,
                         const tl_view_t **dst, const tl_view_t **kv, const tl_view_t **bt)
{
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, dst)) || (st = tl_tileop_view(ctx, call, 1, kv)) ||
        (st = tl_tileop_view(ctx, call, 2, bt)) || (st = tl_tileop_check_view(ctx, call, *dst)) ||
        (st = tl_tileop_check_view(ctx, call, *kv)) || (st = tl_tileop_check_view(ctx, call, *bt)))
        return st;
    for (int i = 3; i < 15; i++)
        if (i >= call->nargs || call->args[i].is_view)
            return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "operand %d must be a scalar", i + 1);
    const tl_view_t *d = *dst;
    if ((st = tl_tileop_same_dtype(ctx, call, d, *kv))) return st;
    if ((*bt)->dtype != TL_I32)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "block_table '%s' must be int32, not %s", (*bt)->name,
                              tl_dtype_name((*bt)->dtype));
    int nd = d->ndim;
    if (nd < 2)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "destination '%s' must be a tile of rows and columns", d->name);
    for (int i = 0; i < nd; i++)
        if ((i >= nd - 2 && (d->start[i] != 0 || d->extent[i] != d->shape[i])) ||
            (i < nd - 2 && d->extent[i] != 1))
            return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                  "destination must be a whole [rows, columns] tile of '%s' "
                                  "(its last two dimensions whole, the others one index)",
                                  d->name);
    int64_t R = d->shape[nd - 2], C = d->shape[nd - 1], c0 = 32 / tl_dtype_size(d->dtype);
    const char *bad = NULL;
    if (p->block_size <= 0)
        bad = "block_size must be positive";
    else if (p->rows < 0 || p->rows > R)
        bad = "copy_row_num must be in 0..the tile's rows";
    else if (p->act < 0 || p->act > C)
        bad = "act_head_dim must be in 0..the tile's columns";
    else if (p->act % c0)
        bad = "act_head_dim must be a multiple of the 32-byte C0 block";
    else if (p->align != (R + 15) / 16 * 16)
        bad = "copy_row_num_align must be the tile's rows rounded up to 16 (its zN C0 stride)";
    else if (p->s2 < 0 || p->b < 0 || p->max_blocks < 0 || p->head_dim < 0 || p->d < 0 ||
             p->n2 < 0 || p->kv_stride < 0)
        bad = "the indices and strides must be non-negative";
    if (bad)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "%s (tile '%s' [%lld, %lld]; block_size %lld, copy_row_num %lld, "
                              "act_head_dim %lld, copy_row_num_align %lld)",
                              bad, d->name, (long long)R, (long long)C, (long long)p->block_size,
                              (long long)p->rows, (long long)p->act, (long long)p->align);
    return TL_OK;
}

tl_status_t tl_tileop_copy_pa_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    pa_t p;
    const tl_view_t *dst, *kv, *bt;
    params_of(call, &p); // the operands are checked next: args[] holds 16, zeroed past nargs
    tl_status_t st = check(ctx, call, &p, &dst, &kv, &bt);
    if (st) return st;
    move_t m = {ctx, call, &p, dst, kv};
    return walk(ctx, call, &p, bt, move, &m);
}

typedef struct {
    const tl_opcall_t *call;
    const pa_t *p;
    tl_tileop_access_fn fn;
    void *arg;
} acc_t;

static tl_status_t touch(void *arg, const run_t *r)
{
    const acc_t *a = arg;
    const tl_view_t *dst = &a->call->args[0].view, *kv = &a->call->args[1].view;
    int size = tl_dtype_size(kv->dtype);
    int64_t pitch = dst->shape[dst->ndim - 1], d0 = tl_view_offset(dst);
    int64_t base = tl_view_offset(kv) + r->src;
    a->fn(a->arg, 2, false, r->entry * 4, 4);
    for (int64_t i = 0; i < r->n; i++) {
        a->fn(a->arg, 1, false, (base + i * a->p->head_dim) * size, a->p->act * size);
        a->fn(a->arg, 0, true, (d0 + (r->done + i) * pitch) * size, a->p->act * size);
    }
    return TL_OK;
}

void tl_tileop_copy_pa_accesses(const tl_opcall_t *call, tl_tileop_access_fn fn, void *arg)
{
    pa_t p;
    params_of(call, &p);
    if (p.act <= 0 || p.block_size <= 0) return;
    acc_t a = {call, &p, fn, arg};
    walk(NULL, call, &p, &call->args[2].view, touch, &a);
}
