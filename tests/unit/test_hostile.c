// Hostile kernel files too big to keep as data (issue 22): generated here,
// then run through the tilec binary. Nesting past the limits of
// docs/language.md ("Limits") is a located compile error (exit 2) on every
// command, never a crash; nesting just inside them compiles. Smaller hostile
// inputs (memory, deep values) are data files under tests/data/bad/.
#include "../test.h"

#include <stdarg.h>
#include <stdlib.h>

#include "base/buf.h"

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

TEST(hostile_elif_chain_of_5000_branches)
{
    char *src = elif_chain(5000);
    // the 196th branch: inside the two defs, two withs and an if, the 201st block
    fails_on_every_command(t, "elif5000.py", src, BODY_LINE + 2 * 195, 21,
                           "statements nest too deeply: more than 200 compound statements");
    free(src);
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
