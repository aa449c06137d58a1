// Tracing a @T.prim_func body into Tile IR: parameters, the kernel launch,
// IR loops, ifs and whiles, `with` frames, name bindings (lets and alloc_var
// stores), buffer subscripts (loads and regions) and element stores.
//
// Pure arithmetic bound to a name (`bx = cid % m`) is substituted where it is
// used rather than bound with a let: it has no side effects and keeps region
// extents analysable (`x[s : s + 64]` has extent 64). A value that reads a
// buffer (`idx = idxs_ub[i]`) gets a let, because it must be read at that
// point of the program.
#include "front/eval.h"

#include "ir/walk.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void tl_trace_emit(tl_eval_t *ev, tl_stmt_t *s)
{
    tl_ir_seq_push(ev->kernel, ev->block, s);
}

bool tl_trace_require(tl_eval_t *ev, tl_loc_t loc, const char *what)
{
    if (ev->kernel) return true;
    tl_eval_fail(ev, loc, "%s can only be used inside a @T.prim_func body", what);
    return false;
}

// The names a kernel's buffers and variables have, brought up to date with
// those added since the last call (a hash: a kernel traced from thousands of
// statements gets thousands of lets), and per base name the next suffix.
static tl_map_t *names_of(tl_eval_t *ev, tl_kernel_t *k)
{
    tl_trace_names_t *t = &ev->names;
    if (t->kernel != k) {
        memset(t, 0, sizeof *t);
        t->kernel = k;
        tl_map_init(&t->taken, ev->arena);
        tl_map_init(&t->next, ev->arena);
    }
    for (; t->nbuffers < k->buffers.len; t->nbuffers++)
        tl_map_put(&t->taken, ((tl_buffer_t *)k->buffers.items[t->nbuffers])->name, t);
    for (; t->nvars < k->vars.len; t->nvars++)
        tl_map_put(&t->taken, ((tl_var_t *)k->vars.items[t->nvars])->name, t);
    return &t->taken;
}

// `base`, or `base_1`, `base_2`... so that every buffer and variable of a kernel
// has a distinct name in dumps and generated code.
const char *tl_trace_unique_name(tl_eval_t *ev, const char *base)
{
    tl_kernel_t *k = ev->kernel;
    if (!base || !*base || !strcmp(base, "_")) base = "v";
    tl_map_t *taken = names_of(ev, k);
    if (!tl_map_has(taken, base)) return base;
    intptr_t i = (intptr_t)tl_map_get(&ev->names.next, base);
    for (i = i ? i : 1;; i++) {
        char *n = tl_arena_printf(ev->arena, "%s_%d", base, (int)i);
        if (!tl_map_has(taken, n)) {
            tl_map_put(&ev->names.next, base, (void *)(i + 1));
            return n;
        }
    }
}

// --- bindings and stores -------------------------------------------------------------------

static tl_stmt_t *make_store(tl_eval_t *ev, tl_buffer_t *b, int n, tl_expr_t **idx, tl_value_t *v,
                             tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_expr_t *e = tl_value_to_expr(ev, v, loc, b->dtype);
    if (!e) return NULL;
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_STORE, loc);
    s->store.buf = b;
    s->store.n = n;
    s->store.idx = tl_arena_dup(ev->arena, idx, sizeof *idx * (size_t)n);
    s->store.value = tl_ir_cast(k, b->dtype, e, loc);
    return s;
}

bool tl_trace_bind(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *target, tl_value_t *v)
{
    const char *name = target->name.id;
    tl_value_t *old = tl_env_lookup(fr->env, name);
    // In a traced frame a name bound to a T.alloc_var reads as its value:
    // `w = v` stores v's value into the variable w, or binds a new name to
    // that value (a let), as TileLang's parser does; only a buffer not yet
    // named (T.alloc_var's result) binds the name to the variable itself.
    if (fr->traced && v->kind == TL_V_BUFFER && v->buffer->scope == TL_SCOPE_VAR) {
        if (!v->var_named) {
            v->var_named = true;
        } else {
            tl_expr_t *e = tl_value_to_expr(ev, v, target->loc, -1);
            if (!e) return false;
            v = tl_value_expr(ev->arena, e);
        }
    }
    // Assigning to a T.alloc_var scalar stores into it (TileLang's parser rule).
    // A plain Python function called from the kernel is run by Python, not parsed:
    // there `acc = acc + x` rebinds the name even when acc started as a variable.
    if (fr->traced && old && old->kind == TL_V_BUFFER && old->buffer->scope == TL_SCOPE_VAR && old != v &&
        tl_value_is_exprlike(v) && !(v->kind == TL_V_BUFFER && v->buffer->scope == TL_SCOPE_VAR)) {
        tl_expr_t *zero = tl_ir_int(ev->kernel, 0, TL_I32, target->loc);
        tl_stmt_t *s = make_store(ev, old->buffer, 1, &zero, v, target->loc);
        if (!s) return false;
        tl_trace_emit(ev, s);
        return true;
    }
    if (v->kind == TL_V_EXPR && tl_walk_has_load(v->expr)) {
        tl_kernel_t *k = ev->kernel;
        tl_var_t *var = tl_ir_var(k, tl_trace_unique_name(ev, name), v->expr->dtype, TL_VAR_LET,
                                  target->loc);
        tl_stmt_t *s = tl_ir_stmt(k, TL_ST_LET, target->loc);
        s->let.var = var;
        s->let.value = v->expr;
        tl_trace_emit(ev, s);
        v = tl_value_expr(ev->arena, tl_ir_varref(k, var, target->loc));
    }
    tl_env_set(ev, fr->env, name, v);
    return true;
}

