// Thread pool: workers wait for a new job generation, then claim task indices
// from a shared atomic counter. Waiting spins briefly before sleeping on a
// condition variable: a wake-up through the kernel costs tens of microseconds,
// too much for back-to-back small jobs (kernel launches).
//
// A job is open from its start until all its tasks are done; a worker that
// wakes up later does not enter it, and the caller waits only for the
// workers inside, claiming tasks (a worker that a loaded machine has not
// scheduled yet, or has preempted while it waits for parts, delays nothing).
// Work sharing (tl_pool_share): a thread that finds no task left waits (help)
// until the current job's tasks are all done, taking parts of the one open
// share; helping reads no field of the job but the counters. A share goes NONE ->
// FILLING (its owner writes fn, ctx, counters) -> OPEN (parts claimed from
// share_next) -> CLOSING (all parts done; the owner waits until no helper is
// inside, share_users) -> NONE. A helper counts itself in share_users before
// it checks for OPEN, so the owner never resets the fields under it.
#include "rt/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
    pthread_mutex_t lock;     // taken to sleep on `start` or `help`
    pthread_cond_t start;
    atomic_uint_fast64_t generation; // bumped after a job opens
    atomic_bool stop;
    atomic_bool open;  // fn and ctx are valid, tasks may be left to claim
    atomic_int inside; // workers claiming tasks (or looking whether the job is open)
    tl_pool_fn fn;
    void *ctx;
    atomic_int_fast64_t ntasks;     // atomic: helpers of a finished job may still read it
    atomic_int_fast64_t next, done; // tasks claimed, tasks finished
    // work sharing (see the top)
    atomic_int idle;     // threads waiting for parts
    atomic_int sleeping; // of those, asleep on `help`
    pthread_cond_t help;
    atomic_int share_state;
    atomic_uint_fast64_t share_seq; // shares opened so far
    atomic_int share_users;
    tl_pool_fn share_fn;
    void *share_ctx;
    int64_t share_n;
    atomic_int_fast64_t share_next, share_done;
    atomic_int_fast64_t helped; // parts run by helpers
};

enum { SPIN = 4000 }; // pause instructions before going to sleep (some 10-100 us)
// Helpers (help): pause instructions without a share before a nap (some
// 50 us), shares missed in a row before a nap, and the nap.
enum { HELP_SPIN = 3000, HELP_MISSES = 4, HELP_NAP_NS = 200000 };
enum { SHARE_NONE, SHARE_FILLING, SHARE_OPEN, SHARE_CLOSING };

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

// The pool whose task the current thread is running, and its thread index;
// in_part: the thread runs a part of a share.
static _Thread_local tl_pool_t *current_pool;
static _Thread_local int current_thread;
static _Thread_local bool in_part;

static void wake_helpers(tl_pool_t *p)
{
    if (!atomic_load(&p->sleeping)) return;
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->help);
    pthread_mutex_unlock(&p->lock);
}

// Runs parts of the open share until none is left; returns how many it ran.
static int64_t run_parts(tl_pool_t *p, int thread)
{
    int64_t ran = 0;
    in_part = true;
    for (int64_t k; (k = atomic_fetch_add(&p->share_next, 1)) < p->share_n; ran++) {
        p->share_fn(p->share_ctx, k, thread);
        atomic_fetch_add(&p->share_done, 1);
    }
    in_part = false;
    return ran;
}

// A timeout HELP_NAP_NS from now.
static struct timespec nap_end(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += HELP_NAP_NS;
    if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
    return until;
}

// Takes parts of shares until the job's tasks are all done (true). Between
// shares it spins; it naps (and does not count as idle) after HELP_SPIN
// pauses without a share, or after HELP_MISSES shares in a row whose parts
// were all taken when it came: then it does not run alongside the sharer
// (other processes have the CPUs) and would only take time from it. A worker
// leaves the job for its nap (false), the caller naps in it.
static bool help(tl_pool_t *p, int thread)
{
    uint64_t seen = 0; // the last share it looked at
    int misses = 0;
    atomic_fetch_add(&p->idle, 1);
    tl_pool_t *outer = current_pool;
    int outer_thread = current_thread;
    current_pool = p, current_thread = thread;
    bool all_done = true;
    for (int spins = 0; atomic_load(&p->done) < atomic_load(&p->ntasks);) {
        if (atomic_load(&p->share_state) == SHARE_OPEN) {
            atomic_fetch_add(&p->share_users, 1);
            uint64_t seq = atomic_load(&p->share_seq);
            if (seq != seen && atomic_load(&p->share_state) == SHARE_OPEN) {
                int64_t ran = run_parts(p, thread);
                atomic_fetch_add_explicit(&p->helped, ran, memory_order_relaxed);
                misses = ran ? 0 : misses + 1;
                seen = seq;
                spins = 0;
            }
            atomic_fetch_sub(&p->share_users, 1);
        }
        cpu_relax();
        if (++spins < HELP_SPIN && misses < HELP_MISSES) continue;
        if (thread != 0) {
            all_done = false;
            break;
        }
        atomic_fetch_sub(&p->idle, 1);
        struct timespec until = nap_end();
        pthread_mutex_lock(&p->lock);
        atomic_fetch_add(&p->sleeping, 1);
        int err = 0;
        while (atomic_load(&p->done) < atomic_load(&p->ntasks) && err == 0)
            err = pthread_cond_timedwait(&p->help, &p->lock, &until);
        atomic_fetch_sub(&p->sleeping, 1);
        pthread_mutex_unlock(&p->lock);
        atomic_fetch_add(&p->idle, 1);
        spins = misses = 0;
    }
    atomic_fetch_sub(&p->idle, 1);
    current_pool = outer, current_thread = outer_thread;
    return all_done;
}

