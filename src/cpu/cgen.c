// Statements and the module (see cgen.h). The emitter follows the reference
// executor's scheduler (exec_run.c) statement by statement:
//
// Expert mode: the body is emitted once per agent kind; T.Scope bodies of
// the other side are left out, tile ops, stores and prints only where the
// agent owns their memory, everything else (loops, lets, syncs) on every
// agent. Developer mode: a statement runs on the lanes of its side; a
// compound statement of one side with several lanes is emitted once per
// lane (lane after lane); one that mixes sides runs in lockstep, its loop
// bounds and conditions evaluated on every lane and required to agree.
//
// Variables are C locals per lane (v<id>_<lane>), alloc_var registers local
// arrays (r<id>_<lane>); scratchpads are byte pointers (M<lane>_<scope>) and
// buffers sit at the executor's addresses in them; GM tensors come from the
// run's environment (G<id>, shapes G<id>_<dim>).
#include "cpu/cgen.h"

#include <inttypes.h>

#include "cpu/alias.h"
#include <stdio.h>
#include <stdlib.h>

void tl_cgen_line(tl_cgen_t *g, const char *fmt, ...)
{
    tl_buf_indent(g->out, g->indent * 4);
    va_list ap;
    va_start(ap, fmt);
    tl_buf_vprintf(g->out, fmt, ap);
    va_end(ap);
    tl_buf_putc(g->out, '\n');
}

static bool is_compound(tl_stmt_kind_t k)
{
    return k == TL_ST_SEQ || k == TL_ST_FOR || k == TL_ST_WHILE || k == TL_ST_IF ||
           k == TL_ST_SCOPE;
}

static int popcount(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static int first_lane(unsigned m)
{
    for (int l = 0; l < TL_CGEN_LANES; l++)
        if (m >> l & 1) return l;
    return 0;
}

static const char *lane_name(const tl_cgen_t *g, int lane)
{
    if (g->dev) return tl_side_agent_name((tl_agent_t)lane);
    return lane ? "AIV" : "AIC";
}

// The check after a statement or condition with run-time checks.
static void check(tl_cgen_t *g)
{
    if (!g->checked) return;
    tl_cgen_line(g, "if (E.site) return rt->fail(L%d, &E);", g->lane);
    g->checked = false;
}

static void fail_here(tl_cgen_t *g, const tl_stmt_t *s, const char *msg)
{
    int site = tl_cgen_site(g, TL_CGEN_SITE_ERR, s, s->loc, "%s", msg);
    tl_cgen_line(g, "tlc_err(&E, %d, 0, 0, 0, 0, 0);", site);
    check(g);
}

static char *index_text(tl_cgen_t *g, const tl_expr_t *e)
{
    tl_buf_t a;
    tl_buf_init(&a);
    tl_cgen_index(g, &a, e);
    return tl_buf_take(&a);
}

// --- leaves ------------------------------------------------------------------------------

static void scalar_init(tl_cgen_t *g, tl_buf_t *b, const tl_expr_t *e)
{
    char *v = tl_cgen_text(g, e, e->dtype);
    if (tl_dtype_is_float(e->dtype))
        tl_buf_printf(b, "{1, 0, (double)(%s)}, ", v);
    else
        tl_buf_printf(b, "{0, (int64_t)(%s), (double)(int64_t)(%s)}, ", v, v);
    free(v);
}

char *tl_cgen_op_nums(tl_cgen_t *g, const tl_op_t *op)
{
    tl_buf_t nums;
    tl_buf_init(&nums);
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind != TL_ARG_REGION) continue;
        for (int d = 0; d < a->region.ndim; d++) {
            char *t = index_text(g, a->region.start[d]);
            tl_buf_printf(&nums, "%s, ", t);
            free(t);
        }
        for (int d = 0; d < a->region.ndim; d++) {
            char *t = index_text(g, a->region.extent[d]);
            tl_buf_printf(&nums, "%s, ", t);
            free(t);
        }
    }
    char *t = tl_buf_take(&nums);
    return t ? t : strdup("");
}

