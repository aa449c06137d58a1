// The state of intra_sync's abstract execution (see intra_sync.c): compact
// access records whose walk positions and loop iterations are interned (a
// record compares iterations by pointer), the accesses of each statement
// computed once, and the operations on a state that do not depend on the
// walk: copying, meeting two paths and closing a loop. Meets and loop closes
// find a record's counterpart through a hash of its identity (statement,
// access, iterations) instead of a search, so they take time linear in the
// records.
#include "pass/intra_sync_int.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// --- hashing and interning -----------------------------------------------------------------------

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static uint64_t ptr_hash(const void *p)
{
    return mix(0x2545f4914f6cdd1dull, (uint64_t)(uintptr_t)p);
}

void **isync_tab_find(isync_tab_t *t, uint64_t h, bool (*eq)(const void *e, const void *key),
                      const void *key)
{
    if (!t->cap) return NULL;
    for (uint64_t i = h & (uint64_t)(t->cap - 1);; i = (i + 1) & (uint64_t)(t->cap - 1)) {
        if (!t->slot[i]) return &t->slot[i];
        if (t->hash[i] == h && eq(t->slot[i], key)) return &t->slot[i];
    }
}

bool isync_tab_grow(isync_tab_t *t)
{
    if (t->cap && (t->n + 1) * 4 < t->cap * 3) return true;
    int cap = t->cap ? t->cap * 2 : 256;
    void **slot = calloc((size_t)cap, sizeof *slot);
    uint64_t *hash = calloc((size_t)cap, sizeof *hash);
    if (!slot || !hash) {
        free(slot);
        free(hash);
        return false;
    }
    for (int i = 0; i < t->cap; i++) {
        if (!t->slot[i]) continue;
        uint64_t j = t->hash[i] & (uint64_t)(cap - 1);
        while (slot[j]) j = (j + 1) & (uint64_t)(cap - 1);
        slot[j] = t->slot[i];
        hash[j] = t->hash[i];
    }
    free(t->slot);
    free(t->hash);
    t->slot = slot;
    t->hash = hash;
    t->cap = cap;
    return true;
}

void isync_tab_put(isync_tab_t *t, void **at, uint64_t h, void *v)
{
    *at = v;
    t->hash[at - t->slot] = h;
    t->n++;
}

void isync_tab_free(isync_tab_t *t)
{
    free(t->slot);
    free(t->hash);
    memset(t, 0, sizeof *t);
}

typedef struct {
    int n;
    const pos_t *p;
} path_key_t;

static bool path_eq(const void *e, const void *key)
{
    const path_t *a = e;
    const path_key_t *k = key;
    if (a->n != k->n) return false;
    for (int i = 0; i < a->n; i++)
        if (a->p[i].seq != k->p[i].seq || a->p[i].index != k->p[i].index) return false;
    return true;
}

// The interned copy of a path or an iteration list (hash h; eq compares an
// entry with key): `head` bytes of header (the count first), then the items.
static const void *intern(sim_t *S, isync_tab_t *t, uint64_t h,
                          bool (*eq)(const void *e, const void *key), const void *key, size_t head,
                          int n, const void *items, size_t bytes)
{
    if (!isync_tab_grow(t)) {
        S->overflow = true;
        return NULL;
    }
    void **at = isync_tab_find(t, h, eq, key);
    if (*at) return *at;
    char *x = tl_arena_alloc(&S->arena, head + bytes);
    if (!x) {
        S->overflow = true;
        return NULL;
    }
    memcpy(x, &n, sizeof n);
    memcpy(x + head, items, bytes);
    isync_tab_put(t, at, h, x);
    return x;
}

const path_t *isync_path(sim_t *S, const pos_t *p, int n)
{
    uint64_t h = (uint64_t)n;
    for (int i = 0; i < n; i++)
        h = mix(mix(h, (uint64_t)(uintptr_t)p[i].seq), (uint64_t)p[i].index);
    path_key_t key = {n, p};
    return intern(S, &S->paths, h, path_eq, &key, offsetof(path_t, p), n, p,
                  sizeof p[0] * (size_t)n);
}

typedef struct {
    int n;
    const iter_t *it;
} iters_key_t;

static bool iters_eq(const void *e, const void *key)
{
    const iters_t *a = e;
    const iters_key_t *k = key;
    if (a->n != k->n) return false;
    for (int i = 0; i < a->n; i++)
        if (a->it[i].loop != k->it[i].loop || a->it[i].inst != k->it[i].inst ||
            a->it[i].copy != k->it[i].copy)
            return false;
    return true;
}