// Evaluates the items of a subscript: each is a scalar index or a slice.
typedef struct {
    int n;
    bool any_slice;
    tl_expr_t *start[TL_MAX_DIMS], *extent[TL_MAX_DIMS];
    tl_loc_t loc[TL_MAX_DIMS];
} index_t;

// Size of dimension d in elements (an int4 buffer's last one holds two a byte).
static tl_expr_t *dim_size(tl_eval_t *ev, const tl_buffer_t *b, int d, tl_loc_t loc)
{
    bool packed = b->int4 && d == b->ndim - 1;
    if (b->gm_shape[d])
        return packed ? tl_ir_bin(ev->kernel, TL_BIN_MUL, b->gm_shape[d], tl_ir_int(ev->kernel, 2, TL_I32, loc), loc)
                      : b->gm_shape[d];
    return tl_ir_int(ev->kernel, b->shape[d] * (packed ? 2 : 1), TL_I32, loc);
}

// An int4 buffer's last index or extent in elements -> in bytes (two elements a
// byte): a constant must be even; an expression is halved rounding down, as
// AscendC addresses int4b_t tensors (element offset / 2 bytes).
static tl_expr_t *int4_bytes(tl_eval_t *ev, const tl_buffer_t *b, tl_expr_t *e, tl_loc_t loc,
                             const char *what)
{
    int64_t c;
    if (tl_ir_is_const_int(e, &c)) {
        if (c % 2) {
            tl_eval_fail(ev, loc, "int4 buffer '%s': %s %lld of its last dimension is odd; two int4 "
                                  "elements share a byte, so regions of it start and end at even "
                                  "columns",
                         b->name, what, (long long)c);
            return NULL;
        }
        return tl_ir_int(ev->kernel, c / 2, TL_I32, loc);
    }
    return tl_ir_bin(ev->kernel, TL_BIN_FLOORDIV, e, tl_ir_int(ev->kernel, 2, TL_I32, loc), loc);
}

static tl_expr_t *index_expr(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n)
{
    tl_value_t *v = tl_eval_expr(ev, fr, n);
    if (!v) return NULL;
    tl_expr_t *e = tl_value_to_expr(ev, v, n->loc, -1);
    if (e && tl_dtype_is_float(e->dtype)) {
        tl_eval_fail(ev, n->loc, "buffer index must be an integer, got %s", tl_dtype_name(e->dtype));
        return NULL;
    }
    return e;
}

static bool eval_index(tl_eval_t *ev, tl_frame_t *fr, const tl_buffer_t *b, const tl_ast_node_t *ix,
                       index_t *out)
{
    tl_kernel_t *k = ev->kernel;
    const tl_ast_node_t *items[TL_MAX_DIMS + 1];
    int n = 0;
    if (ix->kind == TL_AST_TUPLE) {
        if (ix->seq.elts.len > TL_MAX_DIMS) {
            tl_eval_fail(ev, ix->loc, "too many indices");
            return false;
        }
        for (int i = 0; i < ix->seq.elts.len; i++) items[n++] = ix->seq.elts.items[i];
    } else {
        items[n++] = ix;
    }
    int ndim = b->scope == TL_SCOPE_VAR ? 1 : b->ndim;
    if (n > ndim) {
        tl_eval_fail(ev, ix->loc, "'%s' has %d dimension%s but is indexed with %d", b->name, ndim,
                     ndim == 1 ? "" : "s", n);
        return false;
    }
    memset(out, 0, sizeof *out);
    out->n = ndim;
    for (int i = 0; i < ndim; i++) {
        const tl_ast_node_t *it = i < n ? items[i] : NULL;
        out->loc[i] = it ? it->loc : ix->loc;
        if (it && it->kind != TL_AST_SLICE) {
            if (!(out->start[i] = index_expr(ev, fr, it))) return false;
            out->extent[i] = NULL;
            continue;
        }
        // A slice, or a missing trailing index (the whole dimension).
        out->any_slice = true;
        if (it && it->slice.step) {
            tl_eval_fail(ev, it->slice.step->loc, "stepped slices of buffers are not supported");
            return false;
        }
        tl_expr_t *lo = it && it->slice.lower ? index_expr(ev, fr, it->slice.lower)
                                              : tl_ir_int(k, 0, TL_I32, out->loc[i]);
        tl_expr_t *hi = it && it->slice.upper ? index_expr(ev, fr, it->slice.upper)
                                              : dim_size(ev, b, i, out->loc[i]);
        if (!lo || !hi) return false;
        int64_t ext;
        out->start[i] = lo;
        out->extent[i] = tl_ir_const_diff(hi, lo, &ext) ? tl_ir_int(k, ext, TL_I32, out->loc[i])
                                                        : tl_ir_bin(k, TL_BIN_SUB, hi, lo, out->loc[i]);
        if (tl_ir_is_const_int(out->extent[i], &ext) && ext <= 0) {
            tl_eval_fail(ev, out->loc[i], "empty slice of '%s' in dimension %d", b->name, i);
            return false;
        }
    }
    // Constant indices into on-chip buffers are checked now.
    for (int i = 0; i < ndim && b->scope != TL_SCOPE_GM && b->scope != TL_SCOPE_VAR; i++) {
        int64_t s, e = 1, size = b->shape[i] * (b->int4 && i == ndim - 1 ? 2 : 1);
        if (!tl_ir_is_const_int(out->start[i], &s)) continue;
        if (out->extent[i] && !tl_ir_is_const_int(out->extent[i], &e)) continue;
        if (s < 0 || s + e > size) {
            tl_eval_fail(ev, out->loc[i], "index %lld%s is out of bounds for dimension %d of '%s' "
                                          "(size %lld)",
                         (long long)s, e > 1 ? tl_arena_printf(ev->arena, ":%lld", (long long)(s + e)) : "",
                         i, b->name, (long long)size);
            return false;
        }
    }
    // int4: the last dimension's index and extent in the packed bytes
    if (b->int4 && ndim >= 1) {
        int d = ndim - 1;
        if (!(out->start[d] = int4_bytes(ev, b, out->start[d], out->loc[d], "index")) ||
            (out->extent[d] && !(out->extent[d] = int4_bytes(ev, b, out->extent[d], out->loc[d], "extent"))))
            return false;
    }
    return true;
}

