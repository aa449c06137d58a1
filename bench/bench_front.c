// Front-end speed: parse + evaluate + trace + verify of the DeepSeek-V4 sparse
// attention kernel (kernels/ds_v4/sparse_attn.py, or upstream's
// sparse_flash_attention.py when ours is absent) at h=64, d=512. Prints the
// median and p90 of 1000 compiles, the lex+parse part alone, and whether the
// 5 ms goal is met. Run from the repository root: `make bench-front`.
//
//   bench_front [FILE [NAME=VALUE...]]   another kernel file and factory arguments
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "front/front.h"
#include "front/parse.h"

enum { RUNS = 1000 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    double median, p90, min;
} stats_t;

static stats_t stats(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return (stats_t){t[n / 2], t[n * 9 / 10], t[0]};
}

static bool exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

int main(int argc, char **argv)
{
    static const char *ours = "kernels/ds_v4/sparse_attn.py";
    static const char *upstream = "/work/upstream/ops/tilelang/ds_v4/sparse_flash_attention.py";
    const char *path = argc > 1 ? argv[1] : exists(ours) ? ours : upstream;
    tl_front_arg_t args[16] = {{"h", "64"}, {"d", "512"}};
    int nargs = 2;
    if (argc > 2) {
        nargs = 0;
        for (int i = 2; i < argc && nargs < 16; i++) {
            char *eq = strchr(argv[i], '=');
            if (!eq) {
                fprintf(stderr, "bench_front: expected NAME=VALUE, got '%s'\n", argv[i]);
                return 2;
            }
            *eq = 0;
            args[nargs++] = (tl_front_arg_t){argv[i], eq + 1};
        }
    }
    tl_diag_t d;
    tl_diag_init(&d);
    tl_source_t *src = tl_source_read(path, &d);
    if (!src) {
        fputs(tl_diag_text(&d), stderr);
        return 1;
    }
    tl_front_opts_t opts = {.nargs = nargs, .args = args};
    static double full[RUNS], parse[RUNS];
    int nstmts = 0, nbuffers = 0;
    for (int i = -1; i < RUNS; i++) { // run -1 warms the caches
        tl_arena_t arena;
        tl_arena_init(&arena);
        tl_diag_clear(&d);
        tl_kernel_t *k = NULL;
        double t0 = now();
        tl_status_t st = tl_front_compile_source(&arena, path, src->text, &opts, &d, &k);
        double t1 = now();
        if (st != TL_OK) {
            fprintf(stderr, "%sbench_front: %s does not compile\n", tl_diag_text(&d), path);
            return 1;
        }
        nbuffers = k->buffers.len;
        tl_arena_free(&arena);
        // The lex + parse part alone, on a fresh arena.
        tl_arena_init(&arena);
        tl_ast_module_t *m;
        double t2 = now();
        tl_parse_module(&arena, src, &d, &m);
        double t3 = now();
        nstmts = m->body.len;
        tl_arena_free(&arena);
        if (i >= 0) {
            full[i] = t1 - t0;
            parse[i] = t3 - t2;
        }
    }
    stats_t f = stats(full, RUNS), p = stats(parse, RUNS);
    printf("front end on %s (%zu bytes, %d top-level statements, %d buffers), %d runs\n", path,
           src->len, nstmts, nbuffers, RUNS);
    printf("  parse + evaluate + trace + verify: median %.3f ms, p90 %.3f ms, min %.3f ms\n",
           f.median * 1e3, f.p90 * 1e3, f.min * 1e3);
    printf(
        "  lex + parse alone:                 median %.3f ms, p90 %.3f ms (%.0f%% of the median)\n",
        p.median * 1e3, p.p90 * 1e3, 100 * p.median / f.median);
    printf("  goal: median under 5 ms: %s (%.1fx headroom)\n", f.median < 5e-3 ? "met" : "NOT met",
           5e-3 / f.median);
    tl_source_free(src);
    tl_diag_free(&d);
    return f.median < 5e-3 ? 0 : 1;
}
