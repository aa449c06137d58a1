// Generated C against the reference executor on kernels written for the
// corners of the scalar semantics (integer wrap, truncating and floor
// division, shifts, saturating float -> int casts, 16-bit float rounding
// after every op, select, NaN comparisons, bit reinterpretation), expert
// kernels whose agents hand data both ways through cross-core flags (run as
// coroutines), a deadlock, and run-time errors with their messages.
#include "../test.h"

#include <math.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "exec/exec.h"
#include "driver/compile.h"

static const char *exprs_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[2, 3])\n"
    "def exprs(N):\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((N,), 'int32'), F: T.Tensor((N,), 'float32'),\n"
    "             OI: T.Tensor((N, 12), 'int32'), OF: T.Tensor((N, 8), 'float32')):\n"
    "        with T.Kernel(2, is_npu=True) as (cid, vid):\n"
    "            with T.Scope('V'):\n"
    "                for i in T.serial(cid * vid, N, 2):\n"
    "                    a = A[i]\n"
    "                    b = A[(i * 7 + 3) % N]\n"
    "                    f = F[i]\n"
    "                    OI[i, 0] = a // (b | 1)\n"
    "                    OI[i, 1] = a % (b | 1)\n"
    "                    OI[i, 2] = T.Cast('int8', a * 77)\n"
    "                    OI[i, 3] = T.Cast('int32', f * 1e9)\n"
    "                    OI[i, 4] = (a << 3) >> 2\n"
    "                    OI[i, 5] = T.max(a, b) - T.min(a, b)\n"
    "                    OI[i, 6] = T.if_then_else(f > 0.5, a, b)\n"
    "                    OI[i, 7] = T.Cast('int32', T.Cast('float16', f) * T.Cast('float16', "
    "1000.0))\n"
    "                    OI[i, 8] = T.floordiv(a, 7) + T.floormod(a, 7)\n"
    "                    OI[i, 9] = T.reinterpret('int32', f)\n"
    "                    OI[i, 10] = T.Cast('uint8', a) * T.Cast('int16', b)\n"
    "                    OI[i, 11] = T.Cast('int32', f != f) + T.Cast('int32', f < 1e30)\n"
    "                    OF[i, 0] = T.exp(f * 0.01)\n"
    "                    OF[i, 1] = T.Cast('bfloat16', f) * T.Cast('bfloat16', 3.3) + "
    "T.Cast('bfloat16', 0.1)\n"
    "                    OF[i, 2] = T.sqrt(T.abs(f)) / 3.0\n"
    "                    OF[i, 3] = T.Cast('float32', a) * 0.5 - T.floor(f)\n"
    "                    OF[i, 4] = T.sigmoid(f)\n"
    "                    OF[i, 5] = T.Cast('float16', f) / T.Cast('float16', 7.0)\n"
    "                    OF[i, 6] = T.pow(T.abs(f) + 1.0, 0.5)\n"
    "                    OF[i, 7] = T.Cast('float32', T.Cast('int16', f))\n"
    "\n"
    "    return main\n";

// AIC -> AIV -> AIC -> AIV through flags in both directions: the AIC waits
// for the vector cores' partial sums before it writes the result.
static const char *pingpong_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1], workspace_idx=[2])\n"
    "def pingpong(N):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((N,), 'float32'), Y: T.Tensor((N,), 'float32'),\n"
    "             W: T.Tensor((4, N), 'float32')):\n"
    "        with T.Kernel(3, is_npu=True) as (cid, vid):\n"
    "            x = T.alloc_ub((N,), 'float32')\n"
    "            with T.Scope('C'):\n"
    "                for r in T.serial(3):\n"
    "                    T.set_cross_flag('FIX', 0)\n"
    "                    T.wait_cross_flag(1)\n"
    "            with T.Scope('V'):\n"
    "                T.copy(X[0:N], x)\n"
    "                for r in T.serial(3):\n"
    "                    T.wait_cross_flag(0)\n"
    "                    T.tile.add(x, x, 1.0)\n"
    "                    T.set_cross_flag('MTE3', 1)\n"
    "                if vid == 0:\n"
    "                    T.copy(x, Y[0:N])\n"
    "\n"
    "    return main\n";