tl_value_t *tl_trace_subscript(tl_eval_t *ev, tl_frame_t *fr, tl_value_t *buf,
                               const tl_ast_node_t *index, tl_loc_t loc)
{
    if (!tl_trace_require(ev, loc, "indexing a buffer")) return NULL;
    tl_buffer_t *b = buf->buffer;
    index_t ix;
    if (!eval_index(ev, fr, b, index, &ix)) return NULL;
    if (!ix.any_slice) {
        if (b->scope == TL_SCOPE_VAR) {
            int64_t z;
            if (!tl_ir_is_const_int(ix.start[0], &z) || z != 0)
                return tl_eval_fail(ev, loc, "a T.alloc_var scalar can only be indexed with [0]");
        }
        return tl_value_expr(ev->arena, tl_ir_load(ev->kernel, b, ix.n, ix.start, loc));
    }
    tl_region_t *r = tl_arena_alloc(ev->arena, sizeof *r);
    r->buf = b;
    r->form = TL_REGION_SLICE;
    r->ndim = ix.n;
    r->loc = loc;
    for (int i = 0; i < ix.n; i++) {
        r->start[i] = ix.start[i];
        r->extent[i] = ix.extent[i] ? ix.extent[i] : tl_ir_int(ev->kernel, 1, TL_I32, loc);
    }
    tl_value_t *v = tl_value_new(ev->arena, TL_V_REGION);
    v->region = r;
    return v;
}

bool tl_trace_store(tl_eval_t *ev, tl_frame_t *fr, tl_value_t *buf, const tl_ast_node_t *index,
                    tl_value_t *v, tl_loc_t loc)
{
    if (!tl_trace_require(ev, loc, "storing into a buffer")) return false;
    tl_buffer_t *b = buf->buffer;
    if (b->int4) {
        tl_eval_fail(ev, loc, "cannot store an element of int4 buffer '%s': its elements are "
                              "packed two a byte (write it with T.copy or T.tile.cast)", b->name);
        return false;
    }
    index_t ix;
    if (!eval_index(ev, fr, b, index, &ix)) return false;
    if (ix.any_slice) {
        tl_eval_fail(ev, loc, "assigning to a slice of '%s' is not supported; use T.copy or "
                              "T.tile.fill", b->name);
        return false;
    }
    if (!tl_value_is_exprlike(v)) {
        tl_eval_fail(ev, loc, "cannot store %s into '%s'", tl_value_type_name(v), b->name);
        return false;
    }
    tl_stmt_t *s = make_store(ev, b, ix.n, ix.start, v, loc);
    if (!s) return false;
    tl_trace_emit(ev, s);
    return true;
}

// --- control flow -------------------------------------------------------------------------------

// Names bound inside an IR loop or branch are local to it, as in TVMScript:
// afterwards a name that existed before has its old value again (the outer
// `i` after an inner `for i in T.Parallel(...)`), and a name the body
// introduced cannot be used.
static void scope_enter(tl_eval_t *ev, tl_frame_t *fr, tl_map_t *saved)
{
    tl_map_init(saved, ev->arena);
    const tl_map_t *m = &fr->env->names;
    for (int i = 0; i < m->cap; i++)
        if (m->slots[i].key) tl_map_put(saved, m->slots[i].key, m->slots[i].value);
}

// A name rebound inside an IR loop or branch and reverted after it (ev->reverted).
typedef struct {
    const tl_env_t *env;
    const tl_value_t *value; // the value from before the body, bound again
    int line;                // the loop's or branch's
} tl_reverted_t;

// Names first bound inside the body become errors after it; names it rebound get
// their earlier value back, as TVMScript scopes a body's names (except the loop
// variables `skip`, which are the body's own).
static void scope_leave(tl_eval_t *ev, tl_frame_t *fr, const tl_map_t *saved, tl_loc_t loc,
                        const char *const *skip, int nskip)
{
    tl_map_t *m = &fr->env->names;
    for (int i = 0; i < m->cap; i++) {
        const char *k = m->slots[i].key;
        if (!k) continue;
        tl_value_t *old = tl_map_get(saved, k);
        if (old == m->slots[i].value) continue;
        m->slots[i].value =
            old ? old
                : tl_value_error(ev->arena,
                                 tl_arena_printf(ev->arena, "'%s' is bound inside the kernel loop or branch at "
                                                            "line %d and is not visible after it", k, loc.line),
                                 loc);
        bool own = false;
        for (int j = 0; j < nskip; j++) own = own || !strcmp(skip[j], k);
        if (!old || own) continue;
        tl_reverted_t *r = tl_arena_alloc(ev->arena, sizeof *r);
        *r = (tl_reverted_t){fr->env, old, loc.line};
        tl_map_put(&ev->reverted, k, r);
    }
}

