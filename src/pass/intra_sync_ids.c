// Event ids of intra_sync (see intra_sync.c): the flag pairs' ids coloured
// on their live ranges.
#include "pass/intra_sync_int.h"
#include "pass/rewrite.h"
#include <stdlib.h>
#include <string.h>

// --- event ids -----------------------------------------------------------------------------------

typedef struct {
    const tl_stmt_t **order;
    int n, cap;
} order_t;

static void number(void *arg, tl_stmt_t *s)
{
    order_t *o = arg;
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 256;
        const tl_stmt_t **g = realloc(o->order, sizeof *g * (size_t)cap);
        if (!g) return;
        o->order = g;
        o->cap = cap;
    }
    o->order[o->n++] = s;
}

static int position(const order_t *o, const tl_stmt_t *s)
{
    for (int i = 0; i < o->n; i++)
        if (o->order[i] == s) return i;
    return -1;
}

typedef struct {
    uint8_t reserved[TL_PIPE_COUNT][TL_PIPE_COUNT]; // event ids the kernel's own syncs use
} manual_t;

static void reserve(void *arg, tl_stmt_t *s)
{
    manual_t *m = arg;
    if (s->kind != TL_ST_SYNC || s->inserted ||
        (s->sync.kind != TL_SYNC_SET_FLAG && s->sync.kind != TL_SYNC_WAIT_FLAG))
        return;
    if (s->sync.src >= TL_PIPE_COUNT || s->sync.dst >= TL_PIPE_COUNT) return;
    int64_t id, c;
    uint8_t *r = &m->reserved[s->sync.src][s->sync.dst];
    if (tl_ir_is_const_int(s->sync.id, &id)) {
        if (id >= 0 && id < EVENT_IDS) *r |= (uint8_t)(1u << id);
    } else if (s->sync.id && s->sync.id->kind == TL_EX_BIN &&
               (s->sync.id->op.op == TL_BIN_MOD || s->sync.id->op.op == TL_BIN_FLOORMOD) &&
               tl_ir_is_const_int(s->sync.id->op.b, &c) && c > 0 && c <= EVENT_IDS) {
        *r |= (uint8_t)((1u << c) - 1);
    } else {
        *r = 0xFF;
    }
}

typedef struct {
    int item, start, end;
    int tried; // a + 1 once tried as a merge target for pair a
} live_t;

static int by_start(const void *a, const void *b)
{
    const live_t *x = a, *y = b;
    return x->start != y->start ? x->start - y->start : x->item - y->item;
}

// The innermost loop, if or while around s (NULL: the kernel body), found
// from the root.
static bool control_of(const tl_stmt_t *root, const tl_stmt_t *ctl, const tl_stmt_t *s,
                       const tl_stmt_t **out)
{
    if (!root) return false;
    if (root == s) {
        *out = ctl;
        return true;
    }
    switch (root->kind) {
    case TL_ST_SEQ:
        for (int i = 0; i < root->seq.n; i++)
            if (control_of(root->seq.items[i], ctl, s, out)) return true;
        return false;
    case TL_ST_FOR: return control_of(root->for_.body, root, s, out);
    case TL_ST_WHILE: return control_of(root->while_.body, root, s, out);
    case TL_ST_IF:
        return control_of(root->if_.then_, root, s, out) ||
               control_of(root->if_.else_, root, s, out);
    case TL_ST_SCOPE: return control_of(root->scope.body, ctl, s, out);
    default: return false;
    }
}

static const tl_stmt_t *control(const sim_t *S, const tl_stmt_t *s)
{
    const tl_stmt_t *c = NULL;
    return control_of(S->k->body, NULL, s, &c) ? c : s; // not found: matches nothing
}

// Merges flag pair x into pair y of the same pipes and form, when their ids
// run out: the earlier of the two waits and the later of the two sets stay
// (with y's id), the rest goes. Only between syncs under the same loop or if
// (so set and wait counts still match) and kept only when the program still
// has no unordered conflict.
// How far apart the body waits and the body sets of two pairs are.
static int pair_distance(const order_t *o, const item_t *x, const item_t *y)
{
    int xw = x->loop ? 1 : 0, xs = x->loop ? 0 : 1, yw = y->loop ? 1 : 0, ys = y->loop ? 0 : 1;
    int d = abs(position(o, x->stmts[xw]) - position(o, y->stmts[yw])) +
            abs(position(o, x->stmts[xs]) - position(o, y->stmts[ys]));
    return d;
}

