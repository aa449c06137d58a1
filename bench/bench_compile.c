// Compile time of the sparse attention kernel for the cpu target: the front
// end and passes, then generating C, compiling it with the system compiler
// and loading it with an empty cache ("cold", a fresh cache directory each
// time), and loading it from the cache ("cached"). Medians of repeated runs;
// the compiler and flags are the defaults ($CC or cc, -O3 -march=native).
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

typedef struct {
    const tl_kernel_t *k;
    char dir[256];
    int n;
    bool cold;
} load_t;

static void load(void *arg)
{
    load_t *l = arg;
    tl_cpu_opts_t o = {.threads = 1};
    char dir[300];
    snprintf(dir, sizeof dir, "%s/%d", l->dir, l->cold ? l->n++ : 0);
    o.jit.cache_dir = dir;
    tl_diag_t d;
    tl_diag_init(&d);
    tl_cpu_t *c;
    if (tl_cpu_create(&c, l->k, &o, &d)) bench_die(&d, "cpu compile");
    if (tl_cpu_jit(c)->cached == l->cold) bench_die(&d, "cache state");
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
    load_t l = {k, "", 0, true};
    snprintf(l.dir, sizeof l.dir, "/tmp/tilec-bench-compile-%ld", (long)getpid());
    mkdir(l.dir, 0777);
    double cold = bench_median(load, &l, 7);
    l.cold = false;
    l.n = 0;
    double hit = bench_median(load, &l, 21);
    const char *cc = getenv("CC");
    printf("sparse_attn (h=64, d=512), cpu target, compiler %s:\n", cc && *cc ? cc : "cc");
    printf("  front end + passes     %8.2f ms\n", tf * 1e3);
    printf("  cold (codegen + cc)    %8.2f ms   goal < 1000 ms\n", cold * 1e3);
    printf("  cached (codegen + load) %7.2f ms   goal < 10 ms\n", hit * 1e3);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", l.dir); // our own temporary directory
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", l.dir);
    tl_arena_free(&arena);
    tl_diag_free(&d);
    return 0;
}