static void op_leaf(tl_cgen_t *g, const tl_stmt_t *s)
{
    const tl_op_t *op = &s->op;
    tl_buf_t sc;
    tl_buf_init(&sc);
    for (int i = 0; i < op->nargs; i++) {
        const tl_arg_t *a = &op->args[i];
        if (a->kind != TL_ARG_REGION) {
            scalar_init(g, &sc, a->scalar);
            continue;
        }
        if (a->region.buf->scope == TL_SCOPE_VAR) {
            char msg[160];
            snprintf(msg, sizeof msg, "alloc_var '%s' cannot be a tile operand",
                     a->region.buf->name);
            fail_here(g, s, msg);
            tl_buf_free(&sc);
            return;
        }
    }
    char *nums = tl_cgen_op_nums(g, op);
    if (op->init) scalar_init(g, &sc, op->init);
    if (op->pad_value) scalar_init(g, &sc, op->pad_value);
    if (op->k_valid) scalar_init(g, &sc, op->k_valid);
    if (op->n_valid) scalar_init(g, &sc, op->n_valid);
    if (op->unit_flag) scalar_init(g, &sc, op->unit_flag);
    int site = tl_cgen_site(g, TL_CGEN_SITE_OP, s, s->loc, NULL);
    tl_cgen_line(g, "{");
    g->indent++;
    tl_cgen_line(g, "const int64_t n[] = {%s0};", nums ? nums : "");
    free(nums);
    tl_cgen_line(g, "const tlc_scalar_t sc[] = {%s{0, 0, 0}};", tl_buf_cstr(&sc));
    check(g);
    bool inline_copy = tl_cgen_copy(g, s);
    tl_cgen_line(g, "int st = rt->op(L%d, %d, n, sc);", g->lane, site);
    tl_cgen_line(g, "if (st) return st;");
    if (inline_copy) {
        g->indent--;
        tl_cgen_line(g, "}");
    }
    g->indent--;
    tl_cgen_line(g, "}");
    tl_buf_free(&sc);
}

// A copy that an inline loop may have done by storing its source in place
// (tl_cgen_out_t) runs only when it did not.
static void op_leaf_unless_done(tl_cgen_t *g, const tl_stmt_t *s)
{
    int id = -1;
    for (int i = g->nouts - 1; i >= 0 && id < 0; i--)
        if (g->outs[i].s == s && g->outs[i].lane == g->lane) id = g->outs[i].id;
    if (id < 0) {
        op_leaf(g, s);
        return;
    }
    tl_cgen_line(g, "if (!W%d_t) {", id);
    g->indent++;
    op_leaf(g, s);
    g->indent--;
    tl_cgen_line(g, "}");
}

static void store_leaf(tl_cgen_t *g, const tl_stmt_t *s)
{
    const tl_buffer_t *b = s->store.buf;
    tl_buf_t addr, out;
    tl_buf_init(&addr);
    tl_buf_init(&out);
    tl_cgen_elem(g, &addr, b, s->store.n, s->store.idx, s->loc);
    char *v = tl_cgen_text(g, s->store.value, b->dtype);
    tl_cgen_store(&out, b->dtype, tl_buf_cstr(&addr), v);
    tl_cgen_line(g, "%s", tl_buf_cstr(&out));
    check(g);
    free(v);
    tl_buf_free(&addr);
    tl_buf_free(&out);
}