static const char *deadlock_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1])\n"
    "def stuck(N):\n"
    "    @T.prim_func\n"
    "    def main(X: T.Tensor((N,), 'float32'), Y: T.Tensor((N,), 'float32')):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            x = T.alloc_ub((N,), 'float32')\n"
    "            with T.Scope('V'):\n"
    "                T.wait_cross_flag(3)\n"
    "                T.copy(X[0:N], x)\n"
    "                T.copy(x, Y[0:N])\n"
    "\n"
    "    return main\n";

static const char *errors_src =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[1])\n"
    "def errs(N, what):\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((N,), 'int32'), B: T.Tensor((N,), 'int32')):\n"
    "        with T.Kernel(4, is_npu=True) as (cid, vid):\n"
    "            with T.Scope('V'):\n"
    "                for i in T.serial(N):\n"
    "                    if what == 0:\n"
    "                        B[i + cid] = A[i]\n"
    "                    else:\n"
    "                        B[i] = A[i] // (A[i] - A[i])\n"
    "\n"
    "    return main\n";

typedef struct {
    tl_arena_t arena;
    tl_diag_t d;
    tl_kernel_t *k;
} kern_t;

static bool compile(kern_t *e, const char *text, int nargs, tl_front_arg_t *args)
{
    tl_arena_init(&e->arena);
    tl_diag_init(&e->d);
    tl_compile_opts_t o = {.path = "k.py",
                           .source = text,
                           .front = {.nargs = nargs, .args = args},
                           .pipeline = TL_PIPELINE_CPU};
    setenv("TILEC_CACHE_DIR", tl_test_tmp("cache"), 0);
    return !tl_compile(&e->arena, &o, &e->d, &e->k);
}

static void done(kern_t *e)
{
    tl_diag_free(&e->d);
    tl_arena_free(&e->arena);
}

static tl_tensor_t *vec(tl_dtype_t t, int64_t n, double (*f)(int64_t))
{
    tl_tensor_t *x;
    tl_tensor_create(&x, t, 1, &n, NULL);
    for (int64_t i = 0; i < n; i++) tl_tensor_set_flat(x, (size_t)i, f(i));
    return x;
}

static double ints(int64_t i)
{
    return (double)(int32_t)((uint32_t)(i * 2654435761u) >> (i % 13)) * (i % 3 ? 1 : -1);
}

static double floats(int64_t i)
{
    static const double sp[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 3e9, -3e9, 0.5, 1e-40};
    if (i % 5 == 2) return sp[(i / 5) % 9];
    return ((double)((i * 40503) % 2001) - 1000.0) / 9.7;
}

TEST(cpu_codegen_scalar_semantics_match_the_reference)
{
    kern_t e;
    tl_front_arg_t args[] = {{"N", "90"}};
    REQUIRE(compile(&e, exprs_src, 1, args));
    tl_tensor_t *a = vec(TL_I32, 90, ints), *f = vec(TL_F32, 90, floats);
    tl_exec_opts_t eo = {0};
    tl_exec_t *x;
    REQUIRE(tl_exec_create(&x, e.k, &eo, &e.d) == TL_OK);
    tl_exec_set_tensor(x, "A", a);
    tl_exec_set_tensor(x, "F", f);
    REQUIRE(tl_exec_run(x) == TL_OK);
    tl_cpu_t *c;
    REQUIRE(tl_cpu_create(&c, e.k, NULL, &e.d) == TL_OK);
    tl_bind_set_tensor(tl_cpu_args(c), "A", a);
    tl_bind_set_tensor(tl_cpu_args(c), "F", f);
    REQUIRE(tl_cpu_run(c) == TL_OK);
    static const char *outs[] = {"OI", "OF"};
    for (int o = 0; o < 2; o++) {
        tl_tensor_t *want = tl_exec_tensor(x, outs[o]), *got = tl_bind_tensor(tl_cpu_args(c), outs[o]);
        REQUIRE(want && got);
        size_t n = tl_tensor_numel(want);
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t u, v;
            memcpy(&u, (uint8_t *)want->data + 4 * i, 4);
            memcpy(&v, (uint8_t *)got->data + 4 * i, 4);
            bool nan =
                o == 1 && isnan(tl_tensor_get_flat(want, i)) && isnan(tl_tensor_get_flat(got, i));
            if (u != v && !nan && bad++ < 5)
                tl_test_fail(t, __FILE__, __LINE__, "%s[%zu, %zu]: cpu %08x, reference %08x",
                             outs[o], i / (o ? 8 : 12), i % (o ? 8 : 12), v, u);
        }
        CHECK_EQ(bad, 0);
    }
    CHECK_EQ(e.d.nerrors, 0);
    tl_cpu_destroy(c);
    tl_exec_destroy(x);
    tl_tensor_destroy(a);
    tl_tensor_destroy(f);
    done(&e);
}