static bool merge_pair(sim_t *S, const order_t *o, item_t *x, item_t *y)
{
    // a plain pair merges into a plain or a loop-carried one (into its body
    // wait and set), a loop-carried pair into a loop-carried one
    if (x->side != y->side || (x->loop && !y->loop) || x->extra || y->extra) return false;
    bool xloop = x->loop, yloop = y->loop;
    int xw = xloop ? 1 : 0, xs = xloop ? 0 : 1, yw = yloop ? 1 : 0, ys = yloop ? 0 : 1;
    int map[4] = {0, 1, 2, 3}; // x's sync j pairs with y's sync map[j]
    map[xw] = yw;
    map[xs] = ys;
    int pos[2][4] = {{0}};
    for (int j = 0; j < x->n; j++) {
        if (x->syncs[j]->sync.kind != y->syncs[map[j]]->sync.kind ||
            control(S, x->stmts[j]) != control(S, y->stmts[map[j]]))
            return false;
        pos[0][j] = position(o, x->stmts[j]);
        pos[1][j] = position(o, y->stmts[map[j]]);
        if (pos[0][j] < 0 || pos[1][j] < 0) return false;
    }
    // the syncs that stay: the earlier wait, the later set
    bool take_w = pos[0][xw]<pos[1][xw], take_s = pos[0][xs]> pos[1][xs];
    int wpos = take_w ? pos[0][xw] : pos[1][xw], spos = take_s ? pos[0][xs] : pos[1][xs];
    if (!yloop && spos > wpos) return false; // the set must still come first
    item_t saved = *y;
    tl_expr_t *xid[4];
    int n0 = S->ndisabled;
    for (int j = 0; j < x->n; j++) {
        xid[j] = x->syncs[j]->sync.id;
        if ((j == xw && take_w) || (j == xs && take_s)) {
            x->syncs[j]->sync.id = y->syncs[map[j]]->sync.id;
            isync_disable(S, y->stmts[map[j]]);
            y->stmts[map[j]] = x->stmts[j];
            y->syncs[map[j]] = x->syncs[j];
        } else {
            isync_disable(S, x->stmts[j]);
        }
    }
    S->side = x->side;
    S->pipes = isync_side_pipes[x->side];
    if (isync_simulate(S) || S->overflow) {
        S->overflow = false;
        isync_enable_last(S, S->ndisabled - n0);
        for (int j = 0; j < x->n; j++) x->syncs[j]->sync.id = xid[j];
        *y = saved;
        return false;
    }
    x->removed = true;
    return true;
}

// When one pipe pair has more flag pairs than event ids, first merges pairs
// whose waits and sets are next to each other (the loads of an A and a B
// tile, released by their two L1 -> L0 copies): one pair then does the work of
// two and loses almost no overlap.
static void merge_neighbours(sim_t *S, const order_t *o)
{
    enum { NEAR = 8 };
    int count[TL_PIPE_COUNT][TL_PIPE_COUNT] = {{0}};
    for (int i = 0; i < S->nitems; i++) {
        const item_t *it = &S->items[i];
        if (!it->removed && it->pair && it->src < TL_PIPE_COUNT && it->dst < TL_PIPE_COUNT)
            count[it->src][it->dst]++;
    }
    for (int i = 0; i < S->nitems; i++) {
        item_t *x = &S->items[i];
        if (x->removed || !x->pair || x->src >= TL_PIPE_COUNT || x->dst >= TL_PIPE_COUNT ||
            count[x->src][x->dst] <= EVENT_IDS)
            continue;
        for (int j = 0; j < S->nitems; j++) {
            item_t *y = &S->items[j];
            if (j == i || y->removed || !y->pair || y->src != x->src || y->dst != x->dst ||
                pair_distance(o, x, y) > NEAR)
                continue;
            if (merge_pair(S, o, x, y)) {
                count[x->src][x->dst]--;
                break;
            }
        }
    }
}