static void sync_leaf(tl_cgen_t *g, const tl_stmt_t *s)
{
    tl_sync_kind_t k = s->sync.kind;
    if (k == TL_SYNC_PIPE_BARRIER || k == TL_SYNC_BARRIER_ALL) {
        // intra-core pipe order: nothing to do on a CPU (the simulator checks it)
        tl_cgen_line(g, "/* %s */", tl_sync_name(k));
        return;
    }
    char *id = NULL;
    if (k != TL_SYNC_ALL) {
        if (!s->sync.id) {
            fail_here(g, s, "a flag without an id");
            return;
        }
        id = index_text(g, s->sync.id);
    }
    int site = tl_cgen_site(g, TL_CGEN_SITE_SYNC, s, s->loc, NULL);
    tl_cgen_line(g, "{");
    g->indent++;
    tl_cgen_line(g, "int64_t id = %s;", id ? id : "-1");
    check(g);
    tl_cgen_line(g, "int st = rt->sync(L%d, %d, id);", g->lane, site);
    tl_cgen_line(g, "if (st) return st;");
    g->indent--;
    tl_cgen_line(g, "}");
    free(id);
}

static void let_leaf(tl_cgen_t *g, const tl_stmt_t *s)
{
    const tl_var_t *v = s->let.var;
    char *val = tl_cgen_text(g, s->let.value, v->dtype);
    tl_cgen_line(g, "v%d_%d = %s;", v->id, g->lane, val);
    check(g);
    free(val);
    if (g->first_pass) g->defs[v->id] |= (uint8_t)(1u << g->lane);
    g->ranges[v->id] = tl_cgen_range(g, s->let.value);
}

// Whether the agent of the current (expert) function runs leaf s; errors for
// statements the reference rejects.
static bool expert_runs(tl_cgen_t *g, const tl_stmt_t *s)
{
    tl_side_t side = tl_side_get(g->sides, s);
    if (g->dev || side == TL_SIDE_NONE) return true;
    if (side == TL_SIDE_BOTH) {
        fail_here(g, s,
                  s->kind == TL_ST_OP ? "the op mixes cube and vector memory; only developer "
                                        "mode (auto_cv_combine) allows that"
                                      : "the statement reads both cube and vector memory");
        return false;
    }
    return side == (g->lane == 0 ? TL_SIDE_CUBE : TL_SIDE_VEC);
}

static void leaf(tl_cgen_t *g, const tl_stmt_t *s)
{
    tl_side_t side = tl_side_get(g->sides, s);
    bool other = !g->dev && (side == TL_SIDE_CUBE || side == TL_SIDE_VEC) &&
                 side != (g->lane == 0 ? TL_SIDE_CUBE : TL_SIDE_VEC); // not this agent's
    if (g->first_pass && !other) tl_cgen_view_use(g, s);
    switch (s->kind) {
    case TL_ST_LET: let_leaf(g, s); break;
    case TL_ST_SYNC: sync_leaf(g, s); break;
    case TL_ST_STORE:
        if (expert_runs(g, s)) store_leaf(g, s);
        break;
    case TL_ST_OP:
        if (expert_runs(g, s)) op_leaf_unless_done(g, s);
        break;
    case TL_ST_PRINT:
        if (expert_runs(g, s))
            fail_here(g, s,
                      "T.printf and T.dump_tensor are not supported by the cpu target; "
                      "run the kernel with the reference executor");
        break;
    default: fail_here(g, s, "unexpected statement"); break;
    }
}

// --- compound statements ------------------------------------------------------------------

static void push(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope);

static bool frame_push(tl_cgen_t *g, tl_cgen_frame_t f)
{
    if (g->nframes == TL_CGEN_FRAMES) {
        g->lost++;
        return false;
    }
    g->frames[g->nframes++] = f;
    return true;
}

static void frame_pop(tl_cgen_t *g, bool pushed)
{
    if (pushed)
        g->nframes--;
    else
        g->lost--;
}

