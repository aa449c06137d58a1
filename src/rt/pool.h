// A pthread pool with a blocking parallel for: tl_pool_run(pool, n, fn, ctx)
// calls fn(ctx, task, thread) once for every task in [0, n) and returns when all
// are done. The calling thread works too, as thread 0; `thread` is in
// [0, tl_pool_size) and unique among the running tasks of one job, so it can
// index per-thread scratch memory of that job. Task 0 runs on the caller, the
// others are handed out dynamically: write results by task index and they do
// not depend on the schedule.
//
// A pool runs one job at a time (concurrent callers take turns); a task that
// calls tl_pool_run on its own pool gets the nested job run serially on its
// thread rather than a deadlock.
//
// Work sharing: a thread that finds no task left in the job does not leave
// it while other threads still run tasks; it waits for parts of their work.
// A task hands some out with tl_pool_share (a big tile op split over ranges
// of its output, say): the caller and the waiting threads claim the parts,
// and the call returns when every part is done. Parts must not wait for
// each other or for anything else (the caller may run them all itself, in
// any order), and must not depend on the thread that runs them.
#ifndef TL_RT_POOL_H
#define TL_RT_POOL_H

#include "base/diag.h"

#define TL_POOL_MAX_THREADS 1024

typedef struct tl_pool tl_pool_t;
typedef void (*tl_pool_fn)(void *ctx, int64_t task, int thread);

// nthreads counts the caller; <= 0 means one per online CPU.
tl_status_t tl_pool_create(tl_pool_t **out, int nthreads, tl_diag_t *d);
void tl_pool_destroy(tl_pool_t *p); // waits for the workers to exit; NULL is fine
int tl_pool_size(const tl_pool_t *p);
void tl_pool_run(tl_pool_t *p, int64_t ntasks, tl_pool_fn fn, void *ctx);

// Threads of the calling task's pool that wait for parts now (0 when the caller
// runs no task of a pool with more than one thread, or runs a part itself).
int tl_pool_idle(void);
// Calls fn(ctx, part, thread) once for every part in [0, nparts) and returns
// when all are done; the calling thread runs parts too. Serial on the caller
// when tl_pool_idle() is 0 or another task's parts are being shared.
void tl_pool_share(int64_t nparts, tl_pool_fn fn, void *ctx);
// Parts of shares run by threads other than their sharer since the pool was
// created (tests, statistics).
int64_t tl_pool_helped(tl_pool_t *p);

#endif