TEST(cpu_codegen_flags_both_ways_as_coroutines)
{
    kern_t e;
    tl_front_arg_t args[] = {{"N", "40"}};
    REQUIRE(compile(&e, pingpong_src, 1, args));
    tl_tensor_t *x = vec(TL_F32, 40, floats);
    for (int j = 1; j <= 2; j++) {
        tl_cpu_opts_t o = {.threads = j};
        tl_cpu_t *c;
        REQUIRE(tl_cpu_create(&c, e.k, &o, &e.d) == TL_OK);
        tl_bind_set_tensor(tl_cpu_args(c), "X", x);
        REQUIRE(tl_cpu_run(c) == TL_OK);
        tl_tensor_t *y = tl_bind_tensor(tl_cpu_args(c), "Y");
        int bad = 0;
        for (int i = 0; i < 40; i++) {
            float want = (float)floats(i) + 1.0f + 1.0f + 1.0f;
            float got = ((float *)y->data)[i];
            bad += !(got == want || (isnan(got) && isnan(want)));
        }
        CHECK_EQ(bad, 0);
        tl_cpu_destroy(c);
    }
    CHECK_EQ(e.d.nerrors, 0);
    tl_tensor_destroy(x);
    done(&e);
}

TEST(cpu_codegen_deadlock_is_reported)
{
    kern_t e;
    tl_front_arg_t args[] = {{"N", "8"}};
    REQUIRE(compile(&e, deadlock_src, 1, args));
    tl_tensor_t *x = vec(TL_F32, 8, floats);
    tl_cpu_t *c;
    REQUIRE(tl_cpu_create(&c, e.k, NULL, &e.d) == TL_OK);
    tl_bind_set_tensor(tl_cpu_args(c), "X", x);
    CHECK(tl_cpu_run(c) == TL_ERR_RUNTIME);
    CHECK_CONTAINS(tl_diag_text(&e.d), "deadlock: every unfinished agent is blocked");
    CHECK_CONTAINS(tl_diag_text(&e.d), "waits for cross-core flag 3");
    tl_cpu_destroy(c);
    tl_tensor_destroy(x);
    done(&e);
}

TEST(cpu_codegen_runtime_errors)
{
    static const char *what[] = {"0", "1"};
    static const char *msg[] = {"index [8] is out of bounds for 'B' of shape [8]",
                                "integer division by zero"};
    for (int w = 0; w < 2; w++) {
        kern_t e;
        tl_front_arg_t args[] = {{"N", "8"}, {"what", what[w]}};
        REQUIRE(compile(&e, errors_src, 2, args));
        tl_tensor_t *a = vec(TL_I32, 8, ints);
        tl_cpu_t *c;
        REQUIRE(tl_cpu_create(&c, e.k, NULL, &e.d) == TL_OK);
        tl_bind_set_tensor(tl_cpu_args(c), "A", a);
        CHECK(tl_cpu_run(c) == TL_ERR_RUNTIME);
        CHECK_CONTAINS(tl_diag_text(&e.d), msg[w]);
        CHECK_CONTAINS(tl_diag_text(&e.d), w ? "[block 0 AIV0]" : "[block 1 AIV0]");
        CHECK_EQ(e.d.nerrors, 1);
        tl_cpu_destroy(c);
        tl_tensor_destroy(a);
        done(&e);
    }
}
