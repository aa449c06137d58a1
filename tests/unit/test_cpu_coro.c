// The coroutines of the cpu target's agents (src/cpu/coro.c): values live in
// registers and on both stacks survive switches, coroutines interleave and
// restart, a new coroutine's stack is aligned as the ABI wants, and (x86-64)
// a switch leaves the thread's signal mask alone (no system call).
#include "../test.h"

#include <signal.h>
#include <stdint.h>

#include "cpu/coro.h"

typedef struct {
    tl_coro_t *co;
    int steps;
    uint64_t seed, result;
    bool aligned;
} walk_t;

// A mix of values live across every yield, in registers or spilled.
typedef struct {
    uint64_t a, b, c, d, e, f;
    double x, y;
} mix_t;

static inline __attribute__((always_inline)) mix_t mix_start(uint64_t seed)
{
    return (mix_t){seed, seed * 3 + 1, seed ^ 0x9e3779b97f4a7c15u, 7, 11, 13, (double)seed, 0.5};
}

static inline __attribute__((always_inline)) void mix_step(mix_t *m, int i)
{
    m->a = m->a * 6364136223846793005u + 1442695040888963407u;
    m->b += m->a >> 7, m->c ^= m->b << 3, m->d += m->c % 97, m->e ^= m->d;
    m->f += m->e + (uint64_t)i;
    m->x = m->x * 0.75 + m->y, m->y += 1.0;
}

static uint64_t mix_result(const mix_t *m)
{
    return m->a ^ m->b ^ m->c ^ m->d ^ m->e ^ m->f ^ (uint64_t)m->x;
}

static void walk(void *arg)
{
    walk_t *w = arg;
    mix_t m = mix_start(w->seed);
    for (int i = 0; i < w->steps; i++) {
        mix_step(&m, i);
        tl_coro_yield(w->co);
    }
    w->result = mix_result(&m);
}

static uint64_t walk_expected(uint64_t seed, int steps)
{
    mix_t m = mix_start(seed);
    for (int i = 0; i < steps; i++) mix_step(&m, i);
    return mix_result(&m);
}

TEST(cpu_coro_interleaved_walks_keep_their_state)
{
    enum { NCO = 3 };
    walk_t w[NCO];
    for (int i = 0; i < NCO; i++) {
        REQUIRE(tl_coro_create(&w[i].co, NULL) == TL_OK);
        CHECK(tl_coro_resume(w[i].co)); // not started: done
    }
    for (int round = 0; round < 2; round++) { // the second round restarts them
        for (int i = 0; i < NCO; i++) {
            w[i].steps = 50 + 17 * i + round;
            w[i].seed = (uint64_t)(i + 1) * 1000003u + (uint64_t)round;
            w[i].result = 0;
            tl_coro_start(w[i].co, walk, &w[i]);
        }
        // the resumer keeps values of its own live across the switches
        uint64_t mine = 1, resumes = 0;
        for (bool alive = true; alive;) {
            alive = false;
            for (int i = 0; i < NCO; i++) {
                if (tl_coro_resume(w[i].co)) continue;
                alive = true;
                resumes++;
                mine = mine * 31 + resumes;
            }
        }
        uint64_t want = 1;
        for (uint64_t r = 1; r <= resumes; r++) want = want * 31 + r;
        CHECK_EQ(mine, want);
        CHECK_EQ(resumes, (uint64_t)(50 + 67 + 84 + 3 * round)); // steps yields each
        for (int i = 0; i < NCO; i++) {
            CHECK(tl_coro_resume(w[i].co));
            CHECK_EQ(w[i].result, walk_expected(w[i].seed, w[i].steps));
        }
    }
    for (int i = 0; i < NCO; i++) tl_coro_destroy(w[i].co);
}

// The frame address of a function is 16-byte aligned on x86-64 and AArch64
// when the stack pointer was aligned at the call.
static __attribute__((noinline)) bool frame_aligned(void)
{
    return ((uintptr_t)__builtin_frame_address(0) & 15) == 0;
}

static void check_alignment(void *arg)
{
    walk_t *w = arg;
    w->aligned = frame_aligned();
    tl_coro_yield(w->co);
    w->aligned = w->aligned && frame_aligned();
}

TEST(cpu_coro_stack_is_aligned)
{
    walk_t w = {0};
    REQUIRE(tl_coro_create(&w.co, NULL) == TL_OK);
    tl_coro_start(w.co, check_alignment, &w);
    CHECK(!tl_coro_resume(w.co));
    CHECK(tl_coro_resume(w.co));
    CHECK(w.aligned);
    tl_coro_destroy(w.co);
}

#if defined(__x86_64__)
static void block_usr2(void *arg)
{
    walk_t *w = arg;
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
    tl_coro_yield(w->co);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
}

// ucontext's swapcontext saves and restores the signal mask, a system call
// per switch; the x86-64 switch does not: the mask is the thread's.
TEST(cpu_coro_switch_leaves_the_signal_mask)
{
    walk_t w = {0};
    REQUIRE(tl_coro_create(&w.co, NULL) == TL_OK);
    tl_coro_start(w.co, block_usr2, &w);
    CHECK(!tl_coro_resume(w.co));
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    CHECK(sigismember(&now, SIGUSR2) == 1);
    CHECK(tl_coro_resume(w.co));
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    CHECK(sigismember(&now, SIGUSR2) == 0);
    tl_coro_destroy(w.co);
}
#endif