void tl_trace_check_reverted(tl_eval_t *ev, tl_frame_t *fr, const char *name, const tl_value_t *v,
                             tl_loc_t loc)
{
    tl_reverted_t *r = ev->reverted.len ? tl_map_get(&ev->reverted, name) : NULL;
    if (!r) return;
    tl_map_put(&ev->reverted, name, NULL);
    if (r->env != fr->env || r->value != v) return;
    tl_diag_warning(ev->diag, loc,
                    "'%s' here is its value from before the kernel loop or branch at line %d: the "
                    "assignment to it inside binds a name local to that body, as in TileLang's parser; "
                    "to carry a value out of it, make '%s' a T.alloc_var",
                    name, r->line, name);
}

// Runs `body` with statements going into a fresh sequence; returns it.
static tl_stmt_t *trace_block(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_list_t *body,
                              tl_loc_t loc, tl_flow_t *flow)
{
    tl_stmt_t *saved = ev->block, *seq = tl_ir_seq(ev->kernel, loc);
    tl_map_t names;
    scope_enter(ev, fr, &names);
    ev->block = seq;
    *flow = tl_exec_body(ev, fr, body);
    ev->block = saved;
    scope_leave(ev, fr, &names, loc, NULL, 0);
    if (*flow == TL_FLOW_BREAK || *flow == TL_FLOW_CONTINUE) {
        // `break`/`continue` inside an IR loop body became IR statements already.
        *flow = TL_FLOW_NORMAL;
    }
    if (*flow == TL_FLOW_RETURN) {
        tl_eval_fail(ev, fr->ret_loc.line ? fr->ret_loc : loc,
                     "'return' inside a kernel loop or branch is not supported");
        *flow = TL_FLOW_ERROR;
    }
    return seq;
}

static const char *loop_target_name(tl_eval_t *ev, const tl_ast_node_t *t)
{
    if (t->kind == TL_AST_NAME) return t->name.id;
    tl_eval_fail(ev, t->loc, "the loop variable of a kernel loop must be a name");
    return NULL;
}

// for v0, v1 in T.Persistent([D0, D1], wave, index, group):
//   for w in [0, ceil(D0*D1 / wave)): t = w*wave + index; if t >= D0*D1: break
//   with the last extent tiled by g = min(group, D1): the grouped domain is
//   [D1/g, D0, g], decomposed from t (last digit fastest); v0 = digit 1,
//   v1 = digit 0 * g + digit 2 (upstream's PersistentFor, also for n extents).
static tl_flow_t trace_persistent(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n,
                                  tl_value_t *range)
{
    tl_kernel_t *k = ev->kernel;
    int nd = range->range.ndim;
    const tl_ast_node_t *target = n->loop.target;
    const tl_ast_node_t *tg[TL_MAX_DIMS];
    if (nd == 1 && target->kind == TL_AST_NAME) tg[0] = target;
    else if ((target->kind == TL_AST_TUPLE || target->kind == TL_AST_LIST) && target->seq.elts.len == nd)
        for (int i = 0; i < nd; i++) tg[i] = target->seq.elts.items[i];
    else {
        tl_eval_fail(ev, target->loc, "T.Persistent over %d extents needs %d loop variables", nd, nd);
        return TL_FLOW_ERROR;
    }
    tl_loc_t loc = n->loc;
    tl_map_t names;
    scope_enter(ev, fr, &names);
    tl_expr_t *dom[TL_MAX_DIMS], *size = NULL;
    for (int i = 0; i < nd; i++) {
        if (!(dom[i] = tl_value_to_expr(ev, range->range.extents[i], n->loop.iter->loc, -1))) return TL_FLOW_ERROR;
        size = size ? tl_ir_bin(k, TL_BIN_MUL, size, dom[i], loc) : dom[i];
    }
    tl_expr_t *wave = tl_value_to_expr(ev, range->range.wave, n->loop.iter->loc, -1);
    tl_expr_t *index = tl_value_to_expr(ev, range->range.index, n->loop.iter->loc, -1);
    tl_expr_t *group = tl_value_to_expr(ev, range->range.group, n->loop.iter->loc, -1);
    if (!wave || !index || !group) return TL_FLOW_ERROR;
    tl_expr_t *one = tl_ir_int(k, 1, TL_I32, loc);
    tl_expr_t *waves = tl_ir_bin(k, TL_BIN_DIV, tl_ir_bin(k, TL_BIN_SUB, tl_ir_bin(k, TL_BIN_ADD, size, wave, loc), one, loc), wave, loc);
    tl_expr_t *g = tl_ir_bin(k, TL_BIN_MIN, group, dom[nd - 1], loc);
    tl_expr_t *grouped[TL_MAX_DIMS + 1];
    int ng = 0;
    grouped[ng++] = tl_ir_bin(k, TL_BIN_DIV, dom[nd - 1], g, loc);
    for (int i = 0; i < nd - 1; i++) grouped[ng++] = dom[i];
    grouped[ng++] = g;
    tl_var_t *w = tl_ir_var(k, tl_trace_unique_name(ev, "w"), TL_I32, TL_VAR_LOOP, loc);
    tl_stmt_t *loop = tl_ir_stmt(k, TL_ST_FOR, loc);
    loop->for_.var = w;
    loop->for_.loop = TL_LOOP_SERIAL;
    loop->for_.start = tl_ir_int(k, 0, TL_I32, loc);
    loop->for_.end = waves;
    loop->for_.body = tl_ir_seq(k, loc);
    tl_expr_t *t = tl_ir_bin(k, TL_BIN_ADD, tl_ir_bin(k, TL_BIN_MUL, tl_ir_varref(k, w, loc), wave, loc), index, loc);
    tl_stmt_t *guard = tl_ir_stmt(k, TL_ST_IF, loc);
    guard->if_.cond = tl_ir_bin(k, TL_BIN_LE, size, t, loc);
    guard->if_.then_ = tl_ir_seq(k, loc);
    tl_ir_seq_push(k, guard->if_.then_, tl_ir_stmt(k, TL_ST_BREAK, loc));
    tl_ir_seq_push(k, loop->for_.body, guard);
    tl_expr_t *idx[TL_MAX_DIMS + 1], *rem = t;
    for (int i = ng - 1; i >= 1; i--) {
        idx[i] = tl_ir_bin(k, TL_BIN_MOD, rem, grouped[i], loc);
        rem = tl_ir_bin(k, TL_BIN_DIV, rem, grouped[i], loc);
    }
    idx[0] = rem;
    for (int i = 0; i < nd; i++) {
        if (tg[i]->kind != TL_AST_NAME) {
            tl_eval_fail(ev, tg[i]->loc, "T.Persistent loop variables must be names");
            return TL_FLOW_ERROR;
        }
        tl_expr_t *v = i < nd - 1 ? idx[i + 1] : tl_ir_bin(k, TL_BIN_ADD, tl_ir_bin(k, TL_BIN_MUL, idx[0], g, loc), idx[nd], loc);
        tl_env_set(ev, fr->env, tg[i]->name.id, tl_value_expr(ev->arena, v));
    }
    tl_trace_emit(ev, loop);
    tl_stmt_t *saved = ev->block;
    ev->block = loop->for_.body;
    tl_flow_t f = tl_exec_body(ev, fr, &n->loop.body);
    ev->block = saved;
    const char *own[TL_MAX_DIMS];
    for (int i = 0; i < nd; i++) own[i] = tg[i]->name.id;
    scope_leave(ev, fr, &names, loc, own, nd);
    if (f == TL_FLOW_RETURN) {
        tl_eval_fail(ev, fr->ret_loc, "'return' inside a kernel loop is not supported");
        return TL_FLOW_ERROR;
    }
    return f == TL_FLOW_ERROR ? f : TL_FLOW_NORMAL;
}