// Runs tasks of the job. The caller (thread 0) runs task 0 first, the others
// are claimed: a task that runs long stays on one thread from job to job (its
// caches, its scratch memory).
static void work(tl_pool_t *p, tl_pool_fn fn, void *ctx, int64_t ntasks, int thread)
{
    tl_pool_t *outer = current_pool;
    int outer_thread = current_thread;
    current_pool = p, current_thread = thread;
    for (int64_t k = thread == 0 ? 0 : atomic_fetch_add(&p->next, 1); k < ntasks;
         k = atomic_fetch_add(&p->next, 1)) {
        fn(ctx, k, thread);
        if (atomic_fetch_add(&p->done, 1) + 1 == ntasks) wake_helpers(p); // the last one
    }
    current_pool = outer, current_thread = outer_thread;
}

int64_t tl_pool_helped(tl_pool_t *p)
{
    return atomic_load(&p->helped);
}

int tl_pool_idle(void)
{
    tl_pool_t *p = current_pool;
    return p && !in_part ? atomic_load_explicit(&p->idle, memory_order_relaxed) : 0;
}

void tl_pool_share(int64_t nparts, tl_pool_fn fn, void *ctx)
{
    tl_pool_t *p = current_pool;
    int thread = current_thread, none = SHARE_NONE;
    if (!p || in_part || nparts < 2 || !atomic_load(&p->idle) ||
        !atomic_compare_exchange_strong(&p->share_state, &none, SHARE_FILLING)) {
        for (int64_t k = 0; k < nparts; k++) fn(ctx, k, thread);
        return;
    }
    p->share_fn = fn, p->share_ctx = ctx, p->share_n = nparts;
    atomic_store(&p->share_next, 0);
    atomic_store(&p->share_done, 0);
    atomic_fetch_add(&p->share_seq, 1);
    atomic_store(&p->share_state, SHARE_OPEN);
    run_parts(p, thread);
    // Parts claimed by helpers are running: they cannot wait for anything.
    for (int i = 0; atomic_load(&p->share_done) < nparts; i++)
        if (i % SPIN == SPIN - 1)
            sched_yield(); // a helper may be descheduled on this CPU
        else
            cpu_relax();
    atomic_store(&p->share_state, SHARE_CLOSING);
    while (atomic_load(&p->share_users) > 0) cpu_relax();
    atomic_store(&p->share_state, SHARE_NONE);
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
        seen = atomic_load(&p->generation);
        for (;;) {
            // Counted inside before it looks: the caller closes the job, then
            // waits for those inside, so the fields do not change under it.
            atomic_fetch_add(&p->inside, 1);
            if (atomic_load(&p->open)) work(p, p->fn, p->ctx, atomic_load(&p->ntasks), w->index);
            atomic_fetch_sub(&p->inside, 1);
            if (help(p, w->index)) break;
            // out of the job for a nap: until it closes, another starts or
            // the time is up (then back in)
            struct timespec until = nap_end();
            int err = 0;
            pthread_mutex_lock(&p->lock);
            while (!atomic_load(&p->stop) && atomic_load(&p->generation) == seen &&
                   atomic_load(&p->open) && err == 0)
                err = pthread_cond_timedwait(&p->start, &p->lock, &until);
            pthread_mutex_unlock(&p->lock);
            if (atomic_load(&p->stop) || atomic_load(&p->generation) != seen ||
                !atomic_load(&p->open))
                break;
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
    pthread_cond_destroy(&p->help);
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
    pthread_cond_init(&p->help, NULL);
    atomic_init(&p->next, 0);
    atomic_init(&p->generation, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->open, false);
    atomic_init(&p->inside, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->ntasks, 0);
    atomic_init(&p->idle, 0);
    atomic_init(&p->sleeping, 0);
    atomic_init(&p->share_state, SHARE_NONE);
    atomic_init(&p->share_users, 0);
    atomic_init(&p->share_seq, 0);
    atomic_init(&p->helped, 0);
    atomic_init(&p->share_next, 0);
    atomic_init(&p->share_done, 0);
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
    if (current_pool == p || p->n == 1) {
        // Nested in one of this pool's tasks, or no other thread: run here.
        // (A single task goes to the workers too: they can take its parts.)
        int thread = current_pool == p ? current_thread : 0;
        for (int64_t k = 0; k < ntasks; k++) fn(ctx, k, thread);
        return;
    }
    pthread_mutex_lock(&p->run_lock);
    p->fn = fn, p->ctx = ctx;
    atomic_store(&p->next, 1); // task 0 is the caller's
    atomic_store(&p->done, 0);
    atomic_store(&p->ntasks, ntasks);
    atomic_store(&p->open, true);
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->generation, 1);
    pthread_cond_broadcast(&p->start);
    pthread_mutex_unlock(&p->lock);
    work(p, fn, ctx, ntasks, 0);
    help(p, 0); // returns when every task is done
    atomic_store(&p->open, false);
    // those inside are past a claim that failed
    while (atomic_load(&p->inside) > 0) cpu_relax();
    pthread_mutex_unlock(&p->run_lock);
}