const iters_t *isync_iters(sim_t *S, const iter_t *it, int n)
{
    uint64_t h = (uint64_t)n + 7;
    for (int i = 0; i < n; i++)
        h = mix(mix(mix(h, (uint64_t)(uintptr_t)it[i].loop), (uint64_t)it[i].inst),
                (uint64_t)it[i].copy);
    iters_key_t key = {n, it};
    return intern(S, &S->iters, h, iters_eq, &key, offsetof(iters_t, it), n, it,
                  sizeof it[0] * (size_t)n);
}

// --- the accesses of a statement -----------------------------------------------------------------

static bool accs_eq(const void *e, const void *key)
{
    return ((const accs_t *)e)->stmt == key;
}

typedef struct {
    sim_t *S;
    tl_hazard_access_t *a;
    int n, cap;
} collect_t;

static void collect(void *arg, const tl_hazard_access_t *a)
{
    collect_t *c = arg;
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        tl_hazard_access_t *g = realloc(c->a, sizeof *g * (size_t)cap);
        if (!g) {
            c->S->overflow = true;
            return;
        }
        c->a = g;
        c->cap = cap;
    }
    c->a[c->n++] = *a;
}

// A sync's id may change (merged pairs, event ids), so its accesses are
// computed each time, into S->sync_accs.
const accs_t *isync_accesses(sim_t *S, const tl_stmt_t *s)
{
    if (s->kind == TL_ST_SYNC) {
        collect_t c = {S, S->sync_accs.a, 0, S->sync_cap};
        tl_hazard_stmt(s, collect, &c);
        S->sync_accs.a = c.a;
        S->sync_cap = c.cap;
        S->sync_accs.n = c.n;
        S->sync_accs.stmt = s;
        return &S->sync_accs;
    }
    uint64_t h = ptr_hash(s);
    if (!isync_tab_grow(&S->accs)) {
        S->overflow = true;
        return &S->sync_accs;
    }
    void **at = isync_tab_find(&S->accs, h, accs_eq, s);
    if (*at) return *at;
    collect_t c = {S, NULL, 0, 0};
    tl_hazard_stmt(s, collect, &c);
    accs_t *x = tl_arena_alloc(&S->arena, sizeof *x);
    tl_hazard_access_t *a = c.n ? tl_arena_dup(&S->arena, c.a, sizeof *c.a * (size_t)c.n) : NULL;
    free(c.a);
    if (!x || (c.n && !a)) {
        S->overflow = true;
        return &S->sync_accs;
    }
    x->stmt = s;
    x->n = c.n;
    x->a = a;
    isync_tab_put(&S->accs, at, h, x);
    return x;
}

// --- states --------------------------------------------------------------------------------------

void isync_state_free(state_t *s)
{
    free(s->r);
    memset(s, 0, sizeof *s);
}

void isync_state_copy(sim_t *S, state_t *dst, const state_t *src)
{
    *dst = *src;
    dst->r = NULL;
    dst->cap = src->n;
    if (src->n) {
        dst->r = malloc(sizeof *dst->r * (size_t)src->n);
        if (!dst->r) {
            S->overflow = true;
            dst->n = dst->cap = 0;
            return;
        }
        memcpy(dst->r, src->r, sizeof *dst->r * (size_t)src->n);
    }
}

rec_t *isync_push_rec(sim_t *S, state_t *st)
{
    if (st->n == st->cap) {
        int cap = st->cap ? st->cap * 2 : 32;
        rec_t *r = realloc(st->r, sizeof *r * (size_t)cap);
        if (!r) {
            S->overflow = true;
            return NULL;
        }
        st->r = r;
        st->cap = cap;
    }
    return &st->r[st->n++];
}

// A record's identity: the same access of the same statement in the same
// iterations (interned, so compared by pointer).
static bool same_rec(const rec_t *a, const rec_t *b)
{
    return a->acc->stmt == b->acc->stmt && a->acc_index == b->acc_index && a->iter == b->iter;
}

static uint64_t rec_hash(const rec_t *r)
{
    return mix(mix(ptr_hash(r->acc->stmt), (uint64_t)r->acc_index), (uint64_t)(uintptr_t)r->iter);
}

