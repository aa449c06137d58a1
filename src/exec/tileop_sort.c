// Sorting ops: T.tile.sort, topk, merge_sort, gather_mask and init_sort_buf,
// as upstream's Ascend C helpers (tl_templates/ascend/common.h) compute them on
// the vector unit's Sort32 / MrgSort / GatherMask / Duplicate instructions.
//
// A sorted list is a run of (value, index) pairs, two elements each:
// [v0, i0, v1, i1, ...], in descending value order.
//
// - sort(dst, src, actual_num): N = actual_num rounded up to 32. float32:
//   src[actual_num..N) is set to -inf *in place* (upstream pads the source),
//   and dst[0..2N) gets the pairs of src[0..N), the index written as the float
//   value of the position (0.0, 1.0, ...: upstream generates the indices with a
//   float ArithProgression and hands their bits to Sort32). float16: the same
//   sort on a float32 copy (src is not modified), the 2N results converted to
//   float16 with RINT (indices above 2048 round, as on the device).
// - topk(dst, src, K, actual_num): the same sort with N = the source region's
//   element count rounded up to 32 (upstream sums the dimensions of the source,
//   which is its count for a 1-D source; tilec takes the product), then the
//   first 2*K elements, rounded up to 32 bytes, are copied to dst.
// - Order: Sort32 sorts each block of 32 stably (on equal values the lower
//   position first, as the Sort32 page states), then rounds of 4-way merges of
//   consecutive sorted runs. A merge takes the largest head, the earlier list
//   on equal values (the MrgSort page does not say; this makes the whole sort
//   stable, which is what a single block gives). NaN compares false both ways,
//   so a NaN stays where the merge order leaves it.
// - merge_sort(dst, src0, src1[, src2[, src3]]): float32 pair lists of
//   count/2 pairs each (at most 4095, the instruction's field), merged as above
//   into dst; the index halves are copied bit for bit.
// - gather_mask(dst, src, pattern): GatherMask in normal mode over whole
//   256-byte repeats: ceil(count * size / 256) repeats of src from the region
//   origin (the last may read past the region and the buffer, into the UB
//   after it, as on the device: ir/overrun.h), keeping
//   the elements a fixed pattern selects (P0101: even positions, P1010: odd,
//   P0001..P1000: one of every 4, P1111: all) or, with a uint32 pattern
//   buffer, those whose bit (LSB first) is set, the same bits for every repeat.
//   The kept elements are packed into dst.
// - brcb_experiment(dst, src, repeat, blk_stride, rep_stride): Brcb on 16- or
//   32-bit elements: repeat r broadcasts src[8r + j] (j < 8) into the 32-byte
//   block r * rep_stride + j * blk_stride of dst (blocks counted from the region
//   origin; a block stride of 0 counts as 1); overlapping blocks take the later
//   element. src and dst must not overlap (the instruction does not allow it).
//   Its accesses are reported as the span from the first to the last block.
// - init_sort_buf(buf, num, rsv): for whole 64-element repeats of the 32-bit
//   buffer, even positions get the bits of -inf (0xFF800000) and odd ones
//   0xFFFFFFFF. As upstream's loop, every full group of 255 repeats is written
//   at offset 0, the remainder after forLoop * 255 repeats; rsv is unused.
#include "exec/tileop_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    float v;
    uint32_t idx; // raw bits: float positions from sort, whatever merge_sort's lists hold
} pair_t;

