// Per-thread GEMM scratch (see tileop_gemm_scratch.h): one pthread key whose
// value holds every slot of the thread; its destructor frees them when the
// thread exits (pool threads end with their pool).
#include "exec/tileop_gemm_scratch.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    size_t size[TL_GEMM_SCRATCH_COUNT];
    void *p[TL_GEMM_SCRATCH_COUNT];
} scratch_set_t;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static int scratch_key_ok;

static void scratch_set_free(void *v)
{
    scratch_set_t *s = v;
    for (int i = 0; i < TL_GEMM_SCRATCH_COUNT; i++) free(s->p[i]);
    free(s);
}

static void scratch_key_init(void)
{
    scratch_key_ok = pthread_key_create(&scratch_key, scratch_set_free) == 0;
}

void *tl_gemm_scratch(tl_gemm_scratch_slot_t slot, size_t size)
{
    pthread_once(&scratch_once, scratch_key_init);
    if (!scratch_key_ok || (unsigned)slot >= TL_GEMM_SCRATCH_COUNT) return NULL;
    scratch_set_t *s = pthread_getspecific(scratch_key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || pthread_setspecific(scratch_key, s)) {
            free(s);
            return NULL;
        }
    }
    if (s->size[slot] < size || !s->p[slot]) {
        free(s->p[slot]);
        // whole pages, and some headroom so that slowly growing requests do
        // not reallocate every time
        size_t want = size + size / 4;
        want = (want + 4095) / 4096 * 4096;
        s->p[slot] = aligned_alloc(64, want ? want : 4096);
        s->size[slot] = s->p[slot] ? want : 0;
    }
    return s->p[slot];
}