// Record indices by identity: the first index of each identity added.
typedef struct {
    int *slot; // index + 1; 0 empty
    int cap;
} idmap_t;

static bool idmap_init(idmap_t *m, int n)
{
    m->cap = 16;
    while (m->cap < 2 * n + 2) m->cap *= 2;
    m->slot = calloc((size_t)m->cap, sizeof *m->slot);
    return m->slot != NULL;
}

// The index of r's identity among recs, or -1; with add, r's index i is
// added when the identity is new.
static int idmap_lookup(idmap_t *m, const rec_t *recs, const rec_t *r, bool add, int i)
{
    uint64_t h = rec_hash(r);
    for (uint64_t j = h & (uint64_t)(m->cap - 1);; j = (j + 1) & (uint64_t)(m->cap - 1)) {
        int v = m->slot[j];
        if (!v) {
            if (add) m->slot[j] = i + 1;
            return -1;
        }
        if (same_rec(&recs[v - 1], r)) return v - 1;
    }
}

bool isync_whole_buffer(const tl_hazard_access_t *a)
{
    const tl_buffer_t *b = a->buf;
    if (b->scope == TL_SCOPE_GM) return false;
    int64_t n = 1;
    for (int d = 0; d < b->ndim; d++) n *= b->shape[d];
    if (a->flat) {
        bool at_origin = true;
        for (int d = 0; d < a->ndim; d++)
            if (a->start[d] && !(a->start[d]->kind == TL_EX_INT && a->start[d]->i == 0))
                at_origin = false;
        return at_origin && (a->len < 0 || a->len >= n);
    }
    if (a->ndim != b->ndim) return false;
    for (int d = 0; d < b->ndim; d++) {
        if (a->start[d] && !(a->start[d]->kind == TL_EX_INT && a->start[d]->i == 0)) return false;
        if (a->ext[d] >= 0 && a->ext[d] < b->shape[d]) return false;
    }
    return true;
}

// State after either of two paths: a record keeps the pipes ordered on both;
// a pending flag survives when both paths have it (else a later wait on it
// orders nothing, which is safe). The two paths may hold one flag in
// different slots (a set placed at another point in each branch).
static bool same_flag(const slot_t *x, const slot_t *y)
{
    return x->used && y->used && x->src == y->src && x->dst == y->dst && x->konst == y->konst &&
           x->id == y->id && x->expr == y->expr;
}

// b's slot bits in a's numbering (to: b's slot -> a's, -1 none)
static uint64_t remap(uint64_t bits, const int *to)
{
    uint64_t r = 0;
    for (int t = 0; bits && t < SLOTS; t++)
        if ((bits >> t & 1) && to[t] >= 0) r |= 1ull << to[t];
    return r;
}

// Records that differ only in their statement are one record from here on:
// accesses of all of one on-chip buffer on one pipe, both reads or both
// writes, in the same iterations, with the same pipes ordered after them and
// the same pending flags. Syncs change such records alike (by pipe, order and
// flags alone), and a later access conflicts with all of them or none; the
// newest is kept, the one the conflict search (newest first) reports. Joins
// of long elif chains (a flat chain of ifs, front/trace.c) would otherwise
// carry one record per branch for ever.
static uint64_t equiv_hash(const rec_t *r)
{
    uint64_t h = mix(ptr_hash(r->acc->buf), (uint64_t)r->pipe * 2 + r->write);
    return mix(mix(h, (uint64_t)r->ord), mix(r->slots, (uint64_t)(uintptr_t)r->iter));
}

static bool equivalent(const rec_t *x, const rec_t *y)
{
    return x->acc->buf == y->acc->buf && x->pipe == y->pipe && x->write == y->write &&
           x->ord == y->ord && x->slots == y->slots && x->iter == y->iter;
}

static void merge_equivalent(sim_t *S, state_t *st)
{
    int whole = 0;
    for (int i = 0; i < st->n && whole < 2; i++) whole += isync_whole_buffer(st->r[i].acc);
    if (whole < 2) return;
    idmap_t m;
    if (!idmap_init(&m, st->n)) {
        S->overflow = true;
        return;
    }
    bool *drop = calloc((size_t)st->n, sizeof *drop);
    if (!drop) {
        free(m.slot);
        S->overflow = true;
        return;
    }
    for (int i = st->n - 1; i >= 0; i--) {
        const rec_t *r = &st->r[i];
        if (!isync_whole_buffer(r->acc)) continue;
        uint64_t j = equiv_hash(r) & (uint64_t)(m.cap - 1);
        for (;; j = (j + 1) & (uint64_t)(m.cap - 1)) {
            int v = m.slot[j];
            if (!v) {
                m.slot[j] = i + 1;
                break;
            }
            if (equivalent(&st->r[v - 1], r)) {
                drop[i] = true;
                break;
            }
        }
    }
    int w = 0;
    for (int i = 0; i < st->n; i++)
        if (!drop[i]) st->r[w++] = st->r[i];
    st->n = w;
    free(drop);
    free(m.slot);
}

