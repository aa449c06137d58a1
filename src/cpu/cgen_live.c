// Whether bytes of the lane's UB may still be read after the statement being
// emitted (see cgen.h): the inline loops (cgen_fuse.c) leave out the stores
// of spans whose values nobody reads.
//
// The program after the current point is the list of statements the caller
// passes (what it emits right after), then, frame by frame outwards (cgen.h),
// the rest of each enclosing sequence; at a loop both ways on are followed:
// the next iteration (the whole body from its start, and a while loop's
// condition) and the code after the loop. On each path the statements are
// scanned in order: a statement that may read a byte of the span makes it
// live; one that certainly overwrites all of it (a full write of a buffer
// holding the span, access.h) ends the path; the end of the function ends it
// too (the next block of the thread does not see this block's UB as the
// reference does, cpu.md). Any access is taken to touch its whole buffer;
// an if kills when both branches do, a for loop when its constant bounds run
// its body at least once and the body kills; a break or continue on the way
// to the kill sends that path to the enclosing loop's frame (both of whose
// ways are followed anyway).
#include "cpu/cgen.h"

#include "ir/access.h"

typedef struct {
    const tl_cgen_t *g;
    int64_t lo, hi; // the span (bytes of the lane's UB)
    bool read, kill;
} probe_t;

typedef struct {
    bool read, kill, escape;
} fate_t;

static void on_access(void *arg, const tl_access_t *a)
{
    probe_t *p = arg;
    const tl_buffer_t *b = a->buf;
    if (b->scope != TL_SCOPE_UB) return;
    int64_t base = p->g->addr[b->id], end = base + tl_buffer_bytes(b);
    bool known = base >= 0;
    if ((a->mode & TL_ACCESS_READ) && (!known || (base < p->hi && p->lo < end))) p->read = true;
    if ((a->mode & TL_ACCESS_WRITE) && a->full && known && base <= p->lo && p->hi <= end)
        p->kill = true;
}

static fate_t scan(const tl_cgen_t *g, const tl_stmt_t *s, int64_t lo, int64_t hi);

// A statement's own accesses (operands, loads, loop bounds, conditions).
static fate_t own(const tl_cgen_t *g, const tl_stmt_t *s, int64_t lo, int64_t hi)
{
    probe_t p = {g, lo, hi, false, false};
    tl_access_stmt(s, on_access, &p);
    return (fate_t){p.read, !p.read && p.kill, false};
}

static fate_t scan_list(const tl_cgen_t *g, const tl_stmt_t *const *items, int n, int64_t lo,
                        int64_t hi)
{
    bool escape = false;
    for (int i = 0; i < n; i++) {
        fate_t f = scan(g, items[i], lo, hi);
        if (f.read) return f;
        escape |= f.escape;
        if (f.kill) return (fate_t){false, !escape, escape};
    }
    return (fate_t){false, false, escape};
}

static fate_t scan(const tl_cgen_t *g, const tl_stmt_t *s, int64_t lo, int64_t hi)
{
    fate_t none = {false, false, false};
    if (!s) return none;
    switch (s->kind) {
    case TL_ST_SEQ: return scan_list(g, (const tl_stmt_t *const *)s->seq.items, s->seq.n, lo, hi);
    case TL_ST_SCOPE: return scan(g, s->scope.body, lo, hi);
    case TL_ST_BREAK:
    case TL_ST_CONTINUE: return (fate_t){false, false, true};
    case TL_ST_IF: {
        fate_t c = own(g, s, lo, hi);
        if (c.read) return c;
        fate_t a = scan(g, s->if_.then_, lo, hi), b = scan(g, s->if_.else_, lo, hi);
        return (fate_t){a.read || b.read, a.kill && b.kill, a.escape || b.escape};
    }
    case TL_ST_FOR:
    case TL_ST_WHILE: {
        fate_t c = own(g, s, lo, hi);
        if (c.read) return c;
        const tl_stmt_t *body = s->kind == TL_ST_FOR ? s->for_.body : s->while_.body;
        fate_t b = scan(g, body, lo, hi);
        int64_t a, e;
        bool once = s->kind == TL_ST_FOR && tl_ir_is_const_int(s->for_.start, &a) &&
                    tl_ir_is_const_int(s->for_.end, &e) && e > a;
        // the body's break and continue stay in this loop
        return (fate_t){b.read, b.kill && once && !b.escape, false};
    }
    default: return own(g, s, lo, hi);
    }
}

bool tl_cgen_live(const tl_cgen_t *g, const tl_stmt_t *const *next, int n, int64_t lo, int64_t hi)
{
    if (g->lost) return true;
    fate_t f = scan_list(g, next, n, lo, hi);
    if (f.read) return true;
    if (f.kill) return false;
    // escaped: a path left for the enclosing loop past the rest of its body,
    // so kills on the way there do not end it
    bool escaped = f.escape;
    for (int i = g->nframes - 1; i >= 0; i--) {
        const tl_cgen_frame_t *fr = &g->frames[i];
        if (fr->loop) {
            // the next iteration; the way out is the frames below
            const tl_stmt_t *l = fr->loop;
            if (l->kind == TL_ST_WHILE && own(g, l, lo, hi).read) return true;
            if (scan(g, l->kind == TL_ST_FOR ? l->for_.body : l->while_.body, lo, hi).read)
                return true;
            escaped = false;
            continue;
        }
        f = scan_list(g, fr->items + fr->next, fr->n - fr->next, lo, hi);
        if (f.read) return true;
        if (f.kill && !escaped) return false;
        escaped |= f.escape;
    }
    return false;
}