tl_flow_t tl_trace_for(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *range)
{
    if (range->range.wave) return trace_persistent(ev, fr, n, range);
    tl_kernel_t *k = ev->kernel;
    if (n->loop.orelse.len) {
        tl_eval_fail(ev, n->loc, "'for ... else' is not supported for kernel loops");
        return TL_FLOW_ERROR;
    }
    int ndim = range->range.ndim;
    const tl_ast_node_t *target = n->loop.target;
    const tl_ast_node_t *targets[TL_MAX_DIMS];
    if (ndim > 1) {
        if ((target->kind != TL_AST_TUPLE && target->kind != TL_AST_LIST) ||
            target->seq.elts.len != ndim) {
            tl_eval_fail(ev, target->loc, "T.Parallel with %d extents needs %d loop variables", ndim,
                         ndim);
            return TL_FLOW_ERROR;
        }
        for (int i = 0; i < ndim; i++) targets[i] = target->seq.elts.items[i];
    } else {
        if ((target->kind == TL_AST_TUPLE || target->kind == TL_AST_LIST) && target->seq.elts.len == 1)
            target = target->seq.elts.items[0];
        targets[0] = target;
    }
    tl_map_t names;
    scope_enter(ev, fr, &names);
    // Build the nest outside-in; the innermost body gets the traced statements.
    tl_stmt_t *outer = NULL, *parent_seq = ev->block;
    tl_stmt_t *saved = ev->block;
    const char *own[TL_MAX_DIMS];
    for (int d = 0; d < ndim; d++) {
        const char *name = own[d] = loop_target_name(ev, targets[d]);
        if (!name) return TL_FLOW_ERROR;
        tl_expr_t *start, *end;
        tl_value_t *step_v = range->range.step;
        int64_t step = 1;
        if (ndim > 1) {
            start = tl_ir_int(k, 0, TL_I32, n->loc);
            end = tl_value_to_expr(ev, range->range.extents[d], n->loop.iter->loc, -1);
        } else {
            start = tl_value_to_expr(ev, range->range.start, n->loop.iter->loc, -1);
            end = tl_value_to_expr(ev, range->range.stop, n->loop.iter->loc, -1);
            if (step_v && !tl_value_to_int(ev, step_v, n->loop.iter->loc, "a loop step", &step))
                return TL_FLOW_ERROR;
        }
        if (!start || !end) return TL_FLOW_ERROR;
        if (tl_dtype_is_float(start->dtype) || tl_dtype_is_float(end->dtype)) {
            tl_eval_fail(ev, n->loop.iter->loc, "loop bounds must be integers");
            return TL_FLOW_ERROR;
        }
        if (step == 0) {
            tl_eval_fail(ev, n->loop.iter->loc, "loop step must not be zero");
            return TL_FLOW_ERROR;
        }
        tl_var_t *var = tl_ir_var(k, tl_trace_unique_name(ev, name), TL_I32, TL_VAR_LOOP, targets[d]->loc);
        tl_stmt_t *loop = tl_ir_stmt(k, TL_ST_FOR, n->loc);
        loop->for_.var = var;
        // T.Parallel with more than two extents (npuir: an N-D element-wise nest): the
        // outer extents are serial loops around a 2-D parallel nest, the same elements.
        loop->for_.loop = range->range.loop == TL_LOOP_PARALLEL && d < ndim - 2 ? TL_LOOP_SERIAL : range->range.loop;
        loop->for_.num_stages = range->range.num_stages;
        loop->for_.cross_interval = range->range.cross_interval;
        tl_expr_t *iv = tl_ir_varref(k, var, targets[d]->loc);
        if (step == 1) {
            loop->for_.start = start;
            loop->for_.end = end;
        } else {
            // for i in range(a, b, s): iterate j in [0, ceil((b - a) / s)), i = a + j * s.
            tl_expr_t *span = tl_ir_bin(k, TL_BIN_SUB, end, start, n->loc);
            tl_expr_t *s_e = tl_ir_int(k, step, TL_I32, n->loc);
            tl_expr_t *adj = tl_ir_int(k, step > 0 ? step - 1 : step + 1, TL_I32, n->loc);
            loop->for_.start = tl_ir_int(k, 0, TL_I32, n->loc);
            loop->for_.end = tl_ir_bin(k, TL_BIN_DIV, tl_ir_bin(k, TL_BIN_ADD, span, adj, n->loc), s_e, n->loc);
            iv = tl_ir_bin(k, TL_BIN_ADD, start, tl_ir_bin(k, TL_BIN_MUL, iv, s_e, n->loc), n->loc);
        }
        tl_env_set(ev, fr->env, name, tl_value_expr(ev->arena, iv));
        loop->for_.body = tl_ir_seq(k, n->loc);
        tl_ir_seq_push(k, parent_seq, loop);
        if (!outer) outer = loop;
        parent_seq = loop->for_.body;
    }
    (void)outer;
    bool parallel = range->range.loop == TL_LOOP_PARALLEL;
    ev->parallel_depth += parallel;
    ev->block = parent_seq;
    tl_flow_t f = tl_exec_body(ev, fr, &n->loop.body);
    ev->block = saved;
    ev->parallel_depth -= parallel;
    scope_leave(ev, fr, &names, n->loc, own, ndim);
    if (f == TL_FLOW_RETURN) {
        tl_eval_fail(ev, fr->ret_loc.line ? fr->ret_loc : n->loc,
                     "'return' inside a kernel loop is not supported");
        return TL_FLOW_ERROR;
    }
    return f == TL_FLOW_ERROR ? f : TL_FLOW_NORMAL;
}

