// Compile time against kernel size (`make bench-scale`): generated kernels of
// one block of N vector statements (tile ops over four UB tiles, automatic
// syncs and memory planning, as `tilec sim` compiles them) and of one
// T.Parallel expression of N terms (of three tiles; or of the tile it writes,
// without memory planning) and of one run-time if/elif chain of N branches on
// the block index (a flat chain of ifs in the IR, front/trace.c),
// for N = 250 ... 2000 (1,950 terms for the last: the nesting limit,
// docs/language.md). Prints the median
// time of the front end + NPU pipeline (with the IR verifier between passes)
// and of the front end + CPU pipeline + C generation, the ratio to the size
// before (2.0 is linear, 4.0 quadratic), and for N = 1000 the steps that take
// more than 2% of the NPU compile. Goal: N = 1000 compiles in under 1 s.
//
//   bench_scale [MAX_N]   sizes up to MAX_N (default 2000)
#include "bench_util.h"

enum { MAX_STEPS = 32, REPS = 5, TERMS_MAX = TL_MAX_NESTING - 50 };

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, bench_cmp);
    return t[n / 2];
}

// The kernel: four UB tiles loaded from A, the body, t0 stored to B.
static void kernel(tl_buf_t *o, int terms, int n)
{
    // (terms == 2: without memory planning the expression reading the tile it
    // writes is lowered row by row, a loop of vector ops with a barrier
    // between each dependent pair)
    tl_buf_printf(
        o,
        "import tilelang\nimport tilelang.language as T\n\n"
        "MIXED = {\n"
        "    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,\n"
        "    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: %s,\n"
        "}\n\n\n"
        "@tilelang.jit(out_idx=[-1], pass_configs=MIXED)\n"
        "def big(M=16, N=64):\n"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor([M, N], \"float32\"), B: T.Tensor([M, N], \"float32\")):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n",
        terms == 2 ? "False" : "True");
    for (int t = 0; t < 4; t++)
        tl_buf_printf(o, "            t%d = T.alloc_ub([M, N], \"float32\")\n", t);
    tl_buf_puts(o, "            with T.Scope(\"V\"):\n");
    for (int t = 0; t < 4; t++) tl_buf_printf(o, "                T.copy(A, t%d)\n", t);
    if (terms == 3) {
        tl_buf_puts(o, "                if vid == 0:\n");
        for (int k = 0; k < n; k++)
            tl_buf_printf(o,
                          "                    %s cid == %d:\n"
                          "                        T.tile.add(t0, t0, %d.0)\n",
                          k ? "elif" : "if", k, k + 1);
    } else if (terms) {
        tl_buf_puts(o, "                for i, j in T.Parallel(M, N):\n"
                       "                    t0[i, j] = ");
        for (int k = 0; k < n; k++)
            if (terms == 2)
                tl_buf_puts(o, k ? " + t0[i, j]" : "t0[i, j]");
            else
                tl_buf_printf(o, "%st%d[i, j] * %d.0", k ? " + " : "", k % 3 + 1, k + 1);
        tl_buf_putc(o, '\n');
    } else {
        static const char *ops[] = {"add", "sub", "mul", "max", "min"};
        unsigned x = 12345;
        for (int k = 0; k < n; k++) {
            x = (x * 1103515245u + 12345u) & 0x7fffffffu;
            tl_buf_printf(o, "                T.tile.%s(t%u, t%u, t%u)\n", ops[(x >> 12) % 5],
                          x % 4, (x >> 4) % 4, (x >> 8) % 4);
        }
    }
    tl_buf_puts(o, "                T.copy(t0, B)\n\n    return main\n");
}

typedef struct {
    const char *name[MAX_STEPS];
    double t[MAX_STEPS];
    int n;
} steps_t;

static void on_step(void *arg, const char *step, double seconds)
{
    steps_t *s = arg;
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->name[i], step)) {
            s->t[i] += seconds;
            return;
        }
    if (s->n == MAX_STEPS) return;
    s->name[s->n] = step;
    s->t[s->n++] = seconds;
}

// One compile; with cpu, the CPU pipeline and C generation. Returns seconds.
static double compile(const char *src, bool cpu, steps_t *steps)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_compile_opts_t o = {.path = "generated.py",
                           .source = src,
                           .pipeline = cpu ? TL_PIPELINE_CPU : TL_PIPELINE_NPU,
                           .on_step = steps ? on_step : NULL,
                           .step_arg = steps};
    double t0 = bench_now();
    tl_kernel_t *k = NULL;
    tl_status_t st = tl_compile(&arena, &o, &d, &k);
    tl_buf_t c;
    tl_buf_init(&c);
    if (!st && cpu) st = tl_cpu_emit(k, &c, &d);
    double t = bench_now() - t0;
    tl_buf_free(&c);
    if (st) {
        fprintf(stderr, "%s\ncompile failed\n", tl_diag_text(&d));
        exit(1);
    }
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return t;
}

int main(int argc, char **argv)
{
    int max_n = argc > 1 ? atoi(argv[1]) : 2000;
    static const char *what[] = {
        "block of N vector statements", "T.Parallel expression of N terms",
        "T.Parallel expression of N terms reading the tile it writes, no planning",
        "if/elif chain of N branches on the block index"};
    for (int terms = 0; terms < 4; terms++) {
        printf("%s (front end + passes; medians of %d)\n", what[terms], REPS);
        printf("  %6s %12s %7s %12s %7s\n", "N", "npu", "ratio", "cpu + C", "ratio");
        double prev[2] = {0, 0};
        for (int n2 = 250; n2 <= max_n; n2 *= 2) {
            // (an expression nests at most TL_MAX_NESTING levels: 2,000 terms is past it)
            int n = terms && terms < 3 && n2 > TERMS_MAX ? TERMS_MAX : n2;
            tl_buf_t src;
            tl_buf_init(&src);
            kernel(&src, terms, n);
            double t[2], runs[REPS];
            steps_t steps = {0};
            for (int cpu = 0; cpu < 2; cpu++) {
                for (int r = 0; r < REPS; r++)
                    runs[r] = compile(tl_buf_cstr(&src), cpu, !cpu && n == 1000 ? &steps : NULL);
                t[cpu] = median(runs, REPS);
            }
            printf("  %6d %10.3f s %7.2f %10.3f s %7.2f%s\n", n, t[0],
                   prev[0] ? t[0] / prev[0] : 0.0, t[1], prev[1] ? t[1] / prev[1] : 0.0,
                   n == 1000 ? (t[0] < 1.0 ? "   goal < 1 s met" : "   goal < 1 s MISSED")
                   : n != n2 ? "   (the most terms within the nesting limit)"
                             : "");
            for (int i = 0; i < steps.n; i++) // (summed over the runs: mean per run)
                if (steps.t[i] / REPS > 0.02 * t[0])
                    printf("           %-12s %8.3f s\n", steps.name[i], steps.t[i] / REPS);
            prev[0] = t[0];
            prev[1] = t[1];
            tl_buf_free(&src);
        }
    }
    return 0;
}
