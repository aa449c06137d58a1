// Hostile kernel files too big to keep as data (issue 22): generated here,
// then run through the tilec binary. Nesting past the limits of
// docs/language.md ("Limits") is a located compile error (exit 2) on every
// command, never a crash; nesting just inside them compiles. Smaller hostile
// inputs (memory, deep values) are data files under tests/data/bad/.
#include "../test.h"

#include <stdarg.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/common.h"
#include "tilec.h"

// A factory around one kernel; `body` goes into a vector scope with tile a
// loaded from A and stored to B (16 spaces of indentation), `pre` into the
// factory before the kernel (4 spaces).
static void kernel(tl_buf_t *o, const char *pre, const char *body)
{
    tl_buf_printf(
        o,
        "import tilelang\nimport tilelang.language as T\n\n\n"
        "@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: "
        "True})\n"
        "def big(M=16, N=64):\n%s"
        "    @T.prim_func\n"
        "    def main(A: T.Tensor([M, N], \"float32\"), B: T.Tensor([M, N], \"float32\")):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_ub([M, N], \"float32\")\n"
        "            with T.Scope(\"V\"):\n"
        "                if vid == 0:\n"
        "                    T.copy(A, a)\n%s"
        "                    T.copy(a, B)\n\n"
        "    return main\n",
        pre, body);
}

// Line 7 of kernel(): the first line of `pre`; line 14: the first of `body`
// (with no `pre`).
enum { PRE_LINE = 7, BODY_LINE = 14 };

// "x = 1 + 1 + ... " with n terms (factory level)
static char *factory_sum(int n)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_puts(&b, "    x = 1");
    for (int i = 1; i < n; i++) tl_buf_puts(&b, " + 1");
    tl_buf_puts(&b, "\n");
    tl_buf_t o;
    tl_buf_init(&o);
    kernel(&o, b.data, "");
    tl_buf_free(&b);
    return o.data;
}

// a T.Parallel store of an expression of n terms
static char *parallel_sum(int n)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_puts(&b, "                    for i, j in T.Parallel(M, N):\n"
                    "                        a[i, j] = a[i, j]");
    for (int i = 1; i < n; i++) tl_buf_printf(&b, " + a[i, j] * %d.0", i % 7);
    tl_buf_puts(&b, "\n");
    tl_buf_t o;
    tl_buf_init(&o);
    kernel(&o, "", b.data);
    tl_buf_free(&b);
    return o.data;
}

// an if / elif chain of n branches on the block index
static char *elif_chain(int n)
{
    tl_buf_t b;
    tl_buf_init(&b);
    for (int i = 0; i < n; i++)
        tl_buf_printf(&b,
                      "                    %s cid == %d:\n"
                      "                        T.tile.add(a, a, %d.0)\n",
                      i ? "elif" : "if", i, i);
    tl_buf_t o;
    tl_buf_init(&o);
    kernel(&o, "", b.data);
    tl_buf_free(&b);
    return o.data;
}

// Runs tilec with the arguments (NULL-terminated) on `src` written to NAME.py.
static int run(const char *name, const char *src, char **out, ...)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", tl_test_tmp(name));
    tl_test_write_file(path, src, strlen(src));
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)tl_test_tilec();
    va_list ap;
    va_start(ap, out);
    for (char *a; n < 14 && (a = va_arg(ap, char *));) argv[n++] = a;
    va_end(ap);
    argv[n++] = path;
    argv[n] = NULL;
    return tl_test_run(argv, out);
}

// Every command that compiles the file fails with exit 2 and `want` at
// NAME.py:line:col (the excerpt and caret follow).
static void fails_on_every_command(tl_test_t *t, const char *name, const char *src, int line,
                                   int col, const char *want)
{
    static const char *cmds[][3] = {{"sim", NULL}, {"run", "--target", "cpu"}, {"run", NULL}};
    char where[256];
    snprintf(where, sizeof where, "%s:%d:%d: error: ", name, line, col);
    for (int c = 0; c < (int)TL_ARRAY_LEN(cmds); c++) {
        char *out = NULL;
        int rc = cmds[c][1] ? run(name, src, &out, cmds[c][0], cmds[c][1], cmds[c][2], NULL)
                            : run(name, src, &out, cmds[c][0], NULL);
        // (the excerpt of the source line is long: only the start is shown)
        if (rc != 2 || !out || !strstr(out, where) || !strstr(out, want) || !strstr(out, "^"))
            tl_test_fail(t, __FILE__, __LINE__,
                         "tilec %s: exit %d (-1: a crash), not '%s%s' in:\n%.400s", cmds[c][0], rc,
                         where, want, out ? out : "");
        free(out);
    }
}

TEST(hostile_factory_expression_of_50000_terms)
{
    char *src = factory_sum(50000);
    fails_on_every_command(t, "sum50000.py", src, PRE_LINE, 9, "this expression nests too deeply");
    free(src);
}