// Colours the flag pairs of each pipe pair with event ids; a pair that finds
// none free is merged into a pair that has one where that keeps the program
// ordered (merge_pair), else it becomes a barrier_all at its waits.
void isync_assign_ids(sim_t *S)
{
    order_t o = {0};
    tl_rewrite_walk(S->k->body, number, &o);
    manual_t m;
    memset(&m, 0, sizeof m);
    tl_rewrite_walk(S->k->body, reserve, &m);
    merge_neighbours(S, &o);
    live_t *lv = calloc((size_t)S->nitems + 1, sizeof *lv);
    int nl = 0;
    for (int i = 0; lv && i < S->nitems; i++) {
        item_t *it = &S->items[i];
        if (it->removed || !it->pair) continue;
        int lo = -1, hi = -1;
        for (int j = 0; j < it->n; j++) {
            int p = position(&o, it->stmts[j]);
            if (p < 0) continue;
            if (lo < 0 || p < lo) lo = p;
            if (p > hi) hi = p;
        }
        lv[nl++] = (live_t){i, lo, hi, 0};
    }
    if (lv) qsort(lv, (size_t)nl, sizeof *lv, by_start);
    for (int a = 0; lv && a < nl; a++) {
        item_t *it = &S->items[lv[a].item];
        uint8_t used = m.reserved[it->src][it->dst];
        for (int b = 0; b < a; b++) {
            item_t *o2 = &S->items[lv[b].item];
            if (o2->removed || o2->src != it->src || o2->dst != it->dst || lv[b].end < lv[a].start)
                continue;
            int64_t id;
            if (tl_ir_is_const_int(o2->syncs[0]->sync.id, &id) && id >= 0)
                used |= (uint8_t)(1u << id);
        }
        int id = 0;
        while (id < EVENT_IDS && (used >> id & 1)) id++;
        if (id < EVENT_IDS) {
            tl_expr_t *e = tl_ir_int(S->k, id, TL_I32, it->syncs[0]->loc);
            for (int j = 0; j < it->n; j++) it->syncs[j]->sync.id = e;
            continue;
        }
        // the pairs of these pipes live here, nearest first (the merge moves
        // the syncs the least)
        bool merged = false;
        for (int tries = 0; tries < a && !merged; tries++) {
            int best = -1, best_d = 0;
            for (int b = 0; b < a; b++) {
                item_t *y = &S->items[lv[b].item];
                if (y->removed || y->src != it->src || y->dst != it->dst ||
                    lv[b].end < lv[a].start || lv[b].tried == a + 1)
                    continue;
                int d = pair_distance(&o, it, y);
                if (best < 0 || d < best_d) best = b, best_d = d;
            }
            if (best < 0) break;
            lv[best].tried = a + 1;
            if (merge_pair(S, &o, it, &S->items[lv[best].item])) {
                merged = true;
                lv[best].end = TL_MAX(lv[best].end, lv[a].end);
            }
        }
        if (merged) continue;
        // No event id left: order with barrier_all at every wait instead (a
        // pair's waits may guard different consumers: the unrolled copies of
        // a pipelined loop, the wait after a loop).
        it->removed = true;
        for (int j = 0; j < it->n; j++) {
            tl_stmt_t *s = it->syncs[j];
            if (s->sync.kind == TL_SYNC_WAIT_FLAG) {
                s->sync.kind = TL_SYNC_BARRIER_ALL;
                s->sync.src = TL_PIPE_ALL;
                s->sync.dst = TL_PIPE_NONE;
                s->sync.id = NULL;
            } else {
                isync_disable(S, it->stmts[j]);
            }
        }
        tl_diag_note(S->ctx->diag, it->syncs[0]->loc,
                     "intra_sync: no free %s->%s event id here; a barrier_all orders this instead",
                     tl_pipe_name(it->src), tl_pipe_name(it->dst));
    }
    free(lv);
    free(o.order);
}
