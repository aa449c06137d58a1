// Front-end semantics. Python at compile time: each expression is evaluated in
// a factory and its repr() comes back through T.printf into the printed IR, so
// these tests check the values CPython gives (floor division, float `/`,
// short-circuit, comprehensions, closures, argument binding, f-strings...).
// Tracing: the printed IR of small kernels (C truncation of `//` and `%` on IR
// values, lets only for buffer reads, alloc_var stores, T.If frames,
// T.Persistent, copy extent inference, symbolic dims, macros). Driver code: the
// modelled os environment and torch.npu chip, arithmetic on opaque values.
#include "../test.h"

#include <stdlib.h>

#include "front/front.h"

typedef struct {
    tl_status_t status;
    char *ir;   // printed kernel (malloc'd), or NULL
    char *diag; // diagnostics (malloc'd)
} result_t;

static result_t compile_file(const char *path, const char *text, const tl_front_opts_t *opts)
{
    tl_arena_t arena;
    tl_arena_init(&arena);
    tl_diag_t d;
    tl_diag_init(&d);
    tl_kernel_t *k = NULL;
    result_t r = {0};
    r.status = text ? tl_front_compile_source(&arena, path, text, opts, &d, &k)
                    : tl_front_compile(&arena, path, opts, &d, &k);
    if (r.status == TL_OK) {
        tl_buf_t b;
        tl_buf_init(&b);
        tl_ir_print_kernel(&b, k);
        r.ir = strdup(tl_buf_cstr(&b));
        tl_buf_free(&b);
    }
    r.diag = strdup(tl_diag_text(&d));
    tl_diag_free(&d);
    tl_arena_free(&arena);
    return r;
}

static result_t compile_text(const char *text)
{
    return compile_file("t.py", text, NULL);
}

static void result_free(result_t *r)
{
    free(r->ir);
    free(r->diag);
}

// The IR of `text`; fails the test (and returns NULL) if it does not compile.
#define IR_OF(r, text)                                                                             \
    result_t r = compile_text(text);                                                               \
    if (r.status != TL_OK) tl_test_fail(t, __FILE__, __LINE__, "compile failed:\n%s", r.diag)

static const char *HEAD = "import tilelang\nimport tilelang.language as T\n";

// repr() of a Python expression evaluated in a factory after `prelude`
// (module-level statements). On a compile error: "error: <first message>".
static char *py(const char *prelude, const char *expr)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_printf(&b,
                  "%s%s\n\n@tilelang.jit\ndef probe_factory_():\n    v = (%s)\n\n    @T.prim_func\n"
                  "    def main(A: T.Tensor((4,), \"float32\")):\n"
                  "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                  "            T.printf(repr(v))\n\n    return main\n",
                  HEAD, prelude, expr);
    result_t r = compile_text(tl_buf_cstr(&b));
    tl_buf_free(&b);
    char *out;
    const char *p = r.ir ? strstr(r.ir, "print \"") : NULL;
    if (p) {
        p += 7;
        const char *q = strrchr(p, '"');
        out = strndup(p, (size_t)(q - p));
    } else {
        const char *e = strstr(r.diag, "error: ");
        e = e ? e : r.diag;
        out = strndup(e, strcspn(e, "\n"));
    }
    result_free(&r);
    return out;
}

#define CHECK_PY(prelude, expr, want)                                                              \
    do {                                                                                           \
        char *got_ = py(prelude, expr);                                                            \
        if (strcmp(got_, want) != 0)                                                               \
            tl_test_fail(t, __FILE__, __LINE__, "%s: got %s, want %s", expr, got_, want);          \
        free(got_);                                                                                \
    } while (0)

// --- Python semantics -----------------------------------------------------------------------

