// The memory layout shared by the backends (layout.h).
#include "exec/layout.h"
#include "ir/overrun.h"
#include "target/arch.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { ALIGN = 32 }; // placement alignment of a buffer without a planned address

static tl_status_t overflow(const tl_layout_t *l, const tl_kernel_t *k, const tl_buffer_t *b,
                            int64_t at, int64_t size, tl_diag_t *d)
{
    tl_buf_t placed;
    tl_buf_init(&placed);
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *o = k->buffers.items[i];
        if (o == b) break;
        if (o->scope != b->scope) continue;
        tl_buf_printf(&placed, "%s'%s' %" PRId64 " B at %" PRId64, placed.len ? ", " : "", o->name,
                      tl_buffer_bytes(o), l->addr[o->id]);
    }
    tl_status_t st =
        tl_diag_report(d, TL_SEV_ERROR, b->loc, TL_ERR_RUNTIME,
                       "%s overflow: '%s' (%" PRId64 " B at %" PRId64 ") does not fit in %" PRId64
                       " B, %" PRId64 " B over; placed before it: %s",
                       tl_scope_name(b->scope), b->name, size, at, l->cap[b->scope],
                       at + size - l->cap[b->scope], placed.len ? tl_buf_cstr(&placed) : "nothing");
    tl_buf_free(&placed);
    return st;
}

// First 32-byte aligned address >= at where `size` bytes overlap no pinned buffer.
static int64_t skip_pinned(const tl_kernel_t *k, const tl_buffer_t *b, int64_t at, int64_t size)
{
    for (bool moved = true; moved;) {
        moved = false;
        for (int i = 0; i < k->buffers.len; i++) {
            const tl_buffer_t *o = k->buffers.items[i];
            if (o == b || o->scope != b->scope || o->addr < 0) continue;
            int64_t end = o->addr + tl_buffer_bytes(o);
            if (at < end && o->addr < at + size) {
                at = TL_ALIGN_UP(end, ALIGN);
                moved = true;
            }
        }
    }
    return at;
}

// Bytes of UB a vector agent addresses: the chip's physical UB, times
// k->threads for a developer kernel whose one vector agent stands for both AIVs.
static int64_t ub_arena_bytes(const tl_kernel_t *k)
{
    int64_t ub = tl_arch_physical(tl_arch_default(), TL_SCOPE_UB);
    return k->threads > 1 ? ub * k->threads : ub;
}

tl_status_t tl_layout_build(tl_layout_t *l, const tl_kernel_t *k, const int64_t *capacity,
                            tl_diag_t *d)
{
    memset(l, 0, sizeof *l);
    for (int s = 0; s < TL_SCOPE_COUNT; s++)
        l->cap[s] = capacity && capacity[s] > 0
                        ? capacity[s]
                        : tl_arch_physical(tl_arch_default(), (tl_scope_t)s);
    if (k->threads > 1 && !(capacity && capacity[TL_SCOPE_UB] > 0))
        l->cap[TL_SCOPE_UB] *= k->threads; // one logical vector agent for both AIVs
    l->addr = calloc((size_t)k->buffers.len + 1, sizeof *l->addr);
    if (!l->addr) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    int64_t bump[TL_SCOPE_COUNT] = {0};
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        l->addr[i] = -1;
        if (b->scope == TL_SCOPE_GM) continue;
        if (b->scope == TL_SCOPE_SHARED || b->scope == TL_SCOPE_FRAGMENT)
            return tl_diag_report(d, TL_SEV_ERROR, b->loc, TL_ERR_RUNTIME,
                                  "buffer '%s' is still in the developer scope '%s': scope "
                                  "inference has not run",
                                  b->name, tl_scope_name(b->scope));
        int64_t n = 1, at;
        for (int j = 0; j < b->ndim; j++) {
            if (b->shape[j] < 0 || (b->shape[j] && n > (INT64_C(1) << 40) / b->shape[j]))
                return tl_diag_report(
                    d, TL_SEV_ERROR, b->loc, TL_ERR_RUNTIME,
                    "buffer '%s' has an impossible shape (dimension %d is %" PRId64 ")", b->name, j,
                    b->shape[j]);
            n *= b->shape[j];
        }
        int64_t bytes = tl_buffer_bytes(b);
        if (b->scope == TL_SCOPE_VAR) {
            at = l->extent[TL_SCOPE_VAR];
            l->addr[i] = at;
            l->extent[TL_SCOPE_VAR] = at + TL_ALIGN_UP(TL_MAX(bytes, 1), 8);
            continue;
        }
        int64_t size = TL_ALIGN_UP(bytes, ALIGN);
        if (b->view_of) { // T.reinterpretcast: its source's bytes (pass/views.c)
            l->addr[i] = l->addr[b->view_of->id] + b->view_offset;
            continue;
        }
        if (b->addr >= 0) {
            at = b->addr;
        } else {
            at = skip_pinned(k, b, TL_ALIGN_UP(bump[b->scope], ALIGN), size);
            bump[b->scope] = at + size;
        }
        l->addr[i] = at;
        if (at + bytes > l->cap[b->scope]) return overflow(l, k, b, at, bytes, d);
        l->extent[b->scope] = TL_MAX(l->extent[b->scope], at + size);
    }
    memcpy(l->arena, l->extent, sizeof l->arena);
    l->overruns = l->extent[TL_SCOPE_UB] && tl_overrun_possible(k);
    if (l->overruns) l->arena[TL_SCOPE_UB] = TL_MAX(l->extent[TL_SCOPE_UB], ub_arena_bytes(k));
    return tl_overrun_report(k, l, d);
}

size_t tl_layout_reach(const tl_layout_t *l, const tl_buffer_t *b)
{
    return l->overruns && b->scope == TL_SCOPE_UB ? (size_t)(l->arena[TL_SCOPE_UB] - l->addr[b->id])
                                                  : 0;
}

void tl_layout_free(tl_layout_t *l)
{
    free(l->addr);
    l->addr = NULL;
}

void tl_layout_unbounded(int64_t capacity[TL_SCOPE_COUNT])
{
    for (int s = 0; s < TL_SCOPE_COUNT; s++) capacity[s] = 64 << 20;
}

bool tl_layout_owns(tl_agent_t a, tl_scope_t s)
{
    bool chip = s == TL_SCOPE_L1 || s == TL_SCOPE_L0A || s == TL_SCOPE_L0B || s == TL_SCOPE_L0C ||
                s == TL_SCOPE_UB;
    return chip && (a == TL_AGENT_AIC) == (tl_scope_side(s) == TL_SIDE_CUBE);
}
