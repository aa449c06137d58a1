// Executor memory: the byte arrays of each agent at the addresses of the
// layout (layout.h) (filled with 0xFF at block start), bounds-checked element
// access, evaluated views for tile ops, and written-byte tracking for the
// uninitialised-read warning.
#include "exec/exec_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool owns(tl_agent_t a, tl_scope_t s)
{
    return s == TL_SCOPE_VAR || tl_layout_owns(a, s);
}

static tl_status_t init_vars(tl_exec_t *x, tl_exec_agent_t *ag)
{
    for (int i = 0; i < x->k->buffers.len; i++) {
        const tl_buffer_t *b = x->k->buffers.items[i];
        if (b->scope != TL_SCOPE_VAR || !b->init) continue;
        tl_exec_ctx_t c = {x, ag, NULL, false};
        tl_num_t v;
        tl_status_t st = tl_exec_eval(&c, b->init, &v);
        if (st) return st;
        tl_num_store(b->dtype, ag->mem[TL_SCOPE_VAR] + x->layout.addr[i], v);
        tl_exec_mem_mark(&c, b, 0, tl_dtype_size(b->dtype));
    }
    return TL_OK;
}

tl_status_t tl_exec_mem_block_init(tl_exec_t *x, tl_exec_block_t *b, int64_t index)
{
    b->index = index;
    size_t nvars = (size_t)x->k->vars.len + 1;
    for (int a = 0; a < TL_AGENT_COUNT; a++) {
        tl_exec_agent_t *ag = &b->ag[a];
        ag->blk = b;
        ag->id = (tl_agent_t)a;
        ag->vid = a == TL_AGENT_AIC ? 0 : a - 1;
        ag->present = x->lanes & TL_LANE(a);
        if (!ag->present) continue;
        for (int s = 0; s < TL_SCOPE_COUNT; s++) {
            size_t len = (size_t)x->layout.arena[s];
            if (!owns(ag->id, (tl_scope_t)s) || !len) continue;
            if (!ag->mem[s]) ag->mem[s] = malloc(len);
            if (x->opts.warn_uninit && !ag->wbits[s]) ag->wbits[s] = calloc((len + 7) / 8, 1);
            if (!ag->mem[s] || (x->opts.warn_uninit && !ag->wbits[s]))
                return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory for the %s scratchpads",
                                    tl_side_agent_name(ag->id));
            memset(ag->mem[s], 0xFF, len);
            if (ag->wbits[s]) memset(ag->wbits[s], 0, (len + 7) / 8);
        }
        if (!ag->vals) ag->vals = calloc(nvars, sizeof *ag->vals);
        if (!ag->defined) ag->defined = calloc(nvars, 1);
        if (!ag->vals || !ag->defined) return tl_diag_fail(x->d, TL_ERR_NOMEM, "out of memory");
        memset(ag->defined, 0, nvars);
        ag->ctx = (tl_tileop_ctx_t){x->d, 1.0f, x->dev, NULL};
        tl_flags_reset(&ag->fl, index, ag->id);
        if (x->xcarry) tl_flags_restore_cross(&ag->fl, &x->xcarry[(index % x->xcores) * TL_AGENT_COUNT + a]);
        tl_status_t st = init_vars(x, ag);
        if (st) return st;
    }
    return TL_OK;
}

void tl_exec_mem_block_free(tl_exec_block_t *b)
{
    for (int a = 0; a < TL_AGENT_COUNT; a++) {
        tl_exec_agent_t *ag = &b->ag[a];
        for (int s = 0; s < TL_SCOPE_COUNT; s++) {
            free(ag->mem[s]);
            free(ag->wbits[s]);
        }
        free(ag->vals);
        free(ag->defined);
        memset(ag, 0, sizeof *ag);
    }
}

tl_exec_agent_t *tl_exec_mem_owner(const tl_exec_ctx_t *c, const tl_buffer_t *b)
{
    if (!c->ag) return NULL;
    if (b->scope == TL_SCOPE_VAR) return c->ag;
    if (tl_layout_owns(TL_AGENT_AIC, b->scope)) return &c->ag->blk->ag[TL_AGENT_AIC];
    return tl_layout_owns(c->ag->id, b->scope) ? c->ag : NULL;
}

