// Coroutines with mmap'd stacks (see coro.h). On x86-64 a switch is a few
// instructions of our own (save the callee-saved registers on the current
// stack, swap stack pointers, restore): glibc's swapcontext also saves and
// restores the signal mask, one system call per switch, which costs about a
// microsecond on a paravirtualised VM (a third of the int8 GEMM benchmark's
// time at M = 1). Elsewhere, ucontext. The floating-point control state
// (MXCSR, x87 control word) is not switched: agents never change it, so every
// coroutine runs with the resumer's.
#include "cpu/coro.h"

#include "base/common.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#if TL_X86_64 && defined(__ELF__)
#define CORO_ASM 1
#else
#include <ucontext.h>
#endif

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
void __asan_unpoison_memory_region(const volatile void *addr, size_t size);
#define START_SWITCH(save, bottom, size)  __sanitizer_start_switch_fiber(save, bottom, size)
#define FINISH_SWITCH(save, bottom, size) __sanitizer_finish_switch_fiber(save, bottom, size)
// frames left by the last run (its final switch never returns) stay poisoned
#define UNPOISON(p, size) __asan_unpoison_memory_region(p, size)
#else
#define UNPOISON(p, size)                 ((void)(p), (void)(size))
#define START_SWITCH(save, bottom, size)  ((void)(save), (void)(bottom), (void)(size))
#define FINISH_SWITCH(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#endif

enum { STACK = 1 << 20 }; // committed lazily

struct tl_coro {
#ifdef CORO_ASM
    void *sp, *caller_sp; // saved stack pointers of the side switched away from
#else
    ucontext_t ctx, caller;
#endif
    void *stack;
    tl_coro_fn fn;
    void *arg;
    bool done;
    void *fake;                // ASan fake stack of the side that switched away
    const void *caller_bottom; // the resumer's stack, for switching back
    size_t caller_size;
};

#ifdef CORO_ASM
// coro_switch(save, to): pushes rbp, rbx, r12-r15, stores the stack pointer
// in *save, loads `to` and pops the same registers from it. A new
// coroutine's stack starts as such a frame whose return address is
// coro_entry and whose r12 holds the coroutine (tl_coro_start).
void tl_coro_asm_switch(void **save, void *to);
void tl_coro_asm_entry(void);
__asm__(".text\n"
        ".p2align 4\n"
        ".globl tl_coro_asm_switch\n"
        ".hidden tl_coro_asm_switch\n"
        ".type tl_coro_asm_switch, @function\n"
        "tl_coro_asm_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size tl_coro_asm_switch, .-tl_coro_asm_switch\n"
        ".p2align 4\n"
        ".globl tl_coro_asm_entry\n"
        ".hidden tl_coro_asm_entry\n"
        ".type tl_coro_asm_entry, @function\n"
        "tl_coro_asm_entry:\n" // rsp is 16-byte aligned here
        "    movq %r12, %rdi\n"
        "    call tl_coro_asm_main\n"
        "    ud2\n"
        ".size tl_coro_asm_entry, .-tl_coro_asm_entry\n");
#endif

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

// Runs the coroutine's function on its own stack, then switches back for good.
static void run_body(tl_coro_t *c)
{
    FINISH_SWITCH(NULL, &c->caller_bottom, &c->caller_size);
    c->fn(c->arg);
    c->done = true;
    START_SWITCH(NULL, c->caller_bottom, c->caller_size); // this stack is finished
}

#ifdef CORO_ASM
void tl_coro_asm_main(tl_coro_t *c);

__attribute__((used, noreturn)) void tl_coro_asm_main(tl_coro_t *c)
{
    run_body(c);
    void *dead;
    tl_coro_asm_switch(&dead, c->caller_sp);
    __builtin_unreachable();
}

void tl_coro_start(tl_coro_t *c, tl_coro_fn fn, void *arg)
{
    c->fn = fn;
    c->arg = arg;
    c->done = false;
    // top of stack: the return address coro_entry, below it the six saved
    // registers (r12 = c); after the `ret` the stack pointer is 16-aligned
    UNPOISON(c->stack, STACK);
    uintptr_t top = ((uintptr_t)c->stack + STACK) & ~(uintptr_t)15;
    void **sp = (void **)(top - 16) - 7;
    for (int i = 0; i < 6; i++) sp[i] = NULL;
    sp[3] = c;                                    // r12 (popped fourth)
    sp[6] = (void *)(uintptr_t)tl_coro_asm_entry; // return address
    c->sp = sp;
}

bool tl_coro_resume(tl_coro_t *c)
{
    if (c->done) return true;
    void *save = NULL;
    START_SWITCH(&save, c->stack, STACK);
    tl_coro_asm_switch(&c->caller_sp, c->sp);
    FINISH_SWITCH(save, NULL, NULL);
    return c->done;
}

void tl_coro_yield(tl_coro_t *c)
{
    START_SWITCH(&c->fake, c->caller_bottom, c->caller_size);
    tl_coro_asm_switch(&c->sp, c->caller_sp);
    FINISH_SWITCH(c->fake, &c->caller_bottom, &c->caller_size);
}

#else

static void trampoline(unsigned lo, unsigned hi)
{
    tl_coro_t *c = (tl_coro_t *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
    run_body(c);
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

#endif
