// Happens-before race detection (research/ascend_model.md §7 item 4).
//
// Clocks: every (agent, pipe) of a block is a component. Per agent and pipe p,
// I[p] is what the next p instruction inherits and D[p] the join of every p
// instruction issued so far with p's own component at their count. An
// instruction of p gets the clock I[p] joined with the scalar clock I[S]
// (issue is in program order, so it follows every earlier scalar instruction)
// and the epoch count[p] + 1. Its own component in I[p] is only raised by a
// pipe_barrier or a flag: two instructions of one pipe are unordered (they
// overlap), except on S, whose every instruction raises I[S] itself. sim_sync.c
// adds the flag, barrier and cross-core edges.
//
// Shadow memory: per 32-byte granule of each scratchpad (per agent) and of each
// GM tensor the kernel writes (shared by all blocks; a GM tensor only read
// cannot race), up to SIM_SLOTS access records. An access conflicts with a
// record when their bytes overlap, one of them writes, they are not the same
// instruction and the record is not ordered before the access. Exempt: mmads
// accumulating into one L0C tile that the hardware interlocks (large tiles),
// the internal steps of one gemm_v0, and two atomic_adds into GM (SetAtomicAdd:
// the destination sums what arrives). A record is dropped when a later
// access ordered after it covers its bytes (a write only by a write); a full
// granule evicts a read first.
//
// Benign races (warnings): two agents' GM stores of identical bytes; and on a
// scratchpad, a copy from a GM tensor the kernel never writes against an
// access of bytes copied from the same source place (a write from it, or a
// read of bytes such a write left and nothing else wrote): for every input
// the copy leaves the bytes as they were, whichever comes first (a reload of
// a constant tile). Only the place is compared, never the data, which a test's
// inputs could make equal by chance.
#include "npu/sim_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

void sim_hb_begin(tl_sim_t *s, sim_agent_t *ag, sim_inst_t *in)
{
    int p = in->pipe;
    in->epoch = ++ag->count[p];
    sim_vc_copy(s, s->tmp, ag->I[p]);
    if (p != SIM_S) sim_vc_join(s, s->tmp, ag->I[SIM_S]);
}

void sim_hb_end(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in)
{
    int p = in->pipe, self = sim_vc_index(s, ag->blk, ag->id, p);
    if (p == SIM_S) {
        ag->I[SIM_S][self] = in->epoch;
        return;
    }
    sim_vc_join(s, ag->D[p], s->tmp);
    ag->D[p][self] = in->epoch;
}

// --- shadow memory ---------------------------------------------------------------------------

// Shadow pages are carved from chunks of 2 MiB of fresh zero pages, backed
// by transparent huge pages where the system offers them: the shadows of a
// wave's 24 blocks are tens of MiB, first touched together, and faulting them
// in 4 KiB at a time cost a quarter of a sparse attention run. The chunks go
// with the simulator (sim_shadow_chunks_free).
enum { CHUNK = 2 << 20, PAGE_BYTES = SIM_PAGE * SIM_SLOTS * sizeof(sim_rec_t) };