void tl_cgen_seq(tl_cgen_t *g, const tl_stmt_t *const *items, int n, unsigned mask, tl_side_t scope)
{
    bool pushed = frame_push(g, (tl_cgen_frame_t){items, n, 0, NULL});
    tl_cgen_frame_t *f = pushed ? &g->frames[g->nframes - 1] : NULL;
    for (int i = 0; i < n;) {
        if (f) f->next = i; // tl_cgen_fuse moves it past what it takes
        int fused = tl_cgen_fuse(g, items + i, n - i, mask, scope);
        if (!fused) {
            if (f) f->next = i + 1;
            push(g, items[i], mask, scope);
        }
        i += fused ? fused : 1;
    }
    frame_pop(g, pushed);
}

// Evaluates e on every lane of mask into int64 (or bool when `truthy`)
// locals c<n>_<lane>; in lockstep they must agree. Returns n.
static int agree(tl_cgen_t *g, const tl_stmt_t *s, const tl_expr_t *e, unsigned mask, bool truthy,
                 const char *what)
{
    int n = g->tmp++, save = g->lane;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(mask >> l & 1)) continue;
        g->lane = l;
        char *v;
        if (truthy) {
            char *x = tl_cgen_text(g, e, e->dtype);
            size_t len = strlen(x) + 16;
            v = malloc(len);
            if (v) snprintf(v, len, "((%s) != 0)", x);
            free(x);
        } else if (tl_dtype_is_float(e->dtype)) {
            int site = tl_cgen_site(g, TL_CGEN_SITE_ERR, s, e->loc, "loop bounds must be integers");
            v = malloc(48);
            if (v) snprintf(v, 48, "tlc_err(&E, %d, 0, 0, 0, 0, 0)", site);
        } else {
            v = tl_cgen_text(g, e, e->dtype == TL_U64 ? TL_U64 : TL_I64);
        }
        tl_cgen_line(g, "int64_t c%d_%d = (int64_t)(%s);", n, l, v ? v : "0");
        free(v);
        check(g);
    }
    g->lane = save;
    int l0 = first_lane(mask);
    for (int l = l0 + 1; l < TL_CGEN_LANES; l++) {
        if (!(mask >> l & 1)) continue;
        int site = tl_cgen_site(g, TL_CGEN_SITE_ERR, s, e->loc,
                                "%s depends on vid in %s that mixes cube and vector statements "
                                "(%s: %%lld, %s: %%lld)",
                                what, s->kind == TL_ST_IF ? "an if" : "a loop", lane_name(g, l0),
                                lane_name(g, l));
        tl_cgen_line(g,
                     "if (c%d_%d != c%d_%d) { tlc_err(&E, %d, 2, c%d_%d, c%d_%d, 0, 0); return "
                     "rt->fail(L%d, &E); }",
                     n, l0, n, l, site, n, l0, n, l, l0);
        g->checked = false;
    }
    return n;
}

static void for_stmt(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope)
{
    const tl_var_t *v = s->for_.var;
    int l0 = first_lane(mask);
    tl_cgen_line(g, "{");
    g->indent++;
    int a = agree(g, s, s->for_.start, mask, false, "loop bound");
    int b = agree(g, s, s->for_.end, mask, false, "loop bound");
    tl_cgen_range_t ra = tl_cgen_range(g, s->for_.start), rb = tl_cgen_range(g, s->for_.end);
    g->ranges[v->id] = (tl_cgen_range_t){ra.known && rb.known && rb.hi > ra.lo, ra.lo, rb.hi - 1};
    if (g->ranges[v->id].known && (g->ranges[v->id].lo < tl_dtype_min(v->dtype) ||
                                   g->ranges[v->id].hi > tl_dtype_max(v->dtype)))
        g->ranges[v->id].known = false;
    int n = g->tmp++;
    tl_cgen_line(g, "for (int64_t i%d = c%d_%d; i%d < c%d_%d; i%d++) {", n, a, l0, n, b, l0, n);
    g->indent++;
    tl_buf_t w;
    tl_buf_init(&w);
    char it[32];
    snprintf(it, sizeof it, "i%d", n);
    tl_cgen_cast(g, &w, v->dtype, TL_I64, it);
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(mask >> l & 1)) continue;
        tl_cgen_line(g, "v%d_%d = %s;", v->id, l, tl_buf_cstr(&w));
        if (g->first_pass) g->defs[v->id] |= (uint8_t)(1u << l);
    }
    tl_buf_free(&w);
    if (g->first_pass) tl_cgen_view_use(g, s);
    bool pushed = frame_push(g, (tl_cgen_frame_t){NULL, 0, 0, s});
    push(g, s->for_.body, mask, scope);
    frame_pop(g, pushed);
    g->indent--;
    tl_cgen_line(g, "}");
    g->indent--;
    tl_cgen_line(g, "}");
}

