// The list scheduler of the schedule pass (see schedule.c): orders of a
// segment built in the timing model and priced against the program's order.
#include "pass/schedule_int.h"

#include <stdlib.h>
#include <string.h>

// --- list scheduling ----------------------------------------------------------------------------

static void heights(sched_t *S)
{
    int n = S->n;
    for (int i = n - 1; i >= 0; i--) {
        node_t *a = &S->nodes[i];
        int64_t own = a->kind == N_UNIT ? a->sum.span : a->occ + a->lat, tail = 0;
        for (int j = i + 1; j < n; j++)
            if (S->dep[i * n + j]) tail = TL_MAX(tail, S->nodes[j].height);
        a->height = own + tail;
    }
}

// The list schedule of the current nodes into order[]; returns its modeled cycles.
static int64_t list_schedule(sched_t *S, int *order, slot_t *slot, int *npred, bool window)
{
    int n = S->n;
    model_t m;
    sched_model_init(&m);
    for (int j = 0; j < n; j++) {
        npred[j] = 0;
        for (int i = 0; i < j; i++) npred[j] += S->dep[i * n + j] != 0;
    }
    int64_t *start = malloc(sizeof *start * (size_t)n);
    if (!start) {
        S->oom = true;
        return INT64_MAX;
    }
    for (int step = 0; step < n; step++) {
        // the ready node that can start first, and its occupancy: any ready
        // node that starts before that op would end may go first, the one
        // with the longest path to the end (then the first in program order)
        int first = -1;
        for (int i = 0; i < n; i++) {
            if (npred[i]) continue;
            start[i] = sched_place(S, &m, slot, i, false);
            if (first < 0 || start[i] < start[first]) first = i;
        }
        const node_t *f = &S->nodes[first];
        int64_t until = start[first] + (window ? TL_MAX(1, f->kind == N_UNIT ? 1 : f->occ) : 1);
        int best = first;
        for (int i = 0; i < n; i++)
            if (!npred[i] && start[i] < until &&
                (S->nodes[i].height > S->nodes[best].height ||
                 (S->nodes[i].height == S->nodes[best].height && i < best)))
                best = i;
        sched_place(S, &m, slot, best, true);
        order[step] = best;
        npred[best] = -1;
        for (int j = best + 1; j < n; j++)
            if (S->dep[best * n + j]) npred[j]--;
    }
    free(start);
    return sched_model_end(&m);
}

// Modeled cycles of two iterations of a loop body in `order`: the second
// iteration's statements also wait for every statement of the first they
// conflict with (in either order; a conservative view of the dependences
// across the back edge), so the tail of one iteration meets the head of the
// next as in the steady state. -1 when out of memory.
static int64_t model_twice(sched_t *S, const int *order)
{
    int n = S->n, n2 = 2 * n;
    node_t *nodes = malloc(sizeof *nodes * (size_t)n2);
    dep_t *dep = calloc((size_t)n2 * (size_t)n2, 1);
    int *mp0 = malloc(sizeof *mp0 * (size_t)(n2 + 1)),
        *order2 = malloc(sizeof *order2 * (size_t)n2);
    int *mpred = malloc(sizeof *mpred * ((size_t)n * (size_t)n2 + 1));
    slot_t *slot = malloc(sizeof *slot * (size_t)n2);
    int64_t t = -1;
    if (nodes && dep && mp0 && order2 && mpred && slot) {
        int edges = 0;
        for (int j = 0; j < n2; j++) {
            nodes[j] = S->nodes[j % n];
            order2[j] = j < n ? order[j] : order[j - n] + n;
            mp0[j] = edges;
            for (int i = 0; i < j; i++) {
                int a = i % n, b = j % n;
                dep_t d = i < n && j >= n      ? S->dep[TL_MIN(a, b) * n + TL_MAX(a, b)]
                          : (i < n) == (j < n) ? S->dep[a * n + b]
                                               : 0;
                if (i < n && j >= n && a == b && S->nodes[a].acc1 > S->nodes[a].acc0)
                    d |= DEP | DEP_MEM;
                dep[i * n2 + j] = d;
                if (d & DEP_MEM) mpred[edges++] = i;
            }
        }
        mp0[n2] = edges;
        sched_t T = *S;
        T.nodes = nodes;
        T.dep = dep;
        T.mp0 = mp0;
        T.mpred = mpred;
        T.n = n2;
        t = sched_model_order(&T, order2, slot, NULL);
    }
    free(nodes);
    free(dep);
    free(mp0);
    free(order2);
    free(mpred);
    free(slot);
    return t;
}

