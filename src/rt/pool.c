// Thread pool: workers wait for a new job generation, then claim task indices
// from a shared atomic counter. Waiting spins briefly before sleeping on a
// condition variable: a wake-up through the kernel costs tens of microseconds,
// too much for back-to-back small jobs (kernel launches).
#include "rt/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    tl_pool_t *pool;
    int index;
} worker_t;

struct tl_pool {
    int n;
    pthread_t *threads;
    worker_t *workers;
    int nstarted;
    pthread_mutex_t run_lock; // one job at a time
    pthread_mutex_t lock;     // taken to sleep on `start`/`done` and to change the state below
    pthread_cond_t start, done;
    atomic_uint_fast64_t generation; // bumped (release) after the job fields are written
    atomic_bool stop;
    atomic_int busy; // workers still inside the current job
    tl_pool_fn fn;
    void *ctx;
    int64_t ntasks;
    atomic_int_fast64_t next;
};

enum { SPIN = 4000 }; // pause instructions before going to sleep (some 10-100 us)

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

// The pool whose task the current thread is running, and its thread index.
static _Thread_local tl_pool_t *current_pool;
static _Thread_local int current_thread;

static void work(tl_pool_t *p, tl_pool_fn fn, void *ctx, int64_t ntasks, int thread)
{
    tl_pool_t *outer = current_pool;
    int outer_thread = current_thread;
    current_pool = p, current_thread = thread;
    for (int64_t k; (k = atomic_fetch_add(&p->next, 1)) < ntasks;) fn(ctx, k, thread);
    current_pool = outer, current_thread = outer_thread;
}

// Waits until a job newer than `seen` starts (true) or the pool stops (false).
static bool wait_job(tl_pool_t *p, uint64_t seen)
{
    for (int i = 0; i < SPIN; i++) {
        if (atomic_load(&p->stop)) return false;
        if (atomic_load_explicit(&p->generation, memory_order_acquire) != seen) return true;
        cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    while (!atomic_load(&p->stop) && atomic_load(&p->generation) == seen)
        pthread_cond_wait(&p->start, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return !atomic_load(&p->stop);
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    tl_pool_t *p = w->pool;
    uint64_t seen = 0;
    while (wait_job(p, seen)) {
        seen = atomic_load_explicit(&p->generation, memory_order_acquire);
        work(p, p->fn, p->ctx, p->ntasks, w->index);
        if (atomic_fetch_sub(&p->busy, 1) == 1) {
            // The last one out wakes the caller (under the lock: no lost wake-up).
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

static void stop_workers(tl_pool_t *p)
{
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->stop, true);
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nstarted; i++) pthread_join(p->threads[i], NULL);
}

void tl_pool_destroy(tl_pool_t *p)
{
    if (!p) return;
    stop_workers(p);
    pthread_cond_destroy(&p->start);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->run_lock);
    free(p->threads);
    free(p->workers);
    free(p);
}

tl_status_t tl_pool_create(tl_pool_t **out, int nthreads, tl_diag_t *d)
{
    *out = NULL;
    if (nthreads <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = cpus > 0 ? (int)TL_MIN(cpus, TL_POOL_MAX_THREADS) : 1;
    }
    if (nthreads > TL_POOL_MAX_THREADS)
        return tl_diag_fail(d, TL_ERR_ARG, "pool: %d threads requested, the limit is %d", nthreads,
                            TL_POOL_MAX_THREADS);
    tl_pool_t *p = calloc(1, sizeof *p);
    if (!p) return tl_diag_fail(d, TL_ERR_NOMEM, "pool: out of memory");
    p->n = nthreads;
    p->threads = calloc((size_t)nthreads, sizeof *p->threads);
    p->workers = calloc((size_t)nthreads, sizeof *p->workers);
    pthread_mutex_init(&p->run_lock, NULL);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->start, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next, 0);
    atomic_init(&p->generation, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->busy, 0);
    if (!p->threads || !p->workers) {
        tl_pool_destroy(p);
        return tl_diag_fail(d, TL_ERR_NOMEM, "pool: out of memory");
    }
    for (int i = 1; i < nthreads; i++) {
        p->workers[i] = (worker_t){p, i};
        int err = pthread_create(&p->threads[p->nstarted], NULL, worker_main, &p->workers[i]);
        if (err) {
            tl_pool_destroy(p);
            return tl_diag_fail(d, TL_ERR_RUNTIME, "pool: cannot start thread %d of %d: %s", i,
                                nthreads, strerror(err));
        }
        p->nstarted++;
    }
    *out = p;
    return TL_OK;
}

int tl_pool_size(const tl_pool_t *p)
{
    return p->n;
}

void tl_pool_run(tl_pool_t *p, int64_t ntasks, tl_pool_fn fn, void *ctx)
{
    if (ntasks <= 0) return;
    if (current_pool == p || p->n == 1 || ntasks == 1) {
        // Nested in one of this pool's tasks, or nothing to share: run here.
        int thread = current_pool == p ? current_thread : 0;
        for (int64_t k = 0; k < ntasks; k++) fn(ctx, k, thread);
        return;
    }
    pthread_mutex_lock(&p->run_lock);
    p->fn = fn, p->ctx = ctx, p->ntasks = ntasks;
    atomic_store(&p->next, 0);
    atomic_store(&p->busy, p->n - 1);
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->lock);
    work(p, fn, ctx, ntasks, 0);
    for (int i = 0; i < SPIN && atomic_load(&p->busy) > 0; i++) cpu_relax();
    if (atomic_load(&p->busy) > 0) {
        pthread_mutex_lock(&p->lock);
        while (atomic_load(&p->busy) > 0) pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    pthread_mutex_unlock(&p->run_lock);
}