static void cond_stmt(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope)
{
    int l0 = first_lane(mask);
    if (g->first_pass) tl_cgen_view_use(g, s);
    if (s->kind == TL_ST_WHILE) {
        tl_cgen_line(g, "for (;;) {");
        g->indent++;
        int c = agree(g, s, s->while_.cond, mask, true, "while condition");
        tl_cgen_line(g, "if (!c%d_%d) break;", c, l0);
        bool pushed = frame_push(g, (tl_cgen_frame_t){NULL, 0, 0, s});
        push(g, s->while_.body, mask, scope);
        frame_pop(g, pushed);
        g->indent--;
        tl_cgen_line(g, "}");
        return;
    }
    tl_cgen_line(g, "{");
    g->indent++;
    int c = agree(g, s, s->if_.cond, mask, true, "if condition");
    tl_cgen_line(g, "if (c%d_%d) {", c, l0);
    g->indent++;
    push(g, s->if_.then_, mask, scope);
    g->indent--;
    if (s->if_.else_) {
        tl_cgen_line(g, "} else {");
        g->indent++;
        push(g, s->if_.else_, mask, scope);
        g->indent--;
    }
    tl_cgen_line(g, "}");
    g->indent--;
    tl_cgen_line(g, "}");
}

// Runs s on the lanes of mask (the executor's `step` for one frame).
static void run(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope)
{
    switch (s->kind) {
    case TL_ST_SEQ:
        tl_cgen_seq(g, (const tl_stmt_t *const *)s->seq.items, s->seq.n, mask, scope);
        return;
    case TL_ST_FOR: for_stmt(g, s, mask, scope); return;
    case TL_ST_WHILE:
    case TL_ST_IF: cond_stmt(g, s, mask, scope); return;
    case TL_ST_SCOPE: {
        tl_side_t side = s->scope.side;
        if (!g->dev) {
            if (side == (g->lane == 0 ? TL_SIDE_CUBE : TL_SIDE_VEC))
                push(g, s->scope.body, mask, side);
            return;
        }
        mask &= tl_side_lanes(g->lanes, side);
        if (mask) push(g, s->scope.body, mask, side);
        return;
    }
    case TL_ST_BREAK: tl_cgen_line(g, "break;"); return;
    case TL_ST_CONTINUE: tl_cgen_line(g, "continue;"); return;
    default: break;
    }
    if ((s->kind == TL_ST_SYNC && s->sync.kind == TL_SYNC_ALL) ||
        (g->dev && (tl_side_flags(g->sides, s) & TL_SIDE_ONCE)))
        mask = 1u << first_lane(mask);
    int save = g->lane;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(mask >> l & 1)) continue;
        g->lane = l;
        leaf(g, s);
    }
    g->lane = save;
}

