#include "base/hash.h"

#include <string.h>

// 64-bit FNV-1a followed by a murmur-style finaliser for better bit mixing.
uint64_t tl_hash_bytes(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *s = p;
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

uint64_t tl_hash_str(const char *s)
{
    return tl_hash_bytes(s, strlen(s), 0);
}

void tl_map_init(tl_map_t *m, tl_arena_t *a)
{
    memset(m, 0, sizeof *m);
    m->arena = a;
}

static tl_map_entry_t *find(tl_map_entry_t *slots, int cap, const char *key)
{
    uint64_t i = tl_hash_str(key) & (uint64_t)(cap - 1);
    for (;;) {
        tl_map_entry_t *e = &slots[i];
        if (!e->key || strcmp(e->key, key) == 0) return e;
        i = (i + 1) & (uint64_t)(cap - 1);
    }
}

void *tl_map_get(const tl_map_t *m, const char *key)
{
    if (!m->cap) return NULL;
    tl_map_entry_t *e = find(m->slots, m->cap, key);
    return e->key ? e->value : NULL;
}

bool tl_map_has(const tl_map_t *m, const char *key)
{
    return m->cap && find(m->slots, m->cap, key)->key != NULL;
}

void tl_map_put(tl_map_t *m, const char *key, void *value)
{
    if ((m->len + 1) * 4 >= m->cap * 3) {
        int cap = m->cap ? m->cap * 2 : 16;
        tl_map_entry_t *slots = tl_arena_alloc(m->arena, sizeof *slots * (size_t)cap);
        for (int i = 0; i < m->cap; i++)
            if (m->slots[i].key) *find(slots, cap, m->slots[i].key) = m->slots[i];
        m->slots = slots;
        m->cap = cap;
    }
    tl_map_entry_t *e = find(m->slots, m->cap, key);
    if (!e->key) m->len++;
    e->key = key;
    e->value = value;
}