// --- long if/elif chains ----------------------------------------------------------------------
// Up to ELIF_NESTED branches from the first run-time condition, an elif is an
// IR if in the else of the one before. A longer chain would nest its IR (and
// every recursive walk after the front end) as deep as it is long, so it is
// lowered flat, 4 levels whatever its length, with a hidden variable:
//   taken = 0
//   if c1: { taken = 1; body1 }
//   if taken == 0: { if c2: { taken = 1; body2 } }    (and so on)
//   if taken == 0: { else body }
// Each condition is evaluated only when those before it were false, after the
// bodies before it (which did not run then), as Python runs the chain.
enum { ELIF_NESTED = 16 };

static tl_stmt_t *store_taken(tl_eval_t *ev, tl_buffer_t *taken, int v, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_STORE, loc);
    s->store.buf = taken;
    s->store.n = 1;
    s->store.idx = tl_arena_alloc(ev->arena, sizeof(tl_expr_t *));
    s->store.idx[0] = tl_ir_int(k, 0, TL_I32, loc);
    s->store.value = tl_ir_int(k, v, TL_I32, loc);
    return s;
}

// if (cond) { taken = 1; body } appended to seq (cond NULL: the else body).
static bool flat_branch(tl_eval_t *ev, tl_frame_t *fr, tl_stmt_t *seq, tl_buffer_t *taken,
                        tl_expr_t *cond, const tl_ast_list_t *body, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    tl_flow_t f;
    tl_stmt_t *b = trace_block(ev, fr, body, loc, &f);
    if (f == TL_FLOW_ERROR) return false;
    if (!cond) {
        tl_ir_seq_push(k, seq, b);
        return true;
    }
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_IF, loc);
    s->if_.cond = cond;
    s->if_.then_ = tl_ir_seq(k, loc);
    tl_ir_seq_push(k, s->if_.then_, store_taken(ev, taken, 1, loc));
    tl_ir_seq_push(k, s->if_.then_, b);
    tl_ir_seq_push(k, seq, s);
    return true;
}