// Schedules s on mask inside a T.Scope of side `scope` (the executor's `push`).
static void push(tl_cgen_t *g, const tl_stmt_t *s, unsigned mask, tl_side_t scope)
{
    if (!s || g->st) return;
    tl_side_t side = tl_side_get(g->sides, s);
    bool compound = is_compound(s->kind);
    // a flag's side is the core whose pipes it names (ir/side.c); inside a
    // T.Scope of the other core the reference runs it there (tilec sim
    // reports the pipe the core lacks), so only data statements are checked
    if (!compound && s->kind != TL_ST_SYNC && scope != TL_SIDE_NONE &&
        (side == TL_SIDE_CUBE || side == TL_SIDE_VEC) && side != scope) {
        int save = g->lane;
        g->lane = g->dev ? first_lane(mask) : g->lane;
        char msg[200];
        snprintf(msg, sizeof msg, "the statement works on %s memory but is inside T.Scope(\"%s\")",
                 side == TL_SIDE_CUBE ? "cube" : "vector", scope == TL_SIDE_CUBE ? "C" : "V");
        fail_here(g, s, msg);
        g->lane = save;
        return;
    }
    if (!g->dev) {
        // what this core does not need outside T.Scope (ir/side.h)
        if (tl_side_skips(g->sides, s, g->lane == 0 ? TL_SIDE_CUBE : TL_SIDE_VEC)) return;
        if (!tl_cgen_fuse(g, &s, 1, mask, scope)) run(g, s, mask, scope);
        return;
    }
    mask &= tl_side_lanes(g->lanes, side);
    if (!mask) return;
    if (compound && popcount(mask) > 1 && side != TL_SIDE_BOTH &&
        !(tl_side_flags(g->sides, s) & TL_SIDE_ESCAPES)) {
        for (int l = 0; l < TL_CGEN_LANES; l++)
            if (mask >> l & 1) {
                tl_cgen_line(g, "/* %s */", lane_name(g, l));
                run(g, s, 1u << l, scope);
            }
        return;
    }
    if (!compound && tl_cgen_fuse(g, &s, 1, mask, scope)) return;
    run(g, s, mask, scope);
}

// --- functions and the module --------------------------------------------------------------

static bool on_chip(tl_scope_t s)
{
    return s == TL_SCOPE_L1 || s == TL_SCOPE_L0A || s == TL_SCOPE_L0B || s == TL_SCOPE_L0C ||
           s == TL_SCOPE_UB;
}