// The index in position p of the run (Sort32 order): descending, stable.
static void sort32(pair_t *a, int64_t n)
{
    for (int64_t i = 1; i < n; i++) {
        pair_t e = a[i];
        int64_t j = i;
        while (j > 0 && a[j - 1].v < e.v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = e;
    }
}

// Merges k (<= 4) sorted lists into out: the largest head first, the earlier list on ties.
static void merge(pair_t *out, pair_t *const *lists, const int64_t *lens, int k)
{
    int64_t pos[4] = {0};
    for (;;) {
        int c = -1;
        for (int q = 0; q < k; q++) {
            if (pos[q] >= lens[q]) continue;
            if (c < 0 || lists[q][pos[q]].v > lists[c][pos[c]].v) c = q;
        }
        if (c < 0) return;
        *out++ = lists[c][pos[c]++];
    }
}

// Upstream's Sort: Sort32 on blocks of 32, then rounds of 4-way merges of consecutive runs.
static tl_status_t sort_pairs(pair_t *a, int64_t n)
{
    for (int64_t b = 0; b < n; b += 32) sort32(a + b, TL_MIN(32, n - b));
    int64_t nseg = (n + 31) / 32;
    if (nseg <= 1) return TL_OK;
    pair_t *tmp = malloc(sizeof *tmp * (size_t)n);
    int64_t *len = malloc(sizeof *len * (size_t)nseg);
    if (!tmp || !len) {
        free(tmp);
        free(len);
        return TL_ERR_NOMEM;
    }
    for (int64_t s = 0; s < nseg; s++) len[s] = TL_MIN(32, n - s * 32);
    pair_t *from = a, *to = tmp;
    while (nseg > 1) {
        int64_t off = 0, out = 0;
        for (int64_t g = 0; g < nseg; g += 4) {
            int k = (int)TL_MIN(4, nseg - g);
            pair_t *lists[4];
            int64_t total = 0;
            for (int q = 0; q < k; q++) {
                lists[q] = from + off + total;
                total += len[g + q];
            }
            merge(to + off, lists, len + g, k);
            len[out++] = total;
            off += total;
        }
        nseg = out;
        pair_t *t = from;
        from = to;
        to = t;
    }
    if (from != a) memcpy(a, from, sizeof *a * (size_t)n);
    free(tmp);
    free(len);
    return TL_OK;
}

static tl_status_t scalar_count(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int i,
                                const char *what, int64_t *out)
{
    tl_scalar_t s;
    tl_status_t st = tl_tileop_scalar(ctx, call, i, &s);
    if (st) return st;
    *out = tl_tileop_scalar_int(&s);
    if (*out < 0 || s.is_float)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s must be a non-negative integer", what);
    return TL_OK;
}

// The sorted size N and the actual element count of sort / topk.
static tl_status_t sort_sizes(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, int64_t *n,
                              int64_t *actual)
{
    bool topk = call->op->code == TL_OP_TOPK;
    tl_status_t st = scalar_count(ctx, call, topk ? 3 : 2, "actual_num", actual);
    if (st) return st;
    int64_t base = topk ? tl_view_count(&call->args[1].view) : *actual;
    *n = (base + 31) / 32 * 32;
    if (*actual > *n)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "actual_num %lld exceeds the %lld elements sorted",
                              (long long)*actual, (long long)*n);
    return TL_OK;
}

static int64_t topk_written(tl_dtype_t t, int64_t k)
{
    int per_block = 32 / tl_dtype_size(t);
    return (2 * k + per_block - 1) / per_block * per_block;
}

// The elements of dst's buffer from its region's origin: topk's DataCopy of
// 2*K rounded up to 32 bytes may end in the buffer's 32-byte allocation
// padding (upstream's testing topk: K = 10 float16 into a [20] buffer), which
// holds nothing; only what lands in the buffer is stored.
static int64_t room_of(const tl_view_t *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++) n *= v->shape[d];
    return n - tl_view_offset(v);
}

