// Hashing and a string-keyed hash map whose storage lives in an arena.
#ifndef TL_BASE_HASH_H
#define TL_BASE_HASH_H

#include "base/arena.h"

uint64_t tl_hash_bytes(const void *p, size_t n, uint64_t seed);
uint64_t tl_hash_str(const char *s);

typedef struct {
    const char *key; // NULL = empty slot
    void *value;
} tl_map_entry_t;

typedef struct {
    tl_arena_t *arena;
    tl_map_entry_t *slots;
    int cap, len;
} tl_map_t;

void tl_map_init(tl_map_t *m, tl_arena_t *a);
void *tl_map_get(const tl_map_t *m, const char *key); // NULL when absent
bool tl_map_has(const tl_map_t *m, const char *key);
// Inserts or replaces. The key is not copied: it must live as long as the map.
void tl_map_put(tl_map_t *m, const char *key, void *value);

#endif