TEST(hostile_parallel_expression_of_10000_terms)
{
    char *src = parallel_sum(10000);
    fails_on_every_command(t, "par10000.py", src, BODY_LINE + 1, 35,
                           "this expression nests too deeply");
    free(src);
}

TEST(hostile_elif_chain_past_its_limit)
{
    char *src = elif_chain(TL_MAX_ELIF + 1);
    // the 10,001st branch; below it a chain of any length nests one level
    fails_on_every_command(t, "elif10001.py", src, BODY_LINE + 2 * TL_MAX_ELIF, 21,
                           "this if/elif chain has more than 10000 branches");
    free(src);
}

// rows of B: branch i of the chain (cid == i, i = 1 .. n) adds i to row i of A,
// the else adds -1 (row 0)
static char *elif_rows(int n)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_puts(&b, "import tilelang\nimport tilelang.language as T\n\n\n"
                    "@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey."
                    "TL_ASCEND_AUTO_SYNC: True})\n"
                    "def chain(M=16, N=64):\n"
                    "    @T.prim_func\n"
                    "    def main(A: T.Tensor([M, N], \"float32\"), B: T.Tensor([M, N], \"float32\")):\n"
                    "        with T.Kernel(M, is_npu=True) as (cid, vid):\n"
                    "            a = T.alloc_ub([1, N], \"float32\")\n"
                    "            with T.Scope(\"V\"):\n"
                    "                if vid == 0:\n"
                    "                    T.copy(A[cid, 0], a)\n");
    for (int i = 1; i <= n; i++)
        tl_buf_printf(&b, "                    %s cid == %d:\n"
                          "                        T.tile.add(a, a, %d.0)\n",
                      i > 1 ? "elif" : "if", i, i);
    tl_buf_puts(&b, "                    else:\n"
                    "                        T.tile.add(a, a, -1.0)\n"
                    "                    T.copy(a, B[cid, 0])\n\n"
                    "    return main\n");
    return tl_buf_take(&b);
}

// Runs elif_rows(n) on `target` through the C API: B[r] == A[r] + r (row 0: - 1).
static void elif_rows_run(tl_test_t *t, int n, tilec_target_t target)
{
    char *src = elif_rows(n);
    tilec_context_t *ctx;
    REQUIRE(tilec_context_create(&ctx) == TILEC_OK);
    tilec_kernel_t *k = NULL;
    if (tilec_compile_string(ctx, "rows.py", src, NULL, &k) != TILEC_OK) {
        tl_test_fail(t, __FILE__, __LINE__, "%d branches: %.400s", n, tilec_context_error(ctx));
    } else {
        enum { M = 16, N = 64 };
        static float a[M * N], b[M * N];
        for (int i = 0; i < M * N; i++) a[i] = (float)(i % 5), b[i] = 1e9f;
        int64_t shape[2] = {M, N};
        tilec_value_t v[2] = {tilec_tensor(a, TILEC_F32, 2, shape),
                              tilec_tensor(b, TILEC_F32, 2, shape)};
        tilec_status_t st = tilec_launch(k, target, v, 2, NULL);
        if (st != TILEC_OK) tl_test_fail(t, __FILE__, __LINE__, "%s", tilec_context_error(ctx));
        int wrong = 0;
        for (int i = 0; i < M * N; i++) wrong += b[i] != a[i] + (i / N ? (float)(i / N) : -1.0f);
        if (st == TILEC_OK && wrong)
            tl_test_fail(t, __FILE__, __LINE__, "%d branches, target %d: %d of %d wrong", n,
                         (int)target, wrong, M * N);
        tilec_kernel_destroy(k);
    }
    tilec_context_destroy(ctx);
    free(src);
}

// A chain is a loop of the front end and, past 16 branches, a flat IR
// (front/trace.c): 5,000 branches run (the reference semantics; the NPU
// pipeline and the C compiler take long on them), and a 40-branch chain gives
// the same rows on every target.
TEST(hostile_elif_chain_of_5000_branches_runs)
{
    elif_rows_run(t, 5000, TILEC_TARGET_REF);
    elif_rows_run(t, 40, TILEC_TARGET_REF);
    elif_rows_run(t, 40, TILEC_TARGET_SIM);
    elif_rows_run(t, 40, TILEC_TARGET_CPU);
}

// Just inside the limits everything compiles (the CPU pipeline and its C):
// a 1,990-term sum, a 1,900-term T.Parallel expression, a 190-branch chain.
TEST(hostile_nesting_inside_the_limits_compiles)
{
    char *srcs[] = {factory_sum(1990), parallel_sum(1900), elif_chain(190)};
    const char *names[] = {"sum1990.py", "par1900.py", "elif190.py"};
    for (int i = 0; i < 3; i++) {
        char *out = NULL;
        int rc = run(names[i], srcs[i], &out, "ir", "--emit=c", NULL);
        if (rc != 0) tl_test_fail(t, __FILE__, __LINE__, "%s: exit %d\n%.400s", names[i], rc, out);
        free(out);
        free(srcs[i]);
    }
}