static tl_status_t sort_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv;
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &dv)) || (st = tl_tileop_view(ctx, call, 1, &sv)))
        return st;
    tl_dtype_t t = dv->dtype;
    if ((t != TL_F32 && t != TL_F16) || sv->dtype != t)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "sorts float32 or float16 of one dtype, got %s from %s",
                              tl_dtype_name(t), tl_dtype_name(sv->dtype));
    int64_t n, actual, k = 0;
    if ((st = sort_sizes(ctx, call, &n, &actual))) return st;
    bool topk = call->op->code == TL_OP_TOPK;
    if (topk && (st = scalar_count(ctx, call, 2, "K", &k))) return st;
    int64_t written = topk ? topk_written(t, k) : 2 * n;
    if (written > 2 * n)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "K=%lld is more than the %lld elements sorted", (long long)k,
                              (long long)n);
    // past the buffer but inside its 32-byte allocation: only what is the buffer's is stored
    int64_t room = room_of(dv), per = 32 / tl_dtype_size(t);
    int64_t stored = topk && written > room && written <= (room + per - 1) / per * per ? room : written;
    tl_span_t src, dst;
    if ((st = tl_tileop_span(ctx, call, sv, n, &src)) ||
        (st = tl_tileop_span(ctx, call, dv, stored, &dst)))
        return st;
    pair_t *p = malloc(sizeof *p * (size_t)(n ? n : 1));
    float *vals = malloc(sizeof *vals * (size_t)(2 * n + 1));
    if (!p || !vals) {
        free(p);
        free(vals);
        return TL_ERR_NOMEM;
    }
    tl_tileop_load_f32(t, src.p, actual, vals);
    for (int64_t i = actual; i < n; i++) vals[i] = -INFINITY;
    if (t == TL_F32 && n > actual)
        tl_tileop_store_f32(t, src.p + actual * 4, n - actual, vals + actual);
    for (int64_t i = 0; i < n; i++) {
        float pos = (float)i;
        p[i].v = vals[i];
        memcpy(&p[i].idx, &pos, 4);
    }
    st = sort_pairs(p, n);
    if (st == TL_OK) {
        for (int64_t i = 0; i < n; i++) {
            vals[2 * i] = p[i].v;
            memcpy(&vals[2 * i + 1], &p[i].idx, 4);
        }
        tl_tileop_store_f32(t, dst.p, stored, vals); // float16: RINT, as the device's final cast
    }
    free(p);
    free(vals);
    return st;
}

// The number of pairs in merge_sort list operand i.
static int64_t list_len(const tl_opcall_t *call, int i)
{
    return tl_view_count(&call->args[i].view) / 2;
}

static tl_status_t merge_sort_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv;
    tl_status_t st = tl_tileop_view(ctx, call, 0, &dv);
    if (st) return st;
    int k = call->nargs - 1;
    pair_t *lists[4] = {0};
    int64_t lens[4], total = 0;
    for (int q = 0; q < k && st == TL_OK; q++) {
        const tl_view_t *sv;
        tl_span_t sp;
        if ((st = tl_tileop_view(ctx, call, q + 1, &sv))) break;
        if (sv->dtype != TL_F32 || dv->dtype != TL_F32) {
            st = tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                                "merges float32 (value, index) lists, got %s",
                                tl_dtype_name(sv->dtype != TL_F32 ? sv->dtype : dv->dtype));
            break;
        }
        lens[q] = list_len(call, q + 1);
        if (lens[q] > 4095) {
            st = tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "list '%s' has %lld pairs; at most 4095",
                                sv->name, (long long)lens[q]);
            break;
        }
        if ((st = tl_tileop_span(ctx, call, sv, 2 * lens[q], &sp))) break;
        lists[q] = malloc(sizeof(pair_t) * (size_t)(lens[q] ? lens[q] : 1));
        if (!lists[q]) {
            st = TL_ERR_NOMEM;
            break;
        }
        memcpy(lists[q], sp.p, (size_t)lens[q] * 8);
        total += lens[q];
    }
    tl_span_t dst;
    pair_t *out = NULL;
    if (st == TL_OK && (st = tl_tileop_span(ctx, call, dv, 2 * total, &dst)) == TL_OK) {
        out = malloc(sizeof *out * (size_t)(total ? total : 1));
        if (!out) st = TL_ERR_NOMEM;
    }
    if (st == TL_OK) {
        merge(out, lists, lens, k);
        memcpy(dst.p, out, (size_t)total * 8);
    }
    free(out);
    for (int q = 0; q < k; q++) free(lists[q]);
    return st;
}

