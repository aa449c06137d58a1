// views: T.reinterpretcast as upstream builds it, a view of the source's memory.
//
// requires: physical scopes (scope_infer)
// ensures:  no reinterpretcast op is left; each became a view buffer
//           (buf->view_of, view_offset) that names its source's bytes, used
//           in place of the destination by the statements after it in its
//           sequence; errors for the casts upstream cannot build either.
//
// Upstream lowers T.reinterpretcast(dst, src, "T") to a declaration,
// `AscendC::LocalTensor<T> dst = src.ReinterpretCast<T>();` (codegen_ascend.cc,
// ReinterpretCastCodegen): no instruction, and from there to the end of the
// enclosing C++ block the name dst is src's memory (from src's region start),
// read as T with dst's declared shape; after the block dst names its own
// buffer again. So a view is placed at its source's address plus its offset
// (exec/layout.c, memplan), never on its own, and accesses through either name
// touch the same bytes for the values, the sync passes and the race detector;
// no pipe runs anything for the cast itself.
//
// The casts kept: dst a whole buffer (upstream declares a variable by its
// name) of the cast type's dtype (the type of that variable), in src's scope,
// on chip; src's region starting at a constant element offset; the view's
// bytes inside the source's from there (past them lie other buffers).
#include "pass/pass.h"

#include "ir/access.h"
#include "pass/rewrite.h"
#include "pass/subst.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    tl_kernel_t *k;
    tl_pass_ctx_t *ctx;
    tl_status_t st;
} views_t;

// The byte offset of region r's start in its buffer, or -1 when it is not a
// constant.
static int64_t start_offset(const tl_region_t *r)
{
    int64_t off = 0;
    for (int d = 0; d < r->ndim; d++) {
        int64_t x;
        if (!tl_ir_is_const_int(r->start[d], &x)) return -1;
        off = off * r->buf->shape[d] + x;
    }
    return off * tl_dtype_size(r->buf->dtype);
}

// "<dst>_view", numbered when taken (buffer names are unique: ir/verify.c).
static void unique_name(const tl_kernel_t *k, const char *dst, char *out, size_t size)
{
    for (int n = 0;; n++) {
        if (n)
            snprintf(out, size, "%s_view%d", dst, n);
        else
            snprintf(out, size, "%s_view", dst);
        bool taken = false;
        for (int i = 0; i < k->buffers.len && !taken; i++)
            taken = !strcmp(((const tl_buffer_t *)k->buffers.items[i])->name, out);
        if (!taken) return;
    }
}

// The view the cast s makes, or NULL (an error reported).
static tl_buffer_t *make_view(views_t *v, const tl_stmt_t *s)
{
    const tl_region_t *dr = &s->op.args[0].region, *sr = &s->op.args[1].region;
    const tl_buffer_t *dst = dr->buf;
    tl_buffer_t *src = sr->buf;
    const char *why = NULL;
    int64_t off = start_offset(sr);
    if (dst->scope != src->scope || src->scope == TL_SCOPE_GM || src->scope == TL_SCOPE_VAR)
        why = "the destination must be a buffer of the source's on-chip memory";
    else if (!tl_access_region_whole(dr))
        why = "the destination must be a whole buffer (upstream declares a tensor of that name)";
    else if (s->op.dtype != dst->dtype)
        why = "the cast type must be the destination's dtype (upstream's view has the cast "
              "type, the destination's uses its dtype)";
    else if (off < 0)
        why = "the source region must start at a constant element offset";
    else if (off + tl_buffer_bytes(dst) > tl_buffer_bytes(src))
        why = "the destination is larger than the source's bytes from the region's start "
              "(past them lie other buffers)";
    if (why) {
        v->st = tl_diag_error(v->ctx->diag, s->loc,
                              "T.reinterpretcast('%s', '%s'): %s; upstream makes the destination "
                              "a view of the source's memory",
                              dst->name, src->name, why);
        return NULL;
    }
    if (src->view_of) { // a view of a view: of the first source
        off += src->view_offset;
        src = src->view_of;
    }
    char name[256];
    unique_name(v->k, dst->name, name, sizeof name);
    tl_buffer_t *b =
        tl_ir_buffer(v->k, name, dst->scope, dst->dtype, dst->ndim, dst->shape, s->loc);
    b->declared = dst->declared;
    b->view_of = src;
    b->view_offset = off;
    return b;
}

static void rewrite(views_t *v, tl_stmt_t *s);

// Each cast of seq becomes a view used by the items after it.
static void rewrite_seq(views_t *v, tl_stmt_t *seq)
{
    for (int i = 0; i < seq->seq.n && v->st == TL_OK;) {
        tl_stmt_t *s = seq->seq.items[i];
        if (s->kind != TL_ST_OP || s->op.code != TL_OP_REINTERPRETCAST) {
            rewrite(v, s);
            i++;
            continue;
        }
        tl_buffer_t *view = make_view(v, s);
        if (!view) return;
        tl_subst_t m;
        tl_subst_init(&m);
        tl_subst_buffer(&m, s->op.args[0].region.buf, view);
        for (int j = i + 1; j < seq->seq.n; j++)
            seq->seq.items[j] = tl_subst_stmt(v->k, &m, seq->seq.items[j]);
        tl_subst_free(&m);
        tl_rewrite_remove(seq, i);
    }
}

static void rewrite(views_t *v, tl_stmt_t *s)
{
    if (!s || v->st != TL_OK) return;
    switch (s->kind) {
    case TL_ST_SEQ: rewrite_seq(v, s); break;
    case TL_ST_FOR: rewrite(v, s->for_.body); break;
    case TL_ST_WHILE: rewrite(v, s->while_.body); break;
    case TL_ST_IF:
        rewrite(v, s->if_.then_);
        rewrite(v, s->if_.else_);
        break;
    case TL_ST_SCOPE: rewrite(v, s->scope.body); break;
    default: break;
    }
}

tl_status_t tl_pass_views(tl_kernel_t *k, tl_pass_ctx_t *ctx)
{
    views_t v = {k, ctx, TL_OK};
    if (!k->body) return TL_OK;
    tl_rewrite_normalize(k);
    rewrite(&v, k->body);
    return v.st;
}