static tl_status_t no_access(const tl_exec_ctx_t *c, tl_loc_t loc, const tl_buffer_t *b)
{
    return tl_exec_fail(c, loc, "the %s cannot access %s buffer '%s'",
                        c->ag ? tl_side_agent_name(c->ag->id) : "host", tl_scope_name(b->scope),
                        b->name);
}

static tl_status_t out_of_bounds(const tl_exec_ctx_t *c, tl_loc_t loc, const tl_buffer_t *b, int n,
                                 const int64_t *idx, int ndim, const int64_t *shape)
{
    tl_buf_t i, s;
    tl_buf_init(&i);
    tl_buf_init(&s);
    tl_tensor_format_dims(&i, n, idx);
    tl_tensor_format_dims(&s, ndim, shape);
    tl_status_t st =
        tl_exec_fail(c, loc, "index %s is out of bounds for '%s' of shape %s (%s)", tl_buf_cstr(&i),
                     b->name, tl_buf_cstr(&s), tl_scope_name(b->scope));
    tl_buf_free(&i);
    tl_buf_free(&s);
    return st;
}

tl_status_t tl_exec_mem_elem(const tl_exec_ctx_t *c, const tl_buffer_t *b, int n,
                             const int64_t *idx, tl_loc_t loc, uint8_t **p, int64_t *elem,
                             int64_t *addr)
{
    tl_exec_t *x = c->x;
    int size = tl_dtype_size(b->dtype);
    int ndim = b->ndim;
    const int64_t *shape = b->shape;
    int64_t one = 1;
    uint8_t *base;
    *addr = -1;
    if (b->scope == TL_SCOPE_GM) {
        const tl_tensor_t *t = x->args->gm[b->id];
        if (!t) return tl_exec_fail(c, loc, "GM buffer '%s' has no tensor", b->name);
        base = t->data;
        ndim = t->ndim;
        shape = t->shape;
    } else {
        // (the AscendC scalar unit reaches UB only: LocalTensor GetValue / SetValue;
        // an unlowered T.Parallel element copy stands for the copy upstream makes)
        bool l0 = b->scope == TL_SCOPE_L0A || b->scope == TL_SCOPE_L0B || b->scope == TL_SCOPE_L0C;
        if (l0 && !c->in_parallel)
            return tl_exec_fail(c, loc,
                                "scalar access to %s buffer '%s': only GM, UB, L1 and alloc_var "
                                "buffers can be read or written element by element",
                                tl_scope_name(b->scope), b->name);
        tl_exec_agent_t *owner = tl_exec_mem_owner(c, b);
        if (!owner || owner != c->ag) return no_access(c, loc, b);
        base = owner->mem[b->scope] + x->layout.addr[b->id];
        if (b->scope == TL_SCOPE_VAR && n != ndim) { // x[0] on a scalar register
            ndim = 1;
            one = tl_buffer_numel(b);
            shape = &one;
        } else if (b->scope != TL_SCOPE_VAR) {
            *addr = x->layout.addr[b->id];
        }
    }
    if (n != ndim)
        return tl_exec_fail(c, loc, "'%s' has %d dimensions but is indexed with %d", b->name, ndim,
                            n);
    int64_t flat = 0;
    for (int i = 0; i < n; i++) {
        if (idx[i] < 0 || idx[i] >= shape[i]) return out_of_bounds(c, loc, b, n, idx, ndim, shape);
        flat = flat * shape[i] + idx[i];
    }
    *elem = flat;
    if (*addr >= 0) *addr += flat * size;
    *p = base + flat * size;
    return TL_OK;
}