#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
static char *chunk_new(void)
{
    // twice the size, of which the 2 MiB-aligned middle is kept
    char *m = mmap(NULL, 2 * CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    char *c = (char *)(((uintptr_t)m + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1));
    if (c > m) munmap(m, (size_t)(c - m));
    munmap(c + CHUNK, (size_t)(m + CHUNK - c));
    madvise(c, CHUNK, MADV_HUGEPAGE);
    return c;
}

static void chunk_free(char *c)
{
    munmap(c, CHUNK);
}
#else
static char *chunk_new(void)
{
    return calloc(1, CHUNK);
}

static void chunk_free(char *c)
{
    free(c);
}
#endif

static sim_rec_t *page_new(tl_sim_t *s)
{
    if (s->chunk_left < PAGE_BYTES) {
        if (s->nchunks == s->capchunks) {
            int cap = s->capchunks ? s->capchunks * 2 : 16;
            char **c = realloc(s->chunks, sizeof *c * (size_t)cap);
            if (!c) return NULL;
            s->chunks = c;
            s->capchunks = cap;
        }
        char *c = chunk_new();
        if (!c) return NULL;
        s->chunks[s->nchunks++] = c;
        s->chunk_at = c;
        s->chunk_left = CHUNK;
    }
    sim_rec_t *p = (sim_rec_t *)s->chunk_at;
    s->chunk_at += PAGE_BYTES;
    s->chunk_left -= PAGE_BYTES;
    return p;
}

void sim_shadow_chunks_free(tl_sim_t *s)
{
    for (int i = 0; i < s->nchunks; i++) chunk_free(s->chunks[i]);
    free(s->chunks);
    s->chunks = NULL;
    s->nchunks = s->capchunks = 0;
}

static sim_rec_t *granule(tl_sim_t *s, sim_shadow_t *sh, int64_t g)
{
    int64_t p = g / SIM_PAGE;
    if (p >= sh->npages) {
        int64_t n = TL_MAX(p + 1, sh->npages * 2);
        sim_rec_t **pages = realloc(sh->pages, sizeof *pages * (size_t)n);
        uint8_t *dirty = pages ? realloc(sh->dirty, (size_t)n) : NULL;
        if (!pages || !dirty) {
            if (pages) sh->pages = pages;
            return NULL;
        }
        memset(pages + sh->npages, 0, sizeof *pages * (size_t)(n - sh->npages));
        memset(dirty + sh->npages, 0, (size_t)(n - sh->npages));
        sh->pages = pages;
        sh->dirty = dirty;
        sh->npages = n;
    }
    if (!sh->pages[p] && !(sh->pages[p] = page_new(s))) return NULL;
    if (!sh->dirty[p]) {
        if (sh->ntouched == sh->captouched) {
            int64_t cap = sh->captouched ? sh->captouched * 2 : 16;
            int64_t *t = realloc(sh->touched, sizeof *t * (size_t)cap);
            if (!t) return NULL;
            sh->touched = t;
            sh->captouched = cap;
        }
        sh->touched[sh->ntouched++] = p;
        sh->dirty[p] = 1;
    }
    return sh->pages[p] + (g % SIM_PAGE) * SIM_SLOTS;
}

void sim_shadow_reset(sim_shadow_t *sh)
{
    for (int64_t i = 0; i < sh->ntouched; i++) {
        int64_t p = sh->touched[i];
        memset(sh->pages[p], 0, (size_t)SIM_PAGE * SIM_SLOTS * sizeof(sim_rec_t));
        sh->dirty[p] = 0;
    }
    sh->ntouched = 0;
}

void sim_shadow_free(sim_shadow_t *sh)
{
    free(sh->pages);
    free(sh->dirty);
    free(sh->touched);
    memset(sh, 0, sizeof *sh);
}

// --- conflicts -------------------------------------------------------------------------------

static uint32_t fnv(const uint8_t *p, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

// Is record r ordered before an instruction of ag with clock clk?
static bool ordered(const tl_sim_t *s, const sim_agent_t *ag, const sim_vc_t *clk,
                    const sim_rec_t *r)
{
    const sim_block_t *b = ag->blk;
    if (r->block != b->index) {
        if (!s->resident) return false;
        b = &s->blocks[r->block];
    }
    return clk[sim_vc_index(s, b, (tl_agent_t)(r->tid >> 3), r->tid & 7)] >= r->epoch;
}

static const char *race_kind(bool first_write, bool second_write)
{
    return first_write && second_write ? "WAW" : first_write ? "RAW" : "WAR";
}

// One side of a conflicting pair.
typedef struct {
    uint32_t site, epoch;
    int64_t block;
    tl_agent_t agent;
    bool write;
    int buf;
} side_t;

static void fill_access(tl_sim_t *s, tl_sim_access_t *a, const side_t *x)
{
    const sim_site_t *site = &s->sites[x->site];
    a->op = site->name;
    a->pipe = site->pipe;
    a->agent = x->agent;
    a->block = x->block;
    a->loc = site->st ? site->st->loc : (tl_loc_t){0};
    a->write = x->write;
    a->buffer = sim_buffer(s, x->buf)->name;
    a->bytes = tl_buffer_bytes(sim_buffer(s, x->buf));
}

// A conflict between record r and the access of the current instruction.
// The first side is the one the executor ran first (modeled time order within
// a block), except that of two blocks, which nothing orders, the lower block
// comes first: the report does not depend on how the blocks' agents
// interleave.
static void report(tl_sim_t *s, const sim_agent_t *ag, const sim_inst_t *in, const sim_rec_t *r,
                   const tl_buffer_t *buf, int64_t lo, int64_t hi, bool write, bool benign)
{
    side_t a = {r->site - 1,           r->epoch, r->block, (tl_agent_t)(r->tid >> 3),
                r->flags & REC_WRITE, r->buf};
    side_t b = {in->site, in->epoch, ag->blk->index, ag->id, write, buf->id};
    if (a.block > b.block) {
        side_t t = a;
        a = b;
        b = t;
    }
    uint64_t key = ((uint64_t)a.site << 40) ^ ((uint64_t)b.site << 20) ^ ((uint64_t)a.buf << 10) ^
                   (uint64_t)b.buf;
    int i = sim_index_get(&s->race_index, key);
    if (i < 0) {
        if (s->nraces == s->capraces) {
            int cap = s->capraces ? s->capraces * 2 : 16;
            s->races = tl_arena_grow(&s->arena, s->races, sizeof *s->races, (size_t)s->capraces,
                                     (size_t)cap);
            s->racex = tl_arena_grow(&s->arena, s->racex, sizeof *s->racex, (size_t)s->capraces,
                                     (size_t)cap);
            s->capraces = cap;
        }
        i = s->nraces++;
        sim_index_put(&s->race_index, key, i);
        tl_sim_race_t *rc = &s->races[i];
        rc->kind = race_kind(a.write, b.write);
        rc->benign = benign;
        rc->space = buf->scope;
        fill_access(s, &rc->first, &a);
        fill_access(s, &rc->second, &b);
        s->racex[i] = (sim_racex_t){lo, hi, 0, 0, -1, -1, a.buf, b.buf};
        if (ag->blk->traced) {
            char detail[256];
            snprintf(detail, sizeof detail, "%s %s of '%s' (line %d) vs %s %s of '%s' (line %d)",
                     rc->first.op, a.write ? "write" : "read", rc->first.buffer,
                     rc->first.loc.line, rc->second.op, b.write ? "write" : "read",
                     rc->second.buffer, rc->second.loc.line);
            sim_trace_instant(s, ag, in->pipe, in->start, benign ? "benign race" : "race", detail);
        }
    }
    tl_sim_race_t *rc = &s->races[i];
    sim_racex_t *x = &s->racex[i];
    rc->benign &= benign;
    x->lo = TL_MIN(x->lo, lo);
    x->hi = TL_MAX(x->hi, hi);
    if (x->epoch_a != a.epoch || x->epoch_b != b.epoch || x->block_a != a.block ||
        x->block_b != b.block) {
        rc->count++;
        x->epoch_a = a.epoch;
        x->epoch_b = b.epoch;
        x->block_a = a.block;
        x->block_b = b.block;
    }
}

// Do record r's bytes and bytes [lo, hi] of a granule, which come from source
// place (src, soff at lo), come from the same source bytes where they overlap?
static bool same_source(const sim_rec_t *r, int src, int64_t soff, int lo, int hi)
{
    if (!(r->flags & REC_PROV) || soff < 0 || r->spare != src) return false;
    int at = TL_MAX(lo, (int)r->lo);
    return (int64_t)r->aux + (at - r->lo) == soff + (at - lo) && r->lo <= hi && lo <= r->hi;
}

// A read's record: where the bytes it reads came from, when one write that
// is ordered before it covers them all and no other write overlaps them.
static void read_source(sim_rec_t *rec, const sim_rec_t *w, int nw)
{
    if (nw != 1 || !(w->flags & REC_PROV) || w->lo > rec->lo || w->hi < rec->hi) return;
    rec->flags |= REC_PROV;
    rec->spare = w->spare;
    rec->aux = w->aux + (uint32_t)(rec->lo - w->lo);
}

// Whether accesses of buf by ag are recorded. With --no-races only those the
// build's automatic sync looks at (sim_auto.c: UB on the vector cores), so
// that the timing keeps the barriers and flags it adds; GM and the cube's
// scratchpads are not tracked then, and nothing is reported.
static bool shadowed(const tl_sim_t *s, const sim_agent_t *ag, const tl_buffer_t *buf)
{
    return !s->opts.no_races ||
           (s->auto_sync && ag->id != TL_AGENT_AIC && buf->scope == TL_SCOPE_UB);
}

void sim_hb_access(tl_sim_t *s, sim_agent_t *ag, const sim_inst_t *in, const tl_buffer_t *buf,
                   int64_t off, int64_t len, bool write, const uint8_t *data,
                   const sim_prov_t *prov)
{
    if (!shadowed(s, ag, buf) || len <= 0) return;
    bool gm = buf->scope == TL_SCOPE_GM;
    if (gm && !s->gm_written[buf->id]) return;
    sim_shadow_t *sh = gm ? &s->gm[buf->id] : &ag->mem[buf->scope];
    int64_t a0 = (gm ? 0 : s->addr[buf->id]) + off, a1 = a0 + len;
    uint8_t tid = (uint8_t)(ag->id * 8 + in->pipe);
    int32_t blk = (int32_t)ag->blk->index;
    for (int64_t g = a0 / SIM_GRAN; g * SIM_GRAN < a1; g++) {
        int64_t gb = g * SIM_GRAN;
        int lo = (int)(TL_MAX(a0, gb) - gb), hi = (int)(TL_MIN(a1, gb + SIM_GRAN) - gb - 1);
        sim_rec_t *rs = granule(s, sh, g);
        if (!rs) return;
        // where this write's bytes come from (-1: not a copy of a read-only tensor)
        int64_t soff = prov && write ? sim_prov_at(prov, off + (gb + lo - a0), hi - lo + 1) : -1;
        if (soff > UINT32_MAX) soff = -1;
        int src = prov ? prov->src : -1;
        int free_slot = -1, read_slot = -1, nw = 0; // nw: writes overlapping a read
        sim_rec_t w = {0};                          // the one write before the read
        for (int j = 0; j < SIM_SLOTS; j++) {
            sim_rec_t *r = &rs[j];
            if (!r->site) {
                if (free_slot < 0) free_slot = j;
                continue;
            }
            bool rw = r->flags & REC_WRITE;
            bool same = r->block == blk && r->tid == tid && r->epoch == in->epoch;
            bool before = same || ordered(s, ag, s->tmp, r);
            bool overlap = r->lo <= hi && lo <= r->hi;
            if (overlap && rw && !write) {
                nw += before ? 1 : 2;
                w = *r;
            }
            if (overlap && (rw || write) && !before) {
                bool ilk = in->ilk && (r->flags & REC_ILK) && r->aux == in->ilk;
                // two atomic accumulations into GM do not conflict (SetAtomicAdd: the
                // sum of the moved data and GM's is written; the hardware serialises)
                bool atomics = gm && in->atomic && (r->flags & REC_ATOMIC);
                if (!ilk && !atomics && !s->opts.no_races) {
                    bool benign = false;
                    if (gm && rw && write && data && r->lo >= lo && r->hi <= hi &&
                        (r->block != blk || (r->tid >> 3) != ag->id))
                        benign = fnv(data + (gb + r->lo - a0), r->hi - r->lo + 1) == r->aux;
                    if (!gm && write) benign = same_source(r, src, soff, lo, hi);
                    int64_t clo = gb + TL_MAX(lo, r->lo), chi = gb + TL_MIN(hi, r->hi) + 1;
                    report(s, ag, in, r, buf, clo, chi, write, benign);
                }
            }
            if (before && r->lo >= lo && r->hi <= hi && (write || !rw)) {
                r->site = 0; // covered by this access, which follows it
                if (free_slot < 0) free_slot = j;
                continue;
            }
            if (!rw && read_slot < 0) read_slot = j;
        }
        int j = free_slot >= 0 ? free_slot : read_slot >= 0 ? read_slot : 0;
        if (free_slot < 0 && read_slot < 0) {
            // a write is evicted: which write a later read sees is no longer known
            for (int i = 1; i < SIM_SLOTS; i++) rs[i].flags &= (uint8_t)~REC_PROV;
        }
        sim_rec_t *r = &rs[j];
        r->site = in->site + 1;
        r->epoch = in->epoch;
        r->block = blk;
        r->tid = tid;
        r->lo = (uint8_t)lo;
        r->hi = (uint8_t)hi;
        r->flags = (uint8_t)((write ? REC_WRITE : 0) | (in->ilk ? REC_ILK : 0) |
                             (gm && in->atomic ? REC_ATOMIC : 0));
        r->buf = (uint16_t)buf->id;
        r->aux = in->ilk;
        r->spare = 0;
        if (gm && write && data) r->aux = fnv(data + (gb + lo - a0), hi - lo + 1);
        if (!gm && !in->ilk && write && soff >= 0) {
            r->flags |= REC_PROV;
            r->spare = (uint16_t)src;
            r->aux = (uint32_t)soff;
        }
        if (!gm && !in->ilk && !write) read_source(r, &w, nw);
    }
}

unsigned sim_hb_probe(tl_sim_t *s, sim_agent_t *ag, const sim_vc_t *clk, const tl_buffer_t *buf,
                      int64_t off, int64_t len, bool write, unsigned pipes,
                      const tl_stmt_t *vs_at)
{
    if (!shadowed(s, ag, buf) || len <= 0) return 0;
    bool gm = buf->scope == TL_SCOPE_GM;
    if (gm && !s->gm_written[buf->id]) return 0;
    sim_shadow_t *sh = gm ? &s->gm[buf->id] : &ag->mem[buf->scope];
    int64_t a0 = (gm ? 0 : s->addr[buf->id]) + off, a1 = a0 + len;
    unsigned found = 0;
    for (int64_t g = a0 / SIM_GRAN; g * SIM_GRAN < a1; g++) {
        int64_t gb = g * SIM_GRAN, p = g / SIM_PAGE;
        if (p >= sh->npages || !sh->pages[p]) continue; // nothing recorded there
        const sim_rec_t *rs = sh->pages[p] + (g % SIM_PAGE) * SIM_SLOTS;
        int lo = (int)(TL_MAX(a0, gb) - gb), hi = (int)(TL_MIN(a1, gb + SIM_GRAN) - gb - 1);
        for (int j = 0; j < SIM_SLOTS; j++) {
            const sim_rec_t *r = &rs[j];
            unsigned bit = 1u << (r->tid & 7);
            if (!r->site || r->block != ag->blk->index || (r->tid >> 3) != ag->id ||
                !(pipes & bit) || found & bit)
                continue;
            if (r->lo <= hi && lo <= r->hi && ((r->flags & REC_WRITE) || write) &&
                !ordered(s, ag, clk, r) && (!vs_at || sim_auto_vs_sees(s, ag, vs_at, r)))
                found |= bit;
        }
    }
    return found;
}