// Whether gather_mask keeps element j of a repeat (fixed pattern 1..7, or the bit array `bits`).
static bool keeps(int pattern, const uint8_t *bits, int64_t j)
{
    switch (pattern) {
    case 1: return j % 2 == 0;
    case 2: return j % 2 == 1;
    case 3:
    case 4:
    case 5:
    case 6: return j % 4 == pattern - 3;
    case 7: return true;
    default: return bits[j / 8] >> (j % 8) & 1;
    }
}

// gather_mask's source span (whole repeats), elements per repeat and kept count.
static void gather_mask_sizes(const tl_opcall_t *call, const uint8_t *bits, int64_t *span,
                              int64_t *per, int64_t *kept)
{
    const tl_view_t *sv = &call->args[1].view;
    int size = tl_dtype_size(sv->dtype);
    *per = 256 / size;
    int64_t repeats = (tl_view_count(sv) * size + 255) / 256;
    *span = repeats * *per;
    int64_t in_repeat = 0;
    for (int64_t j = 0; j < *per; j++)
        in_repeat += bits || call->op->pattern ? keeps(call->op->pattern, bits, j) : 0;
    *kept = repeats * in_repeat;
}

// Operands 0 and 1 as views of one 16- or 32-bit dtype (gather_mask, brcb).
static tl_status_t b16_b32_pair(tl_tileop_ctx_t *ctx, const tl_opcall_t *call, const tl_view_t **dv,
                                const tl_view_t **sv)
{
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, dv)) || (st = tl_tileop_view(ctx, call, 1, sv)))
        return st;
    int size = tl_dtype_size((*sv)->dtype);
    if ((*dv)->dtype != (*sv)->dtype || (size != 2 && size != 4))
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED,
                              "takes 16- or 32-bit elements of one dtype, got %s from %s",
                              tl_dtype_name((*dv)->dtype), tl_dtype_name((*sv)->dtype));
    return TL_OK;
}

static tl_status_t gather_mask_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv;
    tl_status_t st = b16_b32_pair(ctx, call, &dv, &sv);
    if (st) return st;
    int size = tl_dtype_size(sv->dtype);
    const uint8_t *bits = NULL;
    int64_t per = 256 / size;
    if (!call->op->pattern) {
        const tl_view_t *pv;
        tl_span_t ps;
        if ((st = tl_tileop_view(ctx, call, 2, &pv)) ||
            (st = tl_tileop_span(ctx, call, pv, per / 32, &ps)))
            return st;
        bits = ps.p;
    }
    int64_t span, kept;
    gather_mask_sizes(call, bits, &span, &per, &kept);
    tl_span_t src, dst;
    if ((st = tl_tileop_span(ctx, call, sv, span, &src)) ||
        (st = tl_tileop_span(ctx, call, dv, kept, &dst)))
        return st;
    if (kept > tl_view_count(dv) && !dv->reach) // else past dst into the UB (exec/overrun.c)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "keeps %lld elements; '%s' has room for %lld", (long long)kept,
                              dv->name, (long long)tl_view_count(dv));
    uint8_t *tmp = malloc((size_t)(kept ? kept : 1) * (size_t)size);
    if (!tmp) return TL_ERR_NOMEM;
    int64_t o = 0;
    for (int64_t j = 0; j < span; j++)
        if (keeps(call->op->pattern, bits, j % per))
            memcpy(tmp + o++ * size, src.p + j * size, (size_t)size);
    memcpy(dst.p, tmp, (size_t)(kept * size));
    free(tmp);
    return TL_OK;
}

// init_sort_buf's written element ranges (at most two): returns how many.
static int init_ranges(int64_t num, int64_t first[2], int64_t count[2])
{
    int64_t repeats = num / 64, loops = repeats / 255, rem = repeats % 255, n = 0;
    if (loops > 0) first[n] = 0, count[n++] = 255 * 64;
    if (rem > 0) first[n] = loops * 255 * 64, count[n++] = rem * 64;
    return (int)n;
}