void isync_meet(sim_t *S, state_t *a, state_t *b)
{
    if (b->dead) {
        isync_state_free(b);
        return;
    }
    if (a->dead) {
        isync_state_free(a);
        *a = *b;
        memset(b, 0, sizeof *b);
        return;
    }
    uint64_t keep = 0;
    int to[SLOTS];
    for (int u = 0; u < SLOTS; u++) to[u] = -1;
    for (int t = 0; t < SLOTS; t++) {
        slot_t *x = &a->slot[t];
        if (!x->used) continue;
        int u = same_flag(x, &b->slot[t]) ? t : -1; // the same slot first
        for (int v = 0; u < 0 && v < SLOTS; v++)
            if (to[v] < 0 && same_flag(x, &b->slot[v])) u = v;
        if (u >= 0 && to[u] < 0) {
            keep |= 1ull << t;
            to[u] = t;
        } else {
            x->used = false;
        }
    }
    idmap_t in_b, in_a;
    if (!idmap_init(&in_b, b->n) || !idmap_init(&in_a, a->n + b->n)) {
        free(in_b.slot);
        S->overflow = true;
        isync_state_free(b);
        return;
    }
    for (int j = 0; j < b->n; j++) idmap_lookup(&in_b, b->r, &b->r[j], true, j);
    for (int i = 0; i < a->n; i++) {
        rec_t *r = &a->r[i];
        int j = idmap_lookup(&in_b, b->r, r, false, 0);
        if (j >= 0) {
            r->ord &= b->r[j].ord;
            r->slots &= remap(b->r[j].slots, to);
        }
        r->slots &= keep;
        idmap_lookup(&in_a, a->r, r, true, i);
    }
    for (int j = 0; j < b->n; j++) {
        if (idmap_lookup(&in_a, a->r, &b->r[j], false, 0) >= 0) continue;
        rec_t *r = isync_push_rec(S, a);
        if (!r) break;
        *r = b->r[j];
        r->slots = remap(r->slots, to) & keep;
        idmap_lookup(&in_a, a->r, r, true, a->n - 1);
    }
    free(in_b.slot);
    free(in_a.slot);
    isync_state_free(b);
    merge_equivalent(S, a);
}

// Records of loop L's iterations become records of "some iteration" (copy 0),
// and records that thereby become the same are merged into the first.
void isync_close_loop(sim_t *S, const tl_stmt_t *L, int inst)
{
    state_t *st = &S->st;
    // each distinct iteration list changes once (a small cache of the last one)
    const iters_t *from = NULL, *to = NULL;
    for (int i = 0; i < st->n; i++) {
        const iters_t *it = st->r[i].iter;
        int j = 0;
        while (j < it->n && !(it->it[j].loop == L && it->it[j].inst == inst)) j++;
        if (j == it->n) continue;
        if (it != from) {
            iter_t buf[MAXD];
            memcpy(buf, it->it, sizeof buf[0] * (size_t)it->n);
            for (int k = 0; k < it->n; k++)
                if (buf[k].loop == L && buf[k].inst == inst) buf[k].copy = 0;
            from = it;
            to = isync_iters(S, buf, it->n);
            if (!to) return;
        }
        st->r[i].iter = to;
    }
    idmap_t m;
    if (!idmap_init(&m, st->n)) {
        S->overflow = true;
        return;
    }
    int w = 0;
    for (int i = 0; i < st->n; i++) {
        int j = idmap_lookup(&m, st->r, &st->r[i], false, 0);
        if (j >= 0) {
            st->r[j].ord &= st->r[i].ord;
            st->r[j].slots &= st->r[i].slots;
        } else {
            st->r[w] = st->r[i];
            idmap_lookup(&m, st->r, &st->r[w], true, w);
            w++;
        }
    }
    st->n = w;
    free(m.slot);
}