static void prologue(tl_cgen_t *g, unsigned lanes)
{
    const tl_kernel_t *k = g->k;
    tl_cgen_line(g, "tlc_err_t E = {0, 0, {0}};");
    tl_cgen_line(g, "uint64_t D = 0;");
    tl_cgen_line(g, "(void)E; (void)D; (void)env;");
    for (int i = 0; i < k->vars.len; i++) {
        const tl_var_t *v = k->vars.items[i];
        if (v->kind == TL_VAR_DIM || v->kind == TL_VAR_PARAM)
            tl_cgen_line(g, "const %s g%d = (%s)env->%s[%d];", tl_cgen_vtype(v->dtype), v->id,
                         tl_cgen_vtype(v->dtype), tl_dtype_is_float(v->dtype) ? "gf" : "gi", v->id);
    }
    tl_cgen_line(g, "const int64_t vcid = %s;", "cid");
    for (int i = 0; i < k->buffers.len; i++) {
        const tl_buffer_t *b = k->buffers.items[i];
        if (b->scope != TL_SCOPE_GM) continue;
        tl_cgen_line(g, "uint8_t *const G%d = env->gm[%d];", b->id, b->id);
        for (int d = 0; d < b->ndim; d++)
            tl_cgen_line(g, "const int64_t G%d_%d = env->gshape[%d];", b->id, d,
                         b->id * TL_MAX_DIMS + d);
    }
    tl_dtype_t vid_t = k->vid ? k->vid->dtype : TL_I32;
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        int idx = g->dev ? l : 0;
        tl_cgen_line(g, "tlc_lane_t *const L%d = &lanes[%d];", l, idx);
        for (int s = 0; s < TL_SCOPE_COUNT; s++)
            if (on_chip((tl_scope_t)s))
                tl_cgen_line(g, "uint8_t *const M%d_%d = L%d->mem[%d];", l, s, l, s);
        tl_buf_t w;
        tl_buf_init(&w);
        char src[32];
        snprintf(src, sizeof src, "L%d->vid", l);
        tl_cgen_cast(g, &w, vid_t, TL_I64, src);
        tl_cgen_line(g, "const int64_t vvid%d = %s;", l, tl_buf_cstr(&w));
        tl_buf_free(&w);
        for (int i = 0; i < k->vars.len; i++) {
            const tl_var_t *v = k->vars.items[i];
            if (v->kind == TL_VAR_LOOP || v->kind == TL_VAR_LET)
                tl_cgen_line(g, "%s v%d_%d = 0;", tl_cgen_vtype(v->dtype), v->id, l);
        }
        for (int i = 0; i < k->buffers.len; i++) {
            const tl_buffer_t *b = k->buffers.items[i];
            if (b->scope != TL_SCOPE_VAR) continue;
            tl_cgen_line(g, "%s r%d_%d[%" PRId64 "];", tl_dtype_ctype(b->dtype), b->id, l,
                         TL_MAX(tl_buffer_numel(b), 1));
        }
        for (int i = 0; g->ubview && i < k->buffers.len; i++) // UB buffers read in place
            if (g->ubview[i])
                tl_cgen_line(g, "uint8_t *V%d_%d = M%d_%d + INT64_C(%" PRId64 "); (void)V%d_%d;", i,
                             l, l, (int)TL_SCOPE_UB, g->addr[i], i, l);
    }
    // alloc_var initial values, per agent in buffer order (exec_mem.c)
    for (int l = 0; l < TL_CGEN_LANES; l++) {
        if (!(lanes >> l & 1)) continue;
        int save = g->lane;
        g->lane = l;
        for (int i = 0; i < k->buffers.len; i++) {
            const tl_buffer_t *b = k->buffers.items[i];
            if (b->scope != TL_SCOPE_VAR) continue;
            tl_cgen_line(g, "memset(r%d_%d, 0xff, sizeof r%d_%d);", b->id, l, b->id, l);
            if (!b->init) continue;
            char *v = tl_cgen_text(g, b->init, b->dtype);
            tl_buf_t out;
            tl_buf_init(&out);
            char addr[48];
            snprintf(addr, sizeof addr, "(%s *)r%d_%d", tl_dtype_ctype(b->dtype), b->id, l);
            tl_cgen_store(&out, b->dtype, addr, v);
            tl_cgen_line(g, "%s", tl_buf_cstr(&out));
            check(g);
            tl_buf_free(&out);
            free(v);
        }
        g->lane = save;
    }
}

static void function(tl_cgen_t *g, const char *name, unsigned lanes, int lane)
{
    tl_cgen_line(g,
                 "static int %s(const tlc_rt_t *rt, const tlc_env_t *env, tlc_lane_t *lanes, "
                 "int64_t cid)",
                 name);
    tl_cgen_line(g, "{");
    g->indent++;
    g->lane = lane;
    g->tmp = 0;
    prologue(g, lanes);
    if (g->views) { // prefetches of GM regions read in place (cgen_copy.c)
        tl_cgen_line(g, "tlc_pfq_t Q;");
        tl_cgen_line(g, "Q.head = Q.n = 0;");
    }
    push(g, g->k->body, g->dev ? lanes : 1u << lane, TL_SIDE_NONE);
    tl_cgen_line(g, "return 0;");
    g->indent--;
    tl_cgen_line(g, "}");
    tl_buf_putc(g->out, '\n');
}

static void functions(tl_cgen_t *g)
{
    if (g->dev) {
        function(g, "tlk_block", g->lanes, 0);
    } else {
        function(g, "tlk_cube", 1u, 0);
        function(g, "tlk_vec", 2u, 1);
    }
}

static void free_sites(tl_cgen_t *g)
{
    for (int i = 1; i < g->nsites; i++) free((char *)g->sites[i].msg);
    g->nsites = 0;
}

