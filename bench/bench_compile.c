// Compile time of the sparse attention kernel for the cpu target: the front
// end and passes, then generating C, compiling it with the system compiler
// and loading it: "first use" with an empty cache directory (with GCC the
// precompiled system header is made too, jit.h), "cold" with the kernel's
// entry removed from the cache before each run (the precompiled header kept,
// as for any kernel compiled after the first), the same with TILEC_PCH=0, and
// "cached" (loaded from the cache). Medians of repeated runs; the compiler and
// flags are the defaults ($CC or cc, -O3 -march=native).
#include <sys/stat.h>
#include <unistd.h>

#include "bench_util.h"

static const char *const args[] = {"h=64", "d=512", NULL};

static void front(void *arg)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    bench_kernel(&arena, "kernels/ds_v4/sparse_attn.py", NULL, args, &d);
    tl_diag_free(&d);
    tl_arena_free(&arena);
    (void)arg;
}

typedef enum { FIRST_USE, COLD, CACHED } state_t;

typedef struct {
    const tl_kernel_t *k;
    char dir[256];
    int n;
    state_t state;
} load_t;

static void load(void *arg)
{
    load_t *l = arg;
    tl_cpu_opts_t o = {.threads = 1};
    char dir[300];
    // first use: a new directory each run; cold: directory 0; cached: the
    // first first-use directory (which keeps its entry)
    snprintf(dir, sizeof dir, "%s/%d", l->dir,
             l->state == FIRST_USE ? ++l->n
             : l->state == COLD    ? 0
                                   : 1);
    o.jit.cache_dir = dir;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_cpu_t *c;
    if (tl_cpu_create(&c, l->k, &o, &d)) bench_die(&d, "cpu compile");
    const tl_jit_t *j = tl_cpu_jit(c);
    if (j->cached != (l->state == CACHED)) bench_die(&d, "cache state");
    if (l->state == COLD) { // the next run finds the kernel's entry gone
        char ok[4200];
        snprintf(ok, sizeof ok, "%.*s.ok", (int)strlen(j->path) - 3, j->path);
        if (unlink(j->path) != 0 || unlink(ok) != 0) bench_die(&d, "removing the cache entry");
    }
    tl_cpu_destroy(c);
    tl_diag_free(&d);
}

int main(void)
{
    tl_diag_t d;
    tl_diag_init(&d);
    tl_arena_t arena;
    tl_arena_init(&arena);
    double tf = bench_median(front, NULL, 21);
    tl_kernel_t *k = bench_kernel(&arena, "kernels/ds_v4/sparse_attn.py", NULL, args, &d);
    load_t l = {k, "", 0, FIRST_USE};
    snprintf(l.dir, sizeof l.dir, "/tmp/tilec-bench-compile-%ld", (long)getpid());
    mkdir(l.dir, 0777);
    double first = bench_median(load, &l, 5);
    l.state = COLD;
    load(&l); // makes the precompiled header of directory 0
    double cold = bench_median(load, &l, 7);
    setenv("TILEC_PCH", "0", 1);
    double cold_nopch = bench_median(load, &l, 7);
    unsetenv("TILEC_PCH");
    l.state = CACHED;
    double hit = bench_median(load, &l, 21);
    const char *cc = getenv("CC");
    printf("sparse_attn (h=64, d=512), cpu target, compiler %s:\n", cc && *cc ? cc : "cc");
    printf("  front end + passes                 %8.2f ms\n", tf * 1e3);
    printf("  first use (empty cache)            %8.2f ms\n", first * 1e3);
    printf("  cold (codegen + cc)                %8.2f ms   goal < 1000 ms\n", cold * 1e3);
    printf("  cold without precompiled header    %8.2f ms\n", cold_nopch * 1e3);
    printf("  cached (codegen + load)            %8.2f ms   goal < 10 ms\n", hit * 1e3);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", l.dir); // our own temporary directory
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", l.dir);
    tl_arena_free(&arena);
    tl_diag_free(&d);
    return 0;
}