TEST(front_eval_arithmetic)
{
    static const char *cases[][2] = {
        {"-7 // 2", "-4"},
        {"-7 % 2", "1"},
        {"7 // -2", "-4"},
        {"7 % -2", "-1"},
        {"-7.5 // 2", "-4.0"},
        {"-7.5 % 2", "0.5"},
        {"-8 // 2", "-4"},
        {"7 / 2", "3.5"},
        {"4 / 2", "2.0"},
        {"10 / 4 * 2", "5.0"},
        {"2 ** 10", "1024"},
        {"2 ** -1", "0.5"},
        {"(1.0 / 4) ** 0.5", "0.5"},
        {"(-2) ** 3", "-8"},
        {"2 ** 0.5", "1.4142135623730951"},
        {"0.1 + 0.2", "0.30000000000000004"},
        {"1e-6", "1e-06"},
        {"3.0 * 2", "6.0"},
        {"True + 1", "2"},
        {"7 & 3 | 8 ^ 1", "11"},
        {"1 << 4", "16"},
        {"-9 >> 1", "-5"},
        {"~5", "-6"},
        {"divmod(-7, 2)", "(-4, 1)"},
        {"int(7.9)", "7"},
        {"round(2.5)", "2"},
        {"abs(-3)", "3"},
        {"float(3)", "3.0"},
        {"max(3, 7, 5)", "7"},
        {"min([4, 2, 8])", "2"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) CHECK_PY("", cases[i][0], cases[i][1]);
}

// Python's ints are unbounded: tilec keeps 128 bits, so an intermediate past
// int64 (the lightning indexers' (1 << 63) - 1 default) works.
TEST(front_eval_ints_past_64_bits)
{
    static const char *cases[][2] = {
        {"(1 << 63) - 1", "9223372036854775807"},    {"2 ** 70", "1180591620717411303424"},
        {"-(1 << 64) // 3", "-6148914691236517206"}, {"(1 << 100) // (1 << 90)", "1024"},
        {"(1 << 64) > (1 << 63)", "True"},           {"(1 << 64) == 1 << 64", "True"},
        {"-(1 << 63)", "-9223372036854775808"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) CHECK_PY("", cases[i][0], cases[i][1]);
}

TEST(front_eval_arithmetic_errors)
{
    CHECK_PY("", "2 ** 130",
             "error: integer overflow at compile time (tilec keeps Python ints in 128 bits)");
    CHECK_PY("", "1 << 127",
             "error: integer overflow at compile time (tilec keeps Python ints in 128 bits)");
    CHECK_PY("", "1 // 0", "error: integer division or modulo by zero");
    CHECK_PY("", "1 / 0", "error: division by zero");
    CHECK_PY("", "'a' - 1", "error: unsupported operand types for -: 'str' and 'int'");
}

TEST(front_eval_comparisons_and_short_circuit)
{
    static const char *cases[][2] = {
        {"1 < 2 < 3", "True"},
        {"1 < 3 < 2", "False"},
        {"3 > 2 == 2", "True"},
        {"1 > 2 < undefined_name", "False"}, // the second comparison is never evaluated
        {"0 and undefined_name", "0"},
        {"1 or undefined_name", "1"},
        {"[] or 'x'", "'x'"},
        {"None and 1", "None"},
        {"2 and 3", "3"},
        {"1 == 1.0", "True"},
        {"(1, 2) < (1, 3)", "True"},
        {"'b' > 'a'", "True"},
        {"None is None", "True"},
        {"1 if [] else 2", "2"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) CHECK_PY("", cases[i][0], cases[i][1]);
}

TEST(front_eval_strings_and_lists)
{
    static const char *cases[][2] = {
        {"'ab' + 'cd'", "'abcd'"},
        {"'ab' * 3", "'ababab'"},
        {"[1, 2] + [3]", "[1, 2, 3]"},
        {"[0] * 3", "[0, 0, 0]"},
        {"[] * 1000000000000", "[]"},
        {"'x' in 'axb'", "True"},
        {"3 in (1, 2, 3)", "True"},
        {"'k' not in {'k': 1}", "False"},
        {"'hello'[1:4]", "'ell'"},
        {"[1, 2, 3, 4][::-1]", "[4, 3, 2, 1]"},
        {"(1, 2, 3)[-1]", "3"},
        {"'a-b-c'.replace('-', '+')", "'a+b+c'"},
        {"', '.join(['a', 'b'])", "'a, b'"},
        {"'{}x{}'.format(2, 3)", "'2x3'"},
        {"len('abc') + len([1, 2]) + len({1: 2})", "6"},
        {"'Float16'.lower()", "'float16'"},
        {"'float16'.startswith('float')", "True"},
        {"sorted([3, 1, 2])", "[1, 2, 3]"},
        {"list(enumerate('ab'))", "[(0, 'a'), (1, 'b')]"},
        {"list(zip([1, 2], 'ab'))", "[(1, 'a'), (2, 'b')]"},
        {"tuple(range(3))", "(0, 1, 2)"},
        {"any([0, 1]) and all([])", "True"},
        {"int('12') + 1", "13"},
        {"'a,b,,c'.split(',')", "['a', 'b', '', 'c']"},
        {"'  x  y '.split()", "['x', 'y']"},
        {"'a,b,c'.split(',', 1)", "['a', 'b,c']"},
        {"'a,'.split(',')", "['a', '']"},
        {"'  pad '.strip() + '|' + 'xxyx'.rstrip('x')", "'pad|xxy'"},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) CHECK_PY("", cases[i][0], cases[i][1]);
    // Mutation through an alias is visible (lists are shared, as in Python).
    CHECK_PY("a = [1]\nb = a\nb.append(2)", "a", "[1, 2]");
    CHECK_PY("d = {'x': 1}\nd['y'] = 2\ndel d['x']", "d", "{'y': 2}");
}

TEST(front_eval_comprehensions)
{
    CHECK_PY("", "[i * i for i in range(5) if i % 2 == 0]", "[0, 4, 16]");
    CHECK_PY("", "{k: v for k, v in [('a', 1), ('b', 2)]}", "{'a': 1, 'b': 2}");
    CHECK_PY("", "[(i, j) for i in range(2) for j in range(2)]",
             "[(0, 0), (0, 1), (1, 0), (1, 1)]");
    CHECK_PY("", "sum(x for x in range(5))", "10");
    // Sets are modelled as lists of distinct items.
    CHECK_PY("", "(len({1, 2, 1}), len(set([3, 3, 4])), sorted({x % 3 for x in range(9)}))",
             "(2, 2, [0, 1, 2])");
    // The comprehension variable does not leak into the enclosing scope.
    CHECK_PY("i = 'outer'\nsq = [i for i in range(3)]", "i", "'outer'");
}

TEST(front_eval_functions)
{
    // Closures, late binding, default arguments evaluated once at def time.
    CHECK_PY("def make(n):\n    def add(x):\n        return x + n\n    return add", "make(3)(4)",
             "7");
    CHECK_PY("n = 1\ndef get():\n    return n\nn = 5", "get()", "5");
    CHECK_PY("n = 1\ndef get(x=n):\n    return x\nn = 5", "get()", "1");
    CHECK_PY("def f(a, b=2, *, c=3):\n    return (a, b, c)", "(f(1), f(1, c=9), f(1, b=5))",
             "((1, 2, 3), (1, 2, 9), (1, 5, 3))");
    // *args / **kwargs, in definitions and calls.
    CHECK_PY("def f(*args, **kw):\n    return (args, kw)", "f(1, 2, x=3)", "((1, 2), {'x': 3})");
    CHECK_PY("def f(a, b, c):\n    return a * 100 + b * 10 + c", "f(*[1, 2], **{'c': 3})", "123");
    CHECK_PY("", "(lambda a, b=10: a + b)(1)", "11");
    CHECK_PY("def f(a):\n    return a", "f(1, 2)",
             "error: f() takes 1 positional argument but 2 were given");
    CHECK_PY("def f(a):\n    return a", "f(b=1)",
             "error: f() got an unexpected keyword argument 'b'");
    CHECK_PY("def f(a):\n    return a", "f()", "error: f() missing required argument 'a'");
    // Classes as namespaces, and static methods.
    CHECK_PY("class C:\n    X = 4\n    @staticmethod\n    def twice(v):\n        return 2 * v",
             "C.twice(C.X)", "8");
}

TEST(front_eval_fstrings_in_asserts)
{
    CHECK_PY("x = 3", "f'x={x}, r={\"s\"!r}, {x * 2}'", "'x=3, r='s', 6'");
    CHECK_PY("", "f'{3.14159:.2f}|{7:4d}|{\"ab\":>4}|{255:x}'", "'3.14|   7|  ab|ff'");
    result_t r =
        compile_text("import tilelang\nimport tilelang.language as T\n\n@tilelang.jit\n"
                     "def f(M=100, block=64):\n"
                     "    assert M % block == 0, f\"M={M} is not a multiple of block={block}\"\n"
                     "    return None\n");
    CHECK_EQ(r.status, TL_ERR_COMPILE);
    CHECK_CONTAINS(r.diag,
                   "t.py:6:5: error: assertion failed: M=100 is not a multiple of block=64");
    result_free(&r);
}

TEST(front_eval_module_level_tolerance)
{
    // Driver code that needs torch fails quietly; the kernel does not need it.
    IR_OF(r,
          "import tilelang\nimport tilelang.language as T\nimport torch\n\n"
          "x = torch.randn(4, 4).npu()\nscale = x.sum().item() * 2\nSIZE = 64\n\n"
          "@T.prim_func\ndef main(A: T.Tensor((SIZE,), \"float32\")):\n"
          "    with T.Kernel(SIZE // 32, is_npu=True) as (cid, vid):\n        T.barrier_all()\n\n"
          "if __name__ == \"__main__\":\n    out = main(x)\n    print(out)\n");
    CHECK_CONTAINS(r.ir, "grid 2 (cid, vid)");
    result_free(&r);
    // A kernel that does need the torch value gets an error naming it.
    result_t e =
        compile_text("import tilelang\nimport tilelang.language as T\nimport torch\n\n"
                     "N = torch.randn(4).shape[0]\n\n@T.prim_func\n"
                     "def main(A: T.Tensor((N,), \"float32\")):\n"
                     "    with T.Kernel(1, is_npu=True) as (cid, vid):\n        T.barrier_all()\n");
    CHECK_EQ(e.status, TL_ERR_COMPILE);
    CHECK_CONTAINS(e.diag, "'torch.randn(...).shape[...]' is computed by code tilec does not run");
    result_free(&e);
    // -a replaces such a module-level name.
    tl_front_arg_t args[] = {{"N", "48"}};
    tl_front_opts_t opts = {.nargs = 1, .args = args};
    result_t a =
        compile_file("t.py",
                     "import tilelang\nimport tilelang.language as T\nimport torch\n\n"
                     "N = torch.randn(4).shape[0]\n\n@T.prim_func\n"
                     "def main(A: T.Tensor((N,), \"float32\")):\n"
                     "    with T.Kernel(1, is_npu=True) as (cid, vid):\n        T.barrier_all()\n",
                     &opts);
    CHECK_EQ(a.status, TL_OK);
    CHECK_CONTAINS(a.ir, "A: in float32[48]");
    result_free(&a);
}

TEST(front_eval_main_block_and_argparse_give_defaults)
{
    // The first call in `if __name__ == "__main__":` gives the factory its arguments;
    // argparse results are the declared defaults.
    IR_OF(r, "import argparse\nimport tilelang\nimport tilelang.language as T\n\n"
             "@tilelang.jit(out_idx=[-1])\ndef add(N, block):\n    @T.prim_func\n"
             "    def main(A: T.Tensor((N,), \"float16\"), B: T.Tensor((N,), \"float16\")):\n"
             "        with T.Kernel(N // block, is_npu=True) as (cid, vid):\n"
             "            a = T.alloc_ub((block,), \"float16\")\n"
             "            T.copy(A[cid * block], a)\n            T.copy(a, B[cid * block])\n\n"
             "    return main\n\nif __name__ == \"__main__\":\n"
             "    p = argparse.ArgumentParser()\n    p.add_argument(\"--n\", type=int, "
             "default=\"512\")\n"
             "    args = p.parse_args()\n    k = add(args.n, block=128)\n");
    CHECK_CONTAINS(r.ir, "A: in float16[512]");
    CHECK_CONTAINS(r.ir, "grid 4 (cid, vid)");
    CHECK_CONTAINS(r.ir, "a: UB float16[128]");
    result_free(&r);
}

TEST(front_eval_builder_arguments_from_tests)
{
    // A pytest file: the builder's arguments come from the first parametrized
    // test that calls it, its out_idx and pass_configs from tilelang.compile.
    const char *text =
        "import pytest\nimport torch\nimport tilelang\nimport tilelang.language as T\n\n"
        "def scale(N, block, factor):\n    @T.prim_func\n"
        "    def main(A: T.Tensor((N,), \"float32\"), B: T.Tensor((N,), \"float32\")):\n"
        "        with T.Kernel(N // block, is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_ub((block,), \"float32\")\n            T.copy(A[cid * block], a)\n"
        "            T.tile.mul(a, a, factor)\n            T.copy(a, B[cid * block])\n    return "
        "main\n\n"
        "def run(N, block, factor, target):\n    func = scale(N, block, factor)\n"
        "    kernel = tilelang.compile(func, out_idx=[-1], target=target,\n"
        "                              pass_configs={\"tl.ascend_auto_sync\": True})\n"
        "    b = kernel(torch.randn(N).npu())\n    torch.testing.assert_close(b, b)\n\n"
        "@pytest.fixture\ndef seed():\n    torch.manual_seed(0)\n\n"
        "@pytest.mark.skipif(False, reason=\"never\")\n"
        "@pytest.mark.parametrize(\"N, block\", [(256, 64), (512, 128)])\n"
        "@pytest.mark.parametrize(\"target\", [\"pto\", \"ascendc\"])\n"
        "def test_scale(seed, N, block, target, factor=3.0):\n    run(N, block, factor, target)\n\n"
        "if __name__ == \"__main__\":\n    pytest.main([__file__])\n";
    result_t r = compile_file("test_scale.py", text, NULL);
    REQUIRE(r.status == TL_OK);
    CHECK_CONTAINS(r.ir, "A: in float32[256],\n  B: out float32[256],\n");
    CHECK_CONTAINS(r.ir, "grid 4 (cid, vid)");
    CHECK_CONTAINS(r.ir, "config auto_sync target=pto\n");
    CHECK_CONTAINS(r.ir, "mul a, a, 3.0");
    result_free(&r);
    // The first call of a builder in the __main__ block, with constants.
    const char *main_text =
        "import tilelang\nimport tilelang.language as T\n\n"
        "def build(N):\n    @T.prim_func\n    def main(A: T.Tensor((N,), \"float32\")):\n"
        "        with T.Kernel(N // 32, is_npu=True) as (cid, vid):\n            T.barrier_all()\n "
        "   return main\n\n"
        "if __name__ == \"__main__\":\n    kernel = tilelang.compile(build(96), out_idx=[0])\n";
    result_t m = compile_file("t.py", main_text, NULL);
    REQUIRE(m.status == TL_OK);
    CHECK_CONTAINS(m.ir, "A: out float32[96]");
    CHECK_CONTAINS(m.ir, "grid 3 (cid, vid)");
    result_free(&m);
}

// --- macros, helpers, function values -------------------------------------------------------

static const char *UB_KERNEL_HEAD =
    "@tilelang.jit(out_idx=[-1])\ndef k(N=64, op=None):\n    @T.prim_func\n"
    "    def main(A: T.Tensor((N,), \"float32\"), B: T.Tensor((N,), \"float32\")):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub((N,), \"float32\")\n"
    "            b = T.alloc_ub((N,), \"float32\")\n";

static char *kernel_text(const char *prelude, const char *body)
{
    tl_buf_t b;
    tl_buf_init(&b);
    tl_buf_printf(&b, "%s%s\n\n%s", HEAD, prelude, UB_KERNEL_HEAD);
    for (const char *l = body; *l;) {
        size_t n = strcspn(l, "\n");
        tl_buf_printf(&b, "            %.*s\n", (int)n, l);
        l += n + (l[n] == '\n');
    }
    tl_buf_puts(&b, "\n    return main\n");
    char *s = strdup(tl_buf_cstr(&b));
    tl_buf_free(&b);
    return s;
}

// The IR of kernel_text(prelude, body); a compile failure fails the test.
static result_t kernel_ir(tl_test_t *t, const char *prelude, const char *body)
{
    char *text = kernel_text(prelude, body);
    result_t r = compile_text(text);
    if (r.status != TL_OK) tl_test_fail(t, __FILE__, __LINE__, "compile failed:\n%s", r.diag);
    free(text);
    return r;
}

TEST(front_eval_macro_expansion)
{
    result_t r =
        kernel_ir(t,
                  "@T.macro\ndef scale_into(dst, src, s):\n    T.tile.mul(dst, src, s)\n"
                  "    T.tile.add(dst, dst, 1.0)\n",
                  "T.copy(A, a)\nscale_into(b, a, 2.0)\nscale_into(a, b, 0.5)\nT.copy(a, B)");
    CHECK_CONTAINS(
        r.ir, "  copy A, a\n  mul b, a, 2.0\n  add b, b, 1.0\n  mul a, b, 0.5\n  add a, a, 1.0\n"
              "  copy a, B\n");
    result_free(&r);
}

TEST(front_eval_macro_from_sibling_module)
{
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s", tl_test_tmp("front_eval_macro_mod"));
    snprintf(path, sizeof path, "mkdir -p %s", dir);
    REQUIRE(system(path) == 0);
    snprintf(path, sizeof path, "%s/helpers.py", dir);
    const char *helpers =
        "import tilelang.language as T\n\nEPS = 1e-6\n\n@T.macro\ndef add_eps(buf):\n"
        "    T.tile.add(buf, buf, EPS)\n";
    REQUIRE(tl_test_write_file(path, helpers, strlen(helpers)));
    char *text = kernel_text("from helpers import add_eps\nimport helpers as H",
                             "T.copy(A, a)\nadd_eps(a)\n"
                             "T.tile.mul(a, a, H.EPS)\nT.copy(a, B)");
    snprintf(path, sizeof path, "%s/kernel.py", dir);
    REQUIRE(tl_test_write_file(path, text, strlen(text)));
    result_t r = compile_file(path, NULL, NULL);
    CHECK_EQ(r.status, TL_OK);
    CHECK_CONTAINS(r.ir, "  add a, a, 1e-06\n  mul a, a, 1e-06\n");
    result_free(&r);
    free(text);
}

TEST(front_eval_function_values)
{
    // `op = T.exp` then op(x): the function value is called while tracing.
    char *text =
        kernel_text("", "T.copy(A, a)\nop = T.exp\nfor i in T.serial(N):\n    b[i] = op(a[i])\n"
                        "T.copy(b, B)");
    IR_OF(r, text);
    CHECK_CONTAINS(r.ir, "b[i] = exp(a[i])");
    result_free(&r);
    free(text);
    // A lambda given with -a.
    text = kernel_text(
        "", "T.copy(A, a)\nfor i in T.serial(N):\n    b[i] = op(a[i], 3.0)\nT.copy(b, B)");
    tl_front_arg_t args[] = {{"op", "lambda x, y: x * y + 1"}, {"N", "32"}};
    tl_front_opts_t opts = {.nargs = 2, .args = args};
    result_t l = compile_file("t.py", text, &opts);
    CHECK_EQ(l.status, TL_OK);
    CHECK_CONTAINS(l.ir, "b[i] = a[i] * 3.0 + 1.0");
    CHECK_CONTAINS(l.ir, "A: in float32[32]");
    result_free(&l);
    free(text);
}

// --- tracing ------------------------------------------------------------------------------

TEST(front_trace_c_division_on_ir_values)
{
    // Python ints fold with floor semantics; IR values keep C truncation.
    result_t r = kernel_ir(
        t, "",
        "T.printf(\"%d %d %d %d\", T.int32(-7) // 2, T.int32(-7) % 2, cid // 2, cid % 2)\n"
        "T.printf(\"%d %d\", -7 // 2, -7 % 2)");
    CHECK_CONTAINS(r.ir, "print \"%d %d %d %d\", -3, -1, cid / 2, cid % 2");
    CHECK_CONTAINS(r.ir, "print \"%d %d\", -4, 1");
    result_free(&r);
}

TEST(front_trace_lets_only_for_buffer_reads)
{
    result_t r = kernel_ir(t, "", "row = cid * 8 + 1\nx = a[row]\nb[row] = x + row");
    CHECK_CONTAINS(r.ir, "let x: float32 = a[cid * 8 + 1]\n");
    CHECK_CONTAINS(r.ir, "b[cid * 8 + 1] = x + (cid * 8 + 1)");
    CHECK(!strstr(r.ir, "let row"));
    result_free(&r);
}

TEST(front_trace_alloc_var_stores)
{
    result_t r =
        kernel_ir(t, "",
                  "n = T.alloc_var(\"int32\", init=2)\nm = T.alloc_var(\"int32\", init=cid)\n"
                  "n = n + m\nn += 1\nb[0] = n\nf = T.alloc_var(\"bool\", init=False)\n"
                  "f = n > 3\nif f:\n    b[1] = 1.0");
    CHECK_CONTAINS(r.ir, "  n: var int32[1] = 2\n");
    CHECK_CONTAINS(r.ir, "  f: var bool[1] = False\n");
    // A constant initial value is the declaration's; another is a store where it is made.
    CHECK_CONTAINS(r.ir, "body\n  m = cid\n");
    // Assignments store, reads load (also as a condition).
    CHECK_CONTAINS(r.ir, "  n = n[0] + m[0]\n  n = n[0] + 1\n  b[0] = cast<float32>(n[0])\n");
    CHECK_CONTAINS(r.ir, "  f = n[0] > 3\n  if f[0]:\n    b[1] = 1.0\n");
    result_free(&r);
}

TEST(front_trace_if_frames)
{
    result_t r = kernel_ir(t, "",
                           "with T.If(cid == 0):\n    with T.Then():\n        T.tile.fill(a, 1.0)\n"
                           "    with T.Else():\n        T.tile.fill(a, 2.0)\n"
                           "if vid > 0:\n    T.tile.fill(b, 3.0)\nelse:\n    T.tile.fill(b, 4.0)");
    CHECK_CONTAINS(r.ir, "  if cid == 0:\n    fill a, 1.0\n  else:\n    fill a, 2.0\n");
    CHECK_CONTAINS(r.ir, "  if vid > 0:\n    fill b, 3.0\n  else:\n    fill b, 4.0\n");
    result_free(&r);
}

TEST(front_trace_loop_variables_are_scoped)
{
    // After an inner loop reuses `i`, `i` is the outer loop's again (TVMScript scoping).
    result_t r =
        kernel_ir(t, "",
                  "for i in T.serial(2):\n    for i in T.Parallel(4):\n        a[i] = 0.0\n"
                  "    b[i] = 1.0\nt = 5\nfor j in T.serial(2):\n    t = j\nb[t] = 2.0");
    CHECK_CONTAINS(r.ir, "    for i_1 in parallel(0, 4):\n      a[i_1] = 0.0\n    b[i] = 1.0\n");
    CHECK_CONTAINS(r.ir, "  b[5] = 2.0\n");
    result_free(&r);
}

TEST(front_trace_persistent)
{
    result_t r = kernel_ir(
        t, "", "for bx, by in T.Persistent([4, 6], 5, cid, 2):\n    b[bx * 6 + by] = 1.0");
    // waves = ceil(24 / 5); t = w * 5 + cid; grouped domain [6 / 2, 4, 2], last digit fastest.
    CHECK_CONTAINS(r.ir, "  for w in serial(0, 5):\n    if 24 <= w * 5 + cid:\n      break\n");
    CHECK_CONTAINS(
        r.ir,
        "b[(w * 5 + cid) / 2 % 4 * 6 + ((w * 5 + cid) / 2 / 4 * 2 + (w * 5 + cid) % 2)] = 1.0");
    result_free(&r);
}

TEST(front_trace_copy_extent_inference)
{
    IR_OF(r,
          "import tilelang\nimport tilelang.language as T\n\n@T.prim_func\n"
          "def main(A: T.Tensor((4, 64, 128), \"float16\"), C: T.Tensor((64, 128), \"float16\")):\n"
          "    with T.Kernel(2, is_npu=True) as (cid, vid):\n"
          "        u = T.alloc_ub((16, 32), \"float16\")\n        v = T.alloc_ub((32,), "
          "\"float16\")\n"
          "        T.copy(A[cid, 16, 32], u)\n        T.copy(u, C[cid * 16, 0])\n"
          "        T.copy(A[1, cid, 0:32], v)\n        T.copy(v, C[3, 64])\n");
    // A point with more indices than the other side: leading extents are 1.
    CHECK_CONTAINS(r.ir, "copy A[cid +: 1, 16 +: 16, 32 +: 32], u\n");
    CHECK_CONTAINS(r.ir, "copy u, C[cid * 16 +: 16, 0 +: 32]\n");
    // A point with as many indices: the trailing extents of the other side, 1s in front.
    CHECK_CONTAINS(r.ir, "copy A[1, cid, 0 +: 32], v\n");
    CHECK_CONTAINS(r.ir, "copy v, C[3 +: 1, 64 +: 32]\n");
    result_free(&r);
}

TEST(front_trace_symbolic_dims)
{
    IR_OF(
        r,
        "import tilelang\nimport tilelang.language as T\n\n@tilelang.jit(out_idx=[-1])\n"
        "def k(block=32):\n    M = T.symbolic(\"M\")\n    N = T.symbolic(\"N\")\n    @T.prim_func\n"
        "    def main(A: T.Tensor((M, N), \"float32\"), B: T.Tensor((M, N), \"float32\")):\n"
        "        with T.Kernel(T.ceildiv(M, block), is_npu=True) as (cid, vid):\n"
        "            a = T.alloc_ub((block, 64), \"float32\")\n"
        "            for j in T.serial(N // 64):\n"
        "                T.copy(A[cid * block, j * 64], a)\n"
        "                T.copy(a, B[cid * block, j * 64])\n\n    return main\n");
    CHECK_CONTAINS(r.ir, "A: in float32[M, N]");
    CHECK_CONTAINS(r.ir, "dims M, N\n");
    CHECK_CONTAINS(r.ir, "grid (M + 31) / 32 (cid, vid)");
    CHECK_CONTAINS(r.ir, "for j in serial(0, N / 64):");
    result_free(&r);
}

// --- driver code: the machine it asks about, values tilec does not compute -------------------

static const char *NPU_KERNEL =
    "import tilelang\nimport tilelang.language as T\nimport torch\nimport torch_npu\n\n"
    "def cores():\n    try:\n        return torch_npu.npu.get_device_properties(0).cube_core_num\n"
    "    except Exception:\n        return 20\n\n"
    "@tilelang.jit\ndef k(N=4096):\n    n = cores()\n    vec = torch.npu.get_device_properties(\n"
    "        torch.npu.current_device()).vector_core_num\n    assert torch.npu.is_available()\n"
    "    @T.prim_func\n    def main(A: T.Tensor((N,), \"float32\")):\n"
    "        with T.Kernel(n + vec // 1000, is_npu=True) as (cid, vid):\n            "
    "T.barrier_all()\n\n"
    "    return main\n";

TEST(front_driver_npu_properties_are_the_chip)
{
    // The chip of the compile (the tool and the API fill it from the arch table).
    tl_front_chip_t chip = {"Ascend910B2", 24, 48};
    tl_front_opts_t opts = {.chip = &chip};
    result_t r = compile_file("t.py", NPU_KERNEL, &opts);
    CHECK_EQ(r.status, TL_OK);
    if (r.ir) CHECK_CONTAINS(r.ir, "grid 24 (cid, vid)");
    CHECK_CONTAINS(
        r.diag,
        "describes the chip tilec compiles for: Ascend910B2 with 24 cube and 48 vector cores");
    result_free(&r);
    // Without a chip torch.npu is an opaque stand-in, whose answers a factory cannot use.
    result_t s = compile_file("t.py", NPU_KERNEL, NULL);
    CHECK_EQ(s.status, TL_ERR_COMPILE);
    CHECK_CONTAINS(s.diag, "'torch_npu.npu.get_device_properties(...).cube_core_num' is computed by code tilec "
                           "does not run");
    result_free(&s);
}

TEST(front_driver_environment_starts_empty)
{
    CHECK_PY("import os", "os.environ.get('HOME', 'unset')", "'unset'");
    CHECK_PY("import os", "os.getenv('PATH')", "None");
    CHECK_PY("import os\nos.environ['MODE'] = 'Dev'", "os.environ.get('MODE')", "'Dev'");
    CHECK_PY("import os\nos.environ.setdefault('A', '3')", "int(os.getenv('A', '1')) + 1", "4");
    CHECK_PY("import os", "'X' in os.environ", "False");
}

TEST(front_driver_arithmetic_on_opaque_values)
{
    // Unknown values stay unknown through arithmetic and conversions; the driver
    // function goes on, so the call after them supplies the factory's arguments.
    IR_OF(r,
          "import math\nimport tilelang\nimport tilelang.language as T\nimport torch\n\n"
          "@tilelang.jit\ndef k(N, block=64):\n    @T.prim_func\n"
          "    def main(A: T.Tensor((N,), \"float32\")):\n"
          "        with T.Kernel(N // block, is_npu=True) as (cid, vid):\n            "
          "T.barrier_all()\n\n"
          "    return main\n\n"
          "def run(x):\n    n = -x.shape[0] * 2 + 1\n    s = float(x.max().item()) / 3\n"
          "    m = max(int(math.ceil(n / 64)), 4, abs(round(s)))\n    return k(512, block=128)\n\n"
          "if __name__ == \"__main__\":\n    run(torch.randn(8))\n");
    CHECK_CONTAINS(r.ir, "grid 4 (cid, vid)");
    result_free(&r);
    // A decision on an unknown value: tilec takes neither branch (it cannot tell which
    // Python takes), so the call inside does not run; the error that follows says where.
    result_t e = compile_text(
        "import tilelang\nimport tilelang.language as T\nimport torch\n\n"
        "@tilelang.jit\ndef k(N):\n    @T.prim_func\n"
        "    def main(A: T.Tensor((N,), \"float32\")):\n"
        "        with T.Kernel(1, is_npu=True) as (cid, vid):\n            T.barrier_all()\n\n"
        "    return main\n\n"
        "if __name__ == \"__main__\":\n    x = torch.randn(8)\n"
        "    if x.sum() > 0:\n        k(64)\n");
    CHECK_EQ(e.status, TL_ERR_COMPILE);
    CHECK_CONTAINS(e.diag, "k() missing required argument 'N'");
    CHECK_CONTAINS(e.diag,
                   "t.py:16:5: note: tilec took neither branch of this driver code (its condition "
                   "'torch.randn(...).sum(...)' is computed by code tilec does not run), so a call inside "
                   "it did not run");
    result_free(&e);
}

// isinstance: of a value tilec does not run (a torch tensor) the answer is
// unknown, not False: a driver that checks its input's type before calling
// the kernel goes on (the branch that raises is not taken). Instances of the
// file's own classes are told apart.
TEST(front_driver_isinstance)
{
    IR_OF(r,
          "import tilelang\nimport tilelang.language as T\nimport torch\n\n"
          "@tilelang.jit\ndef k(N):\n    @T.prim_func\n"
          "    def main(A: T.Tensor((N,), \"float32\")):\n"
          "        with T.Kernel(N // 64, is_npu=True) as (cid, vid):\n            T.barrier_all()\n\n"
          "    return main\n\n"
          "def run(x):\n    if not isinstance(x, torch.Tensor):\n        raise TypeError(\"x\")\n"
          "    return k(256)\n\n"
          "if __name__ == \"__main__\":\n    run(torch.randn(8))\n");
    CHECK_CONTAINS(r.ir, "grid 4 (cid, vid)");
    result_free(&r);
    CHECK_PY("class A:\n    pass\nclass B:\n    pass\na = A()",
             "[isinstance(a, A), isinstance(a, B), isinstance(a, (B, A))]", "[True, False, True]");
    CHECK_PY("import torch",
             "[isinstance(3, int), isinstance('s', torch.Tensor), isinstance([1], (list, tuple))]",
             "[True, False, True]");
}

// The statement bound is an option (the front-end fuzzer runs with a smaller
// one, so that no input runs for seconds): the same loop stops at the given
// bound with the located error, and runs through with the default.
TEST(front_eval_max_steps_option)
{
    const char *text = "import tilelang\nimport tilelang.language as T\n\n"
                       "@tilelang.jit\ndef f(N=4):\n    x = 0\n    for i in range(3000):\n"
                       "        x += 1\n\n    @T.prim_func\n"
                       "    def main(A: T.Tensor((N,), \"float32\")):\n"
                       "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
                       "            T.printf(repr(x))\n\n    return main\n";
    tl_front_opts_t small = {.max_steps = 1000};
    result_t r = compile_file("t.py", text, &small);
    CHECK(r.status != TL_OK);
    CHECK_CONTAINS(r.diag, "t.py:8:9: error: compile-time evaluation ran more than 1000 statements");
    result_free(&r);
    r = compile_file("t.py", text, NULL);
    CHECK_EQ(r.status, TL_OK);
    CHECK_CONTAINS(r.ir ? r.ir : r.diag, "3000");
    result_free(&r);
}
