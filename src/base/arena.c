#include "base/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tl_arena_chunk {
    tl_arena_chunk_t *next;
    size_t cap, used;
    max_align_t data[];
};

enum { CHUNK_MIN = 64 * 1024 };

void tl_arena_init(tl_arena_t *a)
{
    memset(a, 0, sizeof *a);
}

void tl_arena_free(tl_arena_t *a)
{
    tl_arena_chunk_t *c = a->head;
    while (c) {
        tl_arena_chunk_t *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->used_total = 0;
}

void *tl_arena_alloc(tl_arena_t *a, size_t size)
{
    if (a->limit && (size > a->limit || a->used_total + size > a->limit)) {
        a->over_limit = true;
        if (a->oom) longjmp(*a->oom, 1);
        return NULL;
    }
    size = TL_ALIGN_UP(size ? size : 1, sizeof(max_align_t));
    tl_arena_chunk_t *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > CHUNK_MIN ? size : CHUNK_MIN;
        c = malloc(sizeof *c + cap);
        if (!c) {
            if (a->oom) longjmp(*a->oom, 1);
            return NULL;
        }
        c->cap = cap;
        c->used = 0;
        // Keep a partially used head chunk in front when the new one is a
        // one-off big allocation, so small allocations keep filling it.
        if (a->head && size > CHUNK_MIN) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    a->used_total += size;
    memset(p, 0, size);
    return p;
}

void *tl_arena_dup(tl_arena_t *a, const void *p, size_t size)
{
    void *q = tl_arena_alloc(a, size);
    if (q && size) memcpy(q, p, size);
    return q;
}

char *tl_arena_strndup(tl_arena_t *a, const char *s, size_t n)
{
    char *q = tl_arena_alloc(a, n + 1);
    if (!q) return NULL;
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}

char *tl_arena_strdup(tl_arena_t *a, const char *s)
{
    return tl_arena_strndup(a, s, strlen(s));
}

char *tl_arena_printf(tl_arena_t *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *q = tl_arena_alloc(a, (size_t)n + 1);
    if (q) vsnprintf(q, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return q;
}

void *tl_arena_grow(tl_arena_t *a, void *p, size_t elem, size_t old_cap, size_t new_cap)
{
    void *q = tl_arena_alloc(a, elem * new_cap);
    if (q && p && old_cap) memcpy(q, p, elem * old_cap);
    return q;
}

void tl_vec_push(tl_arena_t *a, tl_vec_t *v, void *item)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        v->items = tl_arena_grow(a, v->items, sizeof(void *), (size_t)v->cap, (size_t)cap);
        v->cap = cap;
    }
    v->items[v->len++] = item;
}