static tl_flow_t trace_if_flat(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n,
                               tl_value_t *cond)
{
    tl_kernel_t *k = ev->kernel;
    int64_t one = 1;
    tl_buffer_t *taken = tl_ir_buffer(k, tl_trace_unique_name(ev, "elif_taken"), TL_SCOPE_VAR,
                                      TL_I32, 1, &one, n->loc);
    tl_trace_emit(ev, store_taken(ev, taken, 0, n->loc));
    if (!flat_branch(ev, fr, ev->block, taken, cond->expr, &n->cond.body, n->loc))
        return TL_FLOW_ERROR;
    for (const tl_ast_node_t *m = n; m;) {
        const tl_ast_node_t *next = tl_ast_elif(m);
        if (!next && !m->cond.orelse.len) break;
        // if taken == 0: { the next condition and its branch, or the else body }
        tl_loc_t loc = next ? next->loc : m->cond.orelse.items[0]->loc;
        tl_expr_t *zero = tl_ir_int(k, 0, TL_I32, loc), *load = tl_ir_load(k, taken, 1, &zero, loc);
        tl_stmt_t *guard = tl_ir_stmt(k, TL_ST_IF, loc);
        guard->if_.cond = tl_ir_bin(k, TL_BIN_EQ, load, zero, loc);
        guard->if_.then_ = tl_ir_seq(k, loc);
        tl_stmt_t *saved = ev->block;
        ev->block = guard->if_.then_; // what evaluating the condition emits
        bool ok = true, is_expr = false, t = true;
        tl_value_t *c = next ? tl_eval_expr(ev, fr, next->cond.test) : NULL;
        if (next && c) t = tl_eval_truth(ev, &c, next->cond.test->loc, &is_expr, &ok);
        ev->block = saved;
        if ((next && !c) || !ok) return TL_FLOW_ERROR;
        const tl_ast_list_t *body = next ? &next->cond.body : &m->cond.orelse;
        if ((t || is_expr) &&
            !flat_branch(ev, fr, guard->if_.then_, taken, is_expr ? c->expr : NULL, body, loc))
            return TL_FLOW_ERROR;
        if (guard->if_.then_->seq.n) tl_trace_emit(ev, guard);
        if (!next || (t && !is_expr)) break; // the else, or a condition always true
        m = next;
    }
    return TL_FLOW_NORMAL;
}

tl_flow_t tl_trace_if(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *cond)
{
    tl_kernel_t *k = ev->kernel;
    if (!tl_trace_require(ev, n->loc, "an 'if' on a run-time value")) return TL_FLOW_ERROR;
    int branches = 1;
    for (const tl_ast_node_t *m = tl_ast_elif(n); m && branches <= ELIF_NESTED; m = tl_ast_elif(m))
        branches++;
    if (branches > ELIF_NESTED) return trace_if_flat(ev, fr, n, cond);
    tl_stmt_t *s = tl_ir_stmt(k, TL_ST_IF, n->loc);
    s->if_.cond = cond->expr;
    tl_flow_t f;
    s->if_.then_ = trace_block(ev, fr, &n->cond.body, n->loc, &f);
    if (f == TL_FLOW_ERROR) return f;
    if (n->cond.orelse.len) {
        s->if_.else_ = trace_block(ev, fr, &n->cond.orelse, n->loc, &f);
        if (f == TL_FLOW_ERROR) return f;
    }
    tl_trace_emit(ev, s);
    return TL_FLOW_NORMAL;
}

tl_flow_t tl_trace_while(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, tl_value_t *cond)
{
    if (!tl_trace_require(ev, n->loc, "a 'while' on a run-time value")) return TL_FLOW_ERROR;
    if (n->cond.orelse.len) {
        tl_eval_fail(ev, n->loc, "'while ... else' is not supported in kernels");
        return TL_FLOW_ERROR;
    }
    tl_stmt_t *s = tl_ir_stmt(ev->kernel, TL_ST_WHILE, n->loc);
    s->while_.cond = cond->expr;
    tl_flow_t f;
    s->while_.body = trace_block(ev, fr, &n->cond.body, n->loc, &f);
    if (f == TL_FLOW_ERROR) return f;
    tl_trace_emit(ev, s);
    return TL_FLOW_NORMAL;
}

// --- with frames --------------------------------------------------------------------------------

static tl_flow_t with_rest(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, int item)
{
    if (item + 1 >= n->with.items.len) return tl_exec_body(ev, fr, &n->with.body);
    const tl_ast_node_t *it = n->with.items.items[item + 1];
    tl_value_t *ctx = tl_eval_expr(ev, fr, it->withitem.context);
    if (!ctx) return TL_FLOW_ERROR;
    if (ctx->kind != TL_V_FRAME) {
        tl_eval_fail(ev, it->loc, "'with' needs T.Kernel, T.Scope or T.If/T.Then/T.Else, got %s",
                     tl_value_type_name(ctx));
        return TL_FLOW_ERROR;
    }
    return tl_trace_with(ev, fr, n, item + 1, ctx);
}

static bool bind_launch(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *target, tl_loc_t loc)
{
    tl_kernel_t *k = ev->kernel;
    const tl_ast_node_t *names[2] = {NULL, NULL};
    int n = 0;
    if (target) {
        if (target->kind == TL_AST_TUPLE || target->kind == TL_AST_LIST) {
            n = target->seq.elts.len;
            if (n < 1 || n > 2) {
                tl_eval_fail(ev, target->loc, "T.Kernel binds (block index) or (block index, vector "
                                              "core index)");
                return false;
            }
            for (int i = 0; i < n; i++) names[i] = target->seq.elts.items[i];
        } else {
            names[0] = target;
            n = 1;
        }
        for (int i = 0; i < n; i++)
            if (names[i]->kind != TL_AST_NAME) {
                tl_eval_fail(ev, names[i]->loc, "T.Kernel targets must be names");
                return false;
            }
    }
    if (k->threads && n == 2) {
        tl_eval_fail(ev, target->loc, "T.Kernel(..., threads=%d) binds only the block index: write "
                                      "`as cid`", k->threads);
        return false;
    }
    const char *cid_name = names[0] && strcmp(names[0]->name.id, "_") ? names[0]->name.id : "cid";
    const char *vid_name = names[1] && strcmp(names[1]->name.id, "_") ? names[1]->name.id : "vid";
    k->cid = tl_ir_var(k, tl_trace_unique_name(ev, cid_name), TL_I32, TL_VAR_BLOCK,
                       names[0] ? names[0]->loc : loc);
    k->vid = tl_ir_var(k, tl_trace_unique_name(ev, vid_name), TL_I32, TL_VAR_SUBBLOCK,
                       names[1] ? names[1]->loc : loc);
    if (names[0]) tl_env_set(ev, fr->env, names[0]->name.id, tl_value_expr(ev->arena, tl_ir_varref(k, k->cid, loc)));
    if (names[1]) tl_env_set(ev, fr->env, names[1]->name.id, tl_value_expr(ev->arena, tl_ir_varref(k, k->vid, loc)));
    return true;
}

