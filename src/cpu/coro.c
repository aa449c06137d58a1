// Coroutines on ucontext with mmap'd stacks (see coro.h).
#include "cpu/coro.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif

#ifdef CORO_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
#define START_SWITCH(save, bottom, size)  __sanitizer_start_switch_fiber(save, bottom, size)
#define FINISH_SWITCH(save, bottom, size) __sanitizer_finish_switch_fiber(save, bottom, size)
#else
#define START_SWITCH(save, bottom, size)  ((void)(save), (void)(bottom), (void)(size))
#define FINISH_SWITCH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

enum { STACK = 1 << 20 }; // committed lazily

struct tl_coro {
    ucontext_t ctx, caller;
    void *stack;
    tl_coro_fn fn;
    void *arg;
    bool done;
    void *fake;                // ASan fake stack of the side that switched away
    const void *caller_bottom; // the resumer's stack, for switching back
    size_t caller_size;
};

tl_status_t tl_coro_create(tl_coro_t **out, tl_diag_t *d)
{
    *out = NULL;
    tl_coro_t *c = calloc(1, sizeof *c);
    if (!c) return tl_diag_fail(d, TL_ERR_NOMEM, "out of memory");
    c->stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (c->stack == MAP_FAILED) {
        free(c);
        return tl_diag_fail(d, TL_ERR_NOMEM, "cannot map a coroutine stack");
    }
    c->done = true;
    *out = c;
    return TL_OK;
}

void tl_coro_destroy(tl_coro_t *c)
{
    if (!c) return;
    munmap(c->stack, STACK);
    free(c);
}

static void trampoline(unsigned lo, unsigned hi)
{
    tl_coro_t *c = (tl_coro_t *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
    FINISH_SWITCH(NULL, &c->caller_bottom, &c->caller_size);
    c->fn(c->arg);
    c->done = true;
    START_SWITCH(NULL, c->caller_bottom, c->caller_size); // this stack is finished
    setcontext(&c->caller);
}

void tl_coro_start(tl_coro_t *c, tl_coro_fn fn, void *arg)
{
    getcontext(&c->ctx);
    c->ctx.uc_stack.ss_sp = c->stack;
    c->ctx.uc_stack.ss_size = STACK;
    c->ctx.uc_link = NULL;
    c->fn = fn;
    c->arg = arg;
    c->done = false;
    uintptr_t p = (uintptr_t)c;
    makecontext(&c->ctx, (void (*)(void))trampoline, 2, (unsigned)(p & 0xffffffffu),
                (unsigned)(p >> 32));
}

bool tl_coro_resume(tl_coro_t *c)
{
    if (c->done) return true;
    void *save = NULL;
    START_SWITCH(&save, c->stack, STACK);
    swapcontext(&c->caller, &c->ctx);
    FINISH_SWITCH(save, NULL, NULL);
    return c->done;
}

void tl_coro_yield(tl_coro_t *c)
{
    START_SWITCH(&c->fake, c->caller_bottom, c->caller_size);
    swapcontext(&c->ctx, &c->caller);
    FINISH_SWITCH(c->fake, &c->caller_bottom, &c->caller_size);
}
