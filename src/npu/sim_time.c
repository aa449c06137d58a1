// The timing model's core: in-order issue by the scalar unit (arch
// issue_cycles per tile instruction, scalar_cycles per scalar one; queues of
// arch->queue_depth entries per pipe whose fullness stalls issue), in-order pipes whose consecutive
// instructions overlap (the next may start when the previous one's occupancy ends; its latency runs
// on), and GM transfers: an L2 of 512-byte lines (a line touched stays until the L2 is full and
// it is the least recently used; a line read from HBM is there when its data arrives, and a request
// for it before then waits for it; empty at the start, or holding the input tensors with opts.l2
// warm) and the
// chip's L2 and HBM bandwidth shared by every transfer in flight, in buckets of absolute time, each
// transfer at most at its pipe's per-core rate, first come first served: the executor runs the
// agents of a wave in the order of modeled time (sim.c), so a transfer books what earlier transfers
// of any block left.
#include "npu/sim_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_time_issue(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in, sim_cost_fn cost, void *arg)
{
    int p = in->pipe;
    int64_t t = ag->issue;
    if (p == SIM_S) {
        if (cost) cost(s, ag, in, ag->blk->base + t, arg);
        int64_t occ = TL_MAX(in->occ, 1);
        in->start = t;
        in->end = t + occ + in->lat;
        ag->issue = t + occ;
        ag->busy[SIM_S] += occ;
        ag->fly[SIM_S] += occ; // the scalar unit's latency does not hold it
        ag->done[SIM_S] = TL_MAX(ag->done[SIM_S], in->end);
        return;
    }
    uint32_t depth = (uint32_t)TL_MAX(1, TL_MIN(s->arch->queue_depth, SIM_QMAX));
    uint32_t slot = ag->qn[p] % depth;
    if (ag->qn[p] >= depth) t = TL_MAX(t, ag->ring[p][slot]); // full: wait for the oldest
    int64_t start = TL_MAX(t + 1, TL_MAX(ag->free[p], ag->gate[p]));
    if (cost) cost(s, ag, in, ag->blk->base + start, arg);
    ag->ring[p][slot] = start;
    ag->qn[p]++;
    ag->free[p] = start + in->occ;
    in->start = start;
    in->end = start + in->occ + in->lat;
    ag->done[p] = TL_MAX(ag->done[p], in->end);
    ag->busy[p] += in->occ;
    // starts are in order: the union of [start, end) grows by what passes the last end
    ag->fly[p] += TL_MAX(0, in->end - TL_MAX(start, ag->flown[p]));
    ag->flown[p] = TL_MAX(ag->flown[p], in->end);
    int64_t issue = s->arch->issue_cycles + in->issue_extra;
    ag->issue = t + issue;
    ag->busy[SIM_S] += issue;
    ag->fly[SIM_S] += issue;
}

int64_t sim_time_drained(const sim_agent_t *ag, int p)
{
    return p == SIM_S ? ag->issue : ag->done[p];
}

int64_t sim_time_agent_end(const sim_agent_t *ag)
{
    int64_t t = ag->issue;
    for (int p = 0; p < SIM_NP; p++) t = TL_MAX(t, ag->done[p]);
    return t;
}

// Bandwidth of the chip in buckets of BUCKET cycles: what the transfers
// modeled so far use of the L2 (every GM byte) and of HBM (L2 misses).
enum { BUCKET = 256 };

static bool buckets(tl_sim_t *s, int64_t k)
{
    if (k < s->nbuckets) return true;
    int64_t n = TL_MAX(k + 1, s->nbuckets * 2);
    double *l2 = realloc(s->bw_l2, sizeof *l2 * (size_t)n);
    if (l2) s->bw_l2 = l2;
    double *hbm = l2 ? realloc(s->bw_hbm, sizeof *hbm * (size_t)n) : NULL;
    if (!hbm) return false;
    s->bw_hbm = hbm;
    memset(l2 + s->nbuckets, 0, sizeof *l2 * (size_t)(n - s->nbuckets));
    memset(hbm + s->nbuckets, 0, sizeof *hbm * (size_t)(n - s->nbuckets));
    s->nbuckets = n;
    return true;
}

int64_t sim_time_bw(tl_sim_t *s, int64_t t, double bytes, double miss, double cap)
{
    const tl_arch_t *a = s->arch;
    double l2cap = tl_arch_l2_bpc(a) * BUCKET, hbmcap = tl_arch_hbm_bpc(a) * BUCKET;
    double now = (double)t, left = bytes, mf = bytes > 0 ? miss / bytes : 0;
    while (left > 0) {
        int64_t k = (int64_t)(now / BUCKET);
        if (!buckets(s, k)) return (int64_t)ceil(left / cap);
        double d = (double)(k + 1) * BUCKET - now;
        double room = l2cap - s->bw_l2[k];
        if (mf > 0) room = fmin(room, (hbmcap - s->bw_hbm[k]) / mf);
        double x = fmax(0, fmin(left, fmin(cap * d, room)));
        s->bw_l2[k] += x;
        s->bw_hbm[k] += x * mf;
        left -= x;
        now = left > 0 ? (double)(k + 1) * BUCKET : now + x / cap;
    }
    return (int64_t)ceil(now - (double)t);
}