static bool has_waits(const tl_stmt_t *s)
{
    if (!s) return false;
    switch (s->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < s->seq.n; i++)
            if (has_waits(s->seq.items[i])) return true;
        return false;
    case TL_ST_FOR: return has_waits(s->for_.body);
    case TL_ST_WHILE: return has_waits(s->while_.body);
    case TL_ST_IF: return has_waits(s->if_.then_) || has_waits(s->if_.else_);
    case TL_ST_SCOPE: return has_waits(s->scope.body);
    case TL_ST_SYNC: return s->sync.kind == TL_SYNC_WAIT_CROSS || s->sync.kind == TL_SYNC_ALL;
    default: return false;
    }
}

tl_status_t tl_cgen_module(const tl_kernel_t *k, const tl_side_map_t *sides,
                           const tl_layout_t *layout, tl_cgen_result_t *out, tl_diag_t *d)
{
    memset(out, 0, sizeof *out);
    tl_cgen_t g;
    memset(&g, 0, sizeof g);
    g.k = k;
    g.sides = sides;
    g.addr = layout->addr;
    g.lanes = tl_side_block_lanes(k);
    g.d = d;
    g.dev = k->config.auto_cv_combine;
    size_t nv = (size_t)k->vars.len + 1;
    size_t nb = (size_t)k->buffers.len + 1;
    g.defs = calloc(nv, 1);
    g.ranges = calloc(nv, sizeof *g.ranges);
    g.ro = tl_alias_plan(k, layout);
    g.ubuse = calloc(nb, 1);
    tl_buf_t scratch, text;
    tl_buf_init(&scratch);
    tl_buf_init(&text);
    if (!g.defs || !g.ranges || !g.ro || !g.ubuse) g.st = TL_ERR_NOMEM;
    // first pass: which lanes assign which variables
    g.first_pass = true;
    g.out = &scratch;
    if (!g.st) functions(&g);
    free_sites(&g);
    memset(g.ranges, 0, sizeof *g.ranges * nv);
    if (!g.st) tl_cgen_view_plan(&g);
    g.first_pass = false;
    g.out = &text;
    tl_buf_puts(&text, "// generated by tilec from kernel ");
    tl_buf_puts(&text, k->name);
    tl_buf_puts(&text, "\n");
    tl_buf_puts(&text, tl_cgen_prelude);
    if (g.uses_f16) tl_buf_puts(&text, tl_cgen_prelude_f16);
    if (!g.st) functions(&g);
    tl_buf_free(&scratch);
    free(g.defs);
    free(g.ranges);
    free(g.ro);
    free(g.ubuse);
    free(g.ubview);
    if (g.st || text.failed) {
        free_sites(&g);
        free(g.sites);
        tl_buf_free(&text);
        return tl_diag_fail(d, g.st ? g.st : TL_ERR_NOMEM, "out of memory generating C");
    }
    out->source = tl_buf_take(&text);
    out->sites = g.sites;
    out->nsites = g.nsites ? g.nsites : 1;
    out->dev = g.dev;
    out->needs_coro = has_waits(k->body);
    out->pch_header = g.uses_f16 ? tl_cgen_pch_header : NULL;
    return TL_OK;
}

char *tl_cgen_export(const tl_cgen_result_t *r, const char *key)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_puts(&b, r->source);
    tl_buf_printf(&b,
                  "__attribute__((visibility(\"default\"))) const tlc_module_t tlk_module = "
                  "{TL_CPU_ABI, \"%s\", %s, %s, %s};\n",
                  key, r->dev ? "0" : "tlk_cube", r->dev ? "0" : "tlk_vec",
                  r->dev ? "tlk_block" : "0");
    return tl_buf_take(&b);
}

void tl_cgen_free(tl_cgen_result_t *r)
{
    if (!r) return;
    for (int i = 1; i < r->nsites; i++) free((char *)r->sites[i].msg);
    free(r->sites);
    free(r->source);
    memset(r, 0, sizeof *r);
}