static tl_flow_t tl_trace_if_frame(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n,
                                   int item, tl_stmt_t *ifs, int part);

tl_flow_t tl_trace_with(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n, int item,
                        tl_value_t *ctx)
{
    const tl_ast_node_t *it = n->with.items.items[item];
    tl_kernel_t *k = ev->kernel;
    switch (ctx->frame.frame) {
    case TL_FRAME_KERNEL: {
        if (!tl_trace_require(ev, it->loc, "T.Kernel")) return TL_FLOW_ERROR;
        if (k->grid) {
            tl_eval_fail(ev, it->loc, "a prim_func can launch only one T.Kernel");
            return TL_FLOW_ERROR;
        }
        k->grid = ctx->frame.result->expr;
        k->threads = ctx->frame.threads;
        if (!bind_launch(ev, fr, it->withitem.target, it->loc)) return TL_FLOW_ERROR;
        ev->in_launch = true;
        tl_flow_t f = with_rest(ev, fr, n, item);
        ev->in_launch = false;
        if (f == TL_FLOW_RETURN) {
            // The rest of the launch would be dropped silently.
            tl_eval_fail(ev, fr->ret_loc, "'return' inside a T.Kernel launch is not supported");
            return TL_FLOW_ERROR;
        }
        return f;
    }
    case TL_FRAME_SCOPE: {
        if (!tl_trace_require(ev, it->loc, "T.Scope")) return TL_FLOW_ERROR;
        tl_stmt_t *s = tl_ir_stmt(k, TL_ST_SCOPE, it->loc);
        s->scope.side = ctx->frame.side;
        tl_stmt_t *saved = ev->block;
        s->scope.body = ev->block = tl_ir_seq(k, it->loc);
        tl_flow_t f = with_rest(ev, fr, n, item);
        ev->block = saved;
        if (f == TL_FLOW_ERROR) return f;
        tl_trace_emit(ev, s);
        return f;
    }
    case TL_FRAME_IF: {
        if (!tl_trace_require(ev, it->loc, "T.If")) return TL_FLOW_ERROR;
        tl_stmt_t *s = tl_ir_stmt(k, TL_ST_IF, it->loc);
        tl_expr_t *c = tl_value_to_expr(ev, ctx->frame.result, it->loc, -1);
        if (!c) return TL_FLOW_ERROR;
        s->if_.cond = c;
        return tl_trace_if_frame(ev, fr, n, item, s, 0);
    }
    case TL_FRAME_THEN:
    case TL_FRAME_ELSE:
        if (!ev->if_frame) {
            tl_eval_fail(ev, it->loc, "T.Then/T.Else must be directly inside `with T.If(...)`");
            return TL_FLOW_ERROR;
        }
        return tl_trace_if_frame(ev, fr, n, item, ev->if_frame,
                                 ctx->frame.frame == TL_FRAME_THEN ? 1 : 2);
    case TL_FRAME_RS: {
        tl_pipe_t saved = ev->rs_pipe;
        ev->rs_pipe = ctx->frame.pipe;
        tl_flow_t f = with_rest(ev, fr, n, item);
        ev->rs_pipe = saved;
        return f;
    }
    case TL_FRAME_NULL: return with_rest(ev, fr, n, item);
    }
    return TL_FLOW_ERROR;
}

// --- T.If / T.Then / T.Else frames --------------------------------------------------------------
// `with T.If(c): with T.Then(): A  with T.Else(): B` builds one IR if; the If
// frame's body runs with ev->if_frame pointing at it.
static tl_flow_t tl_trace_if_frame(tl_eval_t *ev, tl_frame_t *fr, const tl_ast_node_t *n,
                                   int item, tl_stmt_t *ifs, int part)
{
    tl_stmt_t *saved_block = ev->block, *saved_if = ev->if_frame;
    tl_flow_t f;
    if (part == 0) { // T.If: the body holds Then/Else frames
        ev->if_frame = ifs;
        f = with_rest(ev, fr, n, item);
        ev->if_frame = saved_if;
        if (f != TL_FLOW_ERROR) {
            if (!ifs->if_.then_) ifs->if_.then_ = tl_ir_seq(ev->kernel, ifs->loc);
            tl_trace_emit(ev, ifs);
        }
        return f;
    }
    tl_stmt_t *seq = tl_ir_seq(ev->kernel, n->loc);
    if (part == 1) ifs->if_.then_ = seq;
    else ifs->if_.else_ = seq;
    ev->block = seq;
    ev->if_frame = NULL;
    f = with_rest(ev, fr, n, item);
    ev->block = saved_block;
    ev->if_frame = saved_if;
    return f;
}