static tl_status_t init_sort_buf_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *v;
    int64_t num, first[2], count[2];
    tl_status_t st;
    if ((st = tl_tileop_view(ctx, call, 0, &v)) || (st = scalar_count(ctx, call, 1, "num", &num)))
        return st;
    if (tl_dtype_size(v->dtype) != 4)
        return tl_tileop_fail(ctx, call, TL_ERR_UNSUPPORTED, "fills 32-bit elements, not %s",
                              tl_dtype_name(v->dtype));
    int n = init_ranges(num, first, count);
    for (int r = 0; r < n; r++) {
        tl_span_t sp;
        if ((st = tl_tileop_span(ctx, call, v, first[r] + count[r], &sp))) return st;
        for (int64_t i = first[r]; i < first[r] + count[r]; i++) {
            uint32_t w = i % 2 ? 0xFFFFFFFFu : 0xFF800000u;
            memcpy(sp.p + i * 4, &w, 4);
        }
    }
    return TL_OK;
}

// brcb's repeat count, strides (a block stride of 0 is 1) and the dst elements its blocks span.
static void brcb_sizes(const tl_opcall_t *call, int64_t *repeat, int64_t *blk, int64_t *rep,
                       int64_t *span)
{
    *repeat = tl_tileop_scalar_int(&call->args[2].scalar);
    *blk = tl_tileop_scalar_int(&call->args[3].scalar);
    *rep = tl_tileop_scalar_int(&call->args[4].scalar);
    if (*blk == 0) *blk = 1;
    int per = 32 / tl_dtype_size(call->args[0].view.dtype);
    *span = *repeat > 0 ? ((*repeat - 1) * *rep + 7 * *blk + 1) * per : 0;
}

static tl_status_t brcb_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    const tl_view_t *dv, *sv;
    tl_status_t st = b16_b32_pair(ctx, call, &dv, &sv);
    if (st) return st;
    int size = tl_dtype_size(dv->dtype);
    for (int i = 2; i < 5; i++) {
        tl_scalar_t sc;
        if ((st = tl_tileop_scalar(ctx, call, i, &sc))) return st;
        if (sc.is_float || sc.i < 0 || sc.i > (i == 2 ? 255 : 65535))
            return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME, "%s must be an integer in 0..%d",
                                  i == 2   ? "repeat_times"
                                  : i == 3 ? "dst_blk_stride"
                                           : "dst_repeat_stride",
                                  i == 2 ? 255 : 65535);
    }
    int64_t repeat, blk, rep, span;
    brcb_sizes(call, &repeat, &blk, &rep, &span);
    tl_span_t src, dst;
    if ((st = tl_tileop_span(ctx, call, sv, 8 * repeat, &src)) ||
        (st = tl_tileop_span(ctx, call, dv, span, &dst)))
        return st;
    if (repeat > 0 && src.p < dst.p + span * size && dst.p < src.p + 8 * repeat * size)
        return tl_tileop_fail(ctx, call, TL_ERR_RUNTIME,
                              "'%s' and '%s' overlap; Brcb needs separate memory", dv->name,
                              sv->name);
    int per = 32 / size;
    for (int64_t r = 0; r < repeat; r++)
        for (int j = 0; j < 8; j++) {
            uint8_t *b = dst.p + (r * rep + j * blk) * 32;
            for (int e = 0; e < per; e++)
                memcpy(b + e * size, src.p + (8 * r + j) * size, (size_t)size);
        }
    return TL_OK;
}

tl_status_t tl_tileop_sort_run(tl_tileop_ctx_t *ctx, const tl_opcall_t *call)
{
    switch (call->op->code) {
    case TL_OP_SORT:
    case TL_OP_TOPK: return sort_run(ctx, call);
    case TL_OP_MERGE_SORT: return merge_sort_run(ctx, call);
    case TL_OP_GATHER_MASK: return gather_mask_run(ctx, call);
    case TL_OP_INIT_SORT_BUF: return init_sort_buf_run(ctx, call);
    case TL_OP_BRCB: return brcb_run(ctx, call);
    default: return tl_tileop_fail(ctx, call, TL_ERR_INTERNAL, "not a sorting op");
    }
}

