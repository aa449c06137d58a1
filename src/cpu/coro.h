// Stackful coroutines (ucontext) for the agents of a block that wait on
// cross-core flags: the runtime resumes agents round-robin, and an agent
// whose wait cannot be satisfied yields back to the scheduler. Switches are
// annotated for AddressSanitizer.
#ifndef TL_CPU_CORO_H
#define TL_CPU_CORO_H

#include "base/diag.h"

typedef struct tl_coro tl_coro_t;
typedef void (*tl_coro_fn)(void *arg);

tl_status_t tl_coro_create(tl_coro_t **out, tl_diag_t *d);
void tl_coro_destroy(tl_coro_t *c); // NULL is fine
// Prepares c to run fn(arg) from the start on the next resume.
void tl_coro_start(tl_coro_t *c, tl_coro_fn fn, void *arg);
// Runs c until it yields or fn returns; true once fn has returned.
bool tl_coro_resume(tl_coro_t *c);
// From inside c: back to the resumer.
void tl_coro_yield(tl_coro_t *c);

#endif