static void set_l2(sched_t *S, bool warm)
{
    for (int i = 0; i < S->n; i++)
        if (S->nodes[i].kind == N_PIPE)
            S->nodes[i].lat = warm ? S->nodes[i].lat_warm : S->nodes[i].lat_cold;
}

static cost_t cost_of(sched_t *S, const int *order, bool twice, slot_t *slot)
{
    cost_t c;
    c.cold = twice ? model_twice(S, order) : sched_model_order(S, order, slot, NULL);
    set_l2(S, true);
    c.warm = twice ? model_twice(S, order) : sched_model_order(S, order, slot, NULL);
    set_l2(S, false);
    return c;
}

// Whether c ends earlier than best with a cold L2 and no later with a warm one.
bool sched_better(cost_t c, cost_t best)
{
    return c.cold >= 0 && c.warm >= 0 && c.cold < best.cold && c.warm <= best.warm;
}

// Schedules items[0 .. n) in place (`body`: they are a whole loop body) and
// appends the modeled run of the order kept to sum.
cost_t sched_segment(sched_t *S, tl_stmt_t **items, int n, bool body, summary_t *sum, bool *moved)
{
    cost_t zero = {0, 0};
    if (!sched_build(S, items, n)) return zero;
    int *order = malloc(sizeof *order * (size_t)n * 4);
    bool changed = false;
    slot_t *slot = malloc(sizeof *slot * (size_t)n);
    if (!order || !slot) {
        S->oom = true;
        free(order);
        free(slot);
        return zero;
    }
    int *orig = order + n, *npred = order + 2 * n, *keep = order + 3 * n;
    unsigned pipes = 0;
    bool scalar = false;
    for (int i = 0; i < n; i++) {
        orig[i] = i;
        const node_t *a = &S->nodes[i];
        pipes |= a->kind == N_UNIT ? a->sum.pipes : 1u << a->pipe | (a->pre ? 1u << TL_PIPE_S : 0);
        scalar |= a->kind == N_UNIT ? a->sum.scalar : a->kind == N_SCALAR || a->pre;
    }
    // Candidates: the program's order, the list schedule that lets a ready
    // statement with a longer path to the end go before one that starts a
    // little earlier, and the one that always takes the earliest start. The
    // model picks (over two iterations for a loop body) with GM reads missing
    // the L2 (cold), among the orders no slower than the program's when they
    // hit (warm); ties to the first.
    model_t m;
    sched_model_order(S, orig, slot, &m);
    bool twice = body && n <= MAX_LOOP_NODES;
    cost_t prog = cost_of(S, orig, twice, slot), best = prog;
    if (n > 1) {
        heights(S);
        for (int v = 0; v < 2; v++) {
            list_schedule(S, order, slot, npred, v == 0);
            cost_t c = cost_of(S, order, twice, slot);
            if (!sched_better(c, prog) || (changed && c.cold >= best.cold)) continue;
            best = c;
            memcpy(keep, order, sizeof *order * (size_t)n);
            changed = true;
        }
    }
    if (changed) {
        tl_stmt_t **tmp = malloc(sizeof *tmp * (size_t)n);
        if (tmp) {
            for (int i = 0; i < n; i++) {
                tmp[i] = items[keep[i]];
                *moved |= keep[i] != i;
            }
            memcpy(items, tmp, sizeof *tmp * (size_t)n);
            free(tmp);
            sched_model_order(S, keep, slot, &m);
        }
    }
    sched_summary_add(sum, &m, pipes, scalar);
    free(order);
    free(slot);
    return best;
}
