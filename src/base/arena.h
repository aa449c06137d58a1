// Arena (bump) allocator: everything a compile produces lives in one arena and is
// freed with one call. Allocations are zeroed. On allocation failure the arena
// jumps to the handler installed with tl_arena_on_oom (set at API boundaries);
// without one it returns NULL.
#ifndef TL_BASE_ARENA_H
#define TL_BASE_ARENA_H

#include <setjmp.h>
#include "base/common.h"

typedef struct tl_arena_chunk tl_arena_chunk_t;

typedef struct tl_arena {
    tl_arena_chunk_t *head;
    size_t used_total; // bytes handed out, for statistics
    jmp_buf *oom;      // where to jump when malloc fails (may be NULL)
    size_t limit;      // when nonzero: used_total may not grow past it (an allocation
    bool over_limit;   // that would fails as if out of memory, and sets over_limit)
} tl_arena_t;

void tl_arena_init(tl_arena_t *a);
void tl_arena_free(tl_arena_t *a); // frees every chunk; the arena can be reused
void *tl_arena_alloc(tl_arena_t *a, size_t size);
void *tl_arena_dup(tl_arena_t *a, const void *p, size_t size);
char *tl_arena_strdup(tl_arena_t *a, const char *s);
char *tl_arena_strndup(tl_arena_t *a, const char *s, size_t n);
char *tl_arena_printf(tl_arena_t *a, const char *fmt, ...) TL_PRINTF(2, 3);
// Grows an array allocated in the arena: returns a new copy with room for new_cap
// elements (old contents copied). Use for vectors built incrementally.
void *tl_arena_grow(tl_arena_t *a, void *p, size_t elem, size_t old_cap, size_t new_cap);

// A growable array of pointers backed by an arena.
typedef struct {
    void **items;
    int len, cap;
} tl_vec_t;

void tl_vec_push(tl_arena_t *a, tl_vec_t *v, void *item);

#endif