// When each 512-byte line of a GM buffer of `total` bytes is in the L2
// (L2_ABSENT: not there; NULL: out of memory). Its lines get numbers
// l2_base[id] .. + lines - 1 among the launch's lines, for the use order.
enum { L2_ABSENT = INT64_MAX };

static int64_t *l2_lines(tl_sim_t *s, const tl_buffer_t *buf, int64_t total)
{
    if (!s->l2[buf->id]) {
        int64_t lines = (total + s->arch->l2_line_bytes - 1) / s->arch->l2_line_bytes;
        if (s->lru_n + lines > s->lru_cap) {
            int64_t cap = TL_MAX(2 * s->lru_cap, s->lru_n + lines);
            int64_t *prev = realloc(s->lru_prev, sizeof *prev * (size_t)cap);
            if (prev) s->lru_prev = prev;
            int64_t *next = prev ? realloc(s->lru_next, sizeof *next * (size_t)cap) : NULL;
            if (next) s->lru_next = next;
            int *owner = next ? realloc(s->lru_buf, sizeof *owner * (size_t)cap) : NULL;
            if (owner) s->lru_buf = owner;
            uint8_t *dirty = owner ? realloc(s->lru_dirty, (size_t)cap) : NULL;
            if (!dirty) return NULL;
            s->lru_dirty = dirty;
            s->lru_cap = cap;
        }
        int64_t *at = malloc(sizeof *at * (size_t)(lines + 1));
        for (int64_t l = 0; at && l < lines; l++) {
            at[l] = L2_ABSENT;
            s->lru_buf[s->lru_n + l] = buf->id;
            s->lru_dirty[s->lru_n + l] = 0;
        }
        s->l2[buf->id] = at;
        s->l2_lines[buf->id] = lines;
        s->l2_base[buf->id] = s->lru_n;
        s->lru_n += lines;
    }
    return s->l2[buf->id];
}

static void lru_unlink(tl_sim_t *s, int64_t g)
{
    int64_t p = s->lru_prev[g], n = s->lru_next[g];
    if (p >= 0)
        s->lru_next[p] = n;
    else
        s->lru_head = n;
    if (n >= 0)
        s->lru_prev[n] = p;
    else
        s->lru_tail = p;
}

static void lru_push(tl_sim_t *s, int64_t g) // g becomes the most recently used
{
    s->lru_prev[g] = -1;
    s->lru_next[g] = s->lru_head;
    if (s->lru_head >= 0)
        s->lru_prev[s->lru_head] = g;
    else
        s->lru_tail = g;
    s->lru_head = g;
}

// A line comes in: when the L2 is full, the least recently used line leaves
// (the next read of it misses); a line written since it came in is written
// back to HBM (*wb: its bytes, booked by the transfer that pushed it out).
static void l2_insert(tl_sim_t *s, int64_t g, int64_t *wb)
{
    if (s->l2_used >= s->arch->l2_bytes / s->arch->l2_line_bytes && s->lru_tail >= 0) {
        int64_t old = s->lru_tail;
        int b = s->lru_buf[old];
        lru_unlink(s, old);
        s->l2[b][old - s->l2_base[b]] = L2_ABSENT;
        s->l2_used--;
        s->l2_evicted++;
        if (s->lru_dirty[old]) {
            s->lru_dirty[old] = 0;
            s->l2_written_back++;
            *wb += s->arch->l2_line_bytes;
        }
    }
    lru_push(s, g);
    s->l2_used++;
}

int64_t sim_time_l2(tl_sim_t *s, const tl_buffer_t *buf, int64_t total, int64_t off, int64_t len,
                    int64_t t, bool write, int64_t *bytes, int64_t *ready, int64_t *fill,
                    int64_t *wb)
{
    const tl_arch_t *a = s->arch;
    int64_t g = a->gm_block_bytes;
    int64_t lo = off / g * g, hi = (off + len + g - 1) / g * g; // whole DataBlocks
    int64_t *at = l2_lines(s, buf, total);
    int64_t line = a->l2_line_bytes, hit = 0, seen = 0, base = at ? s->l2_base[buf->id] : 0;
    for (int64_t l = lo / line; at && l * line < hi && l < s->l2_lines[buf->id]; l++) {
        int64_t n = TL_MIN(hi, (l + 1) * line) - TL_MAX(lo, l * line);
        seen += n;
        if (at[l] != L2_ABSENT) {
            hit += n;
            *ready = TL_MAX(*ready, at[l]);
            lru_unlink(s, base + l);
            lru_push(s, base + l);
        } else { // allocated now, filled when the data arrives
            l2_insert(s, base + l, wb);
            at[l] = write ? t : t + a->gm_read_latency;
            if (!write) *fill += line;
        }
        if (write) s->lru_dirty[base + l] = 1;
    }
    if (!write) *fill += hi - lo - seen; // bytes past the lines kept for the tensor: missed
    *bytes = hi - lo;
    return hit;
}

void sim_time_l2_warm(tl_sim_t *s, const tl_buffer_t *buf, int64_t total)
{
    int64_t *at = l2_lines(s, buf, total);
    int64_t cap = s->arch->l2_bytes / s->arch->l2_line_bytes, wb = 0; // not full: no eviction
    for (int64_t l = 0; at && l < s->l2_lines[buf->id] && s->l2_used < cap; l++)
        if (at[l] == L2_ABSENT) {
            at[l] = 0;
            l2_insert(s, s->l2_base[buf->id] + l, &wb);
        }
}