tl_status_t tl_exec_mem_view(const tl_exec_ctx_t *c, const tl_region_t *r, tl_loc_t loc,
                             tl_view_t *v)
{
    tl_exec_t *x = c->x;
    const tl_buffer_t *b = r->buf;
    memset(v, 0, sizeof *v);
    v->dtype = b->dtype;
    v->scope = b->scope;
    v->ndim = r->ndim;
    v->form = r->form;
    v->name = b->name;
    v->int4 = b->int4;
    if (r->ndim > TL_MAX_DIMS)
        return tl_exec_fail(c, loc, "region of '%s' has too many dimensions", b->name);
    if (b->scope == TL_SCOPE_GM) {
        tl_tensor_t *t = x->args->gm[b->id];
        if (!t) return tl_exec_fail(c, loc, "GM buffer '%s' has no tensor", b->name);
        if (t->ndim != r->ndim)
            return tl_exec_fail(c, loc, "region of '%s' has rank %d, the tensor has rank %d",
                                b->name, r->ndim, t->ndim);
        v->data = t->data;
        v->bytes = tl_tensor_nbytes(t);
        memcpy(v->shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
    } else {
        if (b->scope == TL_SCOPE_VAR)
            return tl_exec_fail(c, loc, "alloc_var '%s' cannot be a tile operand", b->name);
        tl_exec_agent_t *owner = tl_exec_mem_owner(c, b);
        if (!owner || (owner != c->ag && !x->dev)) return no_access(c, loc, b);
        v->data = owner->mem[b->scope] + x->layout.addr[b->id];
        v->bytes = (size_t)tl_buffer_bytes(b);
        v->reach = tl_layout_reach(&x->layout, b);
        memcpy(v->shape, b->shape, sizeof(int64_t) * (size_t)b->ndim);
    }
    tl_status_t st;
    for (int i = 0; i < r->ndim; i++) {
        if ((st = tl_exec_eval_int(c, r->start[i], &v->start[i]))) return st;
        if ((st = tl_exec_eval_int(c, r->extent[i], &v->extent[i]))) return st;
    }
    return TL_OK;
}

// Written bits of the scratchpad bytes [off, off + len) of buffer b, or NULL
// when b is not tracked; *base receives the buffer's address.
static uint8_t *wbits(const tl_exec_ctx_t *c, const tl_buffer_t *b, int64_t *off, int64_t *len)
{
    if (!c->x->opts.warn_uninit || b->scope == TL_SCOPE_GM) return NULL;
    tl_exec_agent_t *owner = tl_exec_mem_owner(c, b);
    if (!owner || !owner->wbits[b->scope]) return NULL;
    int64_t bytes = b->scope == TL_SCOPE_VAR ? TL_MAX(tl_buffer_bytes(b), 1) : tl_buffer_bytes(b);
    if (*off < 0) {
        *len += *off;
        *off = 0;
    }
    if (*off + *len > bytes) *len = bytes - *off;
    if (*len <= 0) return NULL;
    *off += c->x->layout.addr[b->id];
    return owner->wbits[b->scope];
}

void tl_exec_mem_mark(const tl_exec_ctx_t *c, const tl_buffer_t *b, int64_t off, int64_t len)
{
    uint8_t *w = wbits(c, b, &off, &len);
    if (!w) return;
    for (int64_t i = off; i < off + len; i++) w[i >> 3] |= (uint8_t)(1u << (i & 7));
}

bool tl_exec_warned(tl_exec_t *x, const void *st, const void *b)
{
    for (int i = 0; i < x->nwarned; i += 2)
        if (x->warned[i] == st && x->warned[i + 1] == b) return true;
    if (x->nwarned + 2 > x->capwarned) {
        int cap = x->capwarned ? x->capwarned * 2 : 32;
        const void **p = realloc(x->warned, sizeof *p * (size_t)cap);
        if (!p) return true;
        x->warned = p;
        x->capwarned = cap;
    }
    x->warned[x->nwarned++] = st;
    x->warned[x->nwarned++] = b;
    return false;
}

void tl_exec_mem_check(const tl_exec_ctx_t *c, const tl_buffer_t *b, int64_t off, int64_t len,
                       const char *what)
{
    uint8_t *w = wbits(c, b, &off, &len);
    if (!w) return;
    int64_t i = off, end = off + len;
    while (i < end && (w[i >> 3] >> (i & 7) & 1)) i++;
    if (i == end) return;
    int64_t j = i;
    while (j < end && !(w[j >> 3] >> (j & 7) & 1)) j++;
    if (tl_exec_warned(c->x, c->st, b)) return;
    int64_t base = c->x->layout.addr[b->id];
    tl_diag_warning(c->x->d, c->st ? c->st->loc : b->loc,
                    "%s on the %s reads bytes [%" PRId64 ", %" PRId64 ") of '%s' (%s) that were "
                    "never written in block %" PRId64,
                    what, tl_side_agent_name(c->ag->id), i - base, j - base, b->name,
                    tl_scope_name(b->scope), c->ag->blk->index);
}