void tl_tileop_sort_work(const tl_opcall_t *call, int64_t *pairs, int *rounds)
{
    *pairs = 0;
    *rounds = 0;
    switch (call->op->code) {
    case TL_OP_SORT:
    case TL_OP_TOPK: {
        bool topk = call->op->code == TL_OP_TOPK;
        int64_t base =
            topk ? tl_view_count(&call->args[1].view) : tl_tileop_scalar_int(&call->args[2].scalar);
        *pairs = (TL_MAX(base, 0) + 31) / 32 * 32;
        for (int64_t seg = (*pairs + 31) / 32; seg > 1; seg = (seg + 3) / 4) ++*rounds;
        return;
    }
    case TL_OP_MERGE_SORT:
        for (int q = 1; q < call->nargs; q++) *pairs += list_len(call, q);
        *rounds = 1;
        return;
    default: return;
    }
}

int tl_tileop_sort_ranges(const tl_opcall_t *call, int i, bool write, int64_t first[2],
                          int64_t count[2])
{
    const tl_op_t *op = call->op;
    switch (op->code) {
    case TL_OP_SORT:
    case TL_OP_TOPK: {
        bool topk = op->code == TL_OP_TOPK;
        int64_t actual = tl_tileop_scalar_int(&call->args[topk ? 3 : 2].scalar);
        int64_t base = topk ? tl_view_count(&call->args[1].view) : actual;
        int64_t n = (TL_MAX(base, 0) + 31) / 32 * 32;
        actual = TL_MAX(0, TL_MIN(actual, n));
        first[0] = 0;
        if (i == 0) {
            if (!write) return 0;
            int64_t k = topk ? tl_tileop_scalar_int(&call->args[2].scalar) : 0;
            const tl_view_t *dv = &call->args[0].view;
            count[0] =
                topk ? TL_MIN(TL_MIN(2 * n, topk_written(dv->dtype, TL_MAX(k, 0))), room_of(dv))
                     : 2 * n;
            return 1;
        }
        if (i != 1) return 0;
        if (!write) return (count[0] = actual) > 0;
        if (call->args[1].view.dtype != TL_F32) return 0;
        first[0] = actual;
        return (count[0] = n - actual) > 0;
    }
    case TL_OP_MERGE_SORT: {
        first[0] = 0;
        if (i > 0) return !write && (count[0] = 2 * list_len(call, i)) > 0;
        if (!write) return 0;
        int64_t total = 0;
        for (int q = 1; q < call->nargs; q++) total += list_len(call, q);
        return (count[0] = 2 * total) > 0;
    }
    case TL_OP_GATHER_MASK: {
        const uint8_t *bits = NULL;
        int per = 256 / tl_dtype_size(call->args[1].view.dtype);
        if (!op->pattern && call->nargs > 2)
            bits = call->args[2].view.data +
                   tl_view_offset(&call->args[2].view) * tl_dtype_size(call->args[2].view.dtype);
        int64_t span, per64, kept;
        gather_mask_sizes(call, bits, &span, &per64, &kept);
        first[0] = 0;
        if (i == 0) return write && (count[0] = kept) > 0;
        if (write) return 0;
        if (i == 1) return (count[0] = span) > 0;
        return (count[0] = per / 32) > 0;
    }
    case TL_OP_BRCB: {
        int64_t repeat, blk, rep, span;
        brcb_sizes(call, &repeat, &blk, &rep, &span);
        first[0] = 0;
        if (i == 0) return write && (count[0] = span) > 0;
        return i == 1 && !write && (count[0] = 8 * repeat) > 0;
    }
    case TL_OP_INIT_SORT_BUF:
        if (i != 0 || !write) return 0;
        return init_ranges(tl_tileop_scalar_int(&call->args[1].scalar), first, count);
    default: return tl_tileop_repeat_ranges(call, i, write, first, count);
    }
}
