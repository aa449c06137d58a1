// T.Parallel lowering: the vector ops chosen for each body form, scalar
// fallbacks with their notes, and results identical bit for bit to the scalar
// loop on the executor.
#include "../test.h"

#include "test_pass_util.h"

static const pk_pass_fn par_only[] = {tl_pass_parallel, NULL};

// A vector kernel over [M, N] tiles: UB a, b (from A, B), r[M], c[N], the body
// writes o (M x W, W >= N) which is stored to O.
static const char *kernel_fmt =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "CFG = {tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True}\n"
    "@tilelang.jit(out_idx=[4], pass_configs=CFG)\n"
    "def k(M=16, N=64, W=64, dt='%s'):\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor((M, N), dt), B: T.Tensor((M, N), dt), R: T.Tensor((M,), dt),\n"
    "             C: T.Tensor((N,), dt), O: T.Tensor((M, W), dt)):\n"
    "        with T.Kernel(1, is_npu=True) as (cid, vid):\n"
    "            a = T.alloc_ub((M, N), dt)\n"
    "            b = T.alloc_ub((M, N), dt)\n"
    "            r = T.alloc_ub((M,), dt)\n"
    "            c = T.alloc_ub((N,), dt)\n"
    "            o = T.alloc_ub((M, W), dt)\n"
    "            rt = T.alloc_ub((1, M), dt)\n"
    "            with T.Scope('V'):\n"
    "                T.copy(A, a)\n"
    "                T.copy(B, b)\n"
    "                T.copy(R, r)\n"
    "                T.copy(C, c)\n"
    "                T.copy(R, rt)\n"
    "                T.tile.fill(o, 0)\n"
    "%s"
    "                T.copy(o, O)\n"
    "    return main\n";

typedef struct {
    const char *dtype;
    const char *body;    // statements at 16 spaces of indentation
    const char *want;    // text the IR after the pass must contain ("" for none)
    const char *note;    // the fallback note, or NULL when it must vectorise
    const char *args[3]; // factory arguments; TL_... entries are pass configs
} pcase_t;

#define NEST "                for i, j in T.Parallel(M, N):\n"
#define S20  "                    "

static const pcase_t cases[] = {
    {"float32",
     NEST S20 "o[i, j] = a[i, j] + b[i, j]\n",
     "add o[:, :], a[:, :], b[:, :]",
     NULL,
     {0}},
    {"float32",
     NEST S20 "o[i, j] = a[i, j] * r[i] + c[j]\n",
     "row_expand_mul o[:, :], a[:, :], r[:]",
     NULL,
     {0}},
    {"float32", NEST S20 "o[i, j] = a[i, j] / r[i]\n", "row_expand_div", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = a[i, j] - r[i]\n", "row_expand_sub", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = a[i, j] / 3.0\n", "fill o_t0, 3.0", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = a[i, j] / 4.0\n", "div o[:, :], a[:, :], 4.0", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = 2.0 - a[i, j]\n", "mul o[:, :], a[:, :], -1.0", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = 1.0 / a[i, j]\n", "reciprocal o[:, :], a[:, :]", NULL, {0}},
    {"float32",
     NEST S20 "o[i, j] = T.exp(a[i, j] - r[i]) * T.sqrt(T.abs(b[i, j]))\n",
     "sqrt",
     NULL,
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.max(a[i, j], 0.0) + T.min(b[i, j], a[i, j])\n",
     "select o[:, :], o_m0, a[:, :], 0.0",
     NULL,
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.rsqrt(T.abs(a[i, j]) + 1.0) * T.log(T.abs(b[i, j]) + 2.0)\n",
     "rsqrt",
     NULL,
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.sigmoid(a[i, j]) - T.sin(b[i, j]) * T.cos(a[i, j])\n",
     "sigmoid",
     NULL,
     {0}},
    // NaN operands (log and sqrt of negative numbers) and a scalar first operand
    {"float32",
     NEST S20 "o[i, j] = T.max(T.log(a[i, j]), b[i, j]) + T.min(T.sqrt(a[i, j]), 1.0)\n",
     "compare",
     NULL,
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.max(0.5, T.log(a[i, j])) - T.min(c[j], T.sqrt(a[i, j]))\n",
     "select",
     NULL,
     {0}},
    {"int32",
     NEST S20 "o[i, j] = T.max(a[i, j], b[i, j]) - T.min(a[i, j], 3)\n",
     "max o[:, :], a[:, :], b[:, :]",
     NULL,
     {0}},
    {"float32", NEST S20 "o[i, j] = r[i] - c[j]\n", "broadcast", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = c[j]\n", "broadcast o[:, :], c[:] [axis=0]", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = 1.5\n", "fill o[:, :], 1.5", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = a[i, j] * b[i, j] + a[i, j] / b[i, j]\n", "o_t0", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = o[i, j] * 2.0 + o[i, j] * a[i, j]\n", "o_t", NULL, {0}},
    {"float32",
     NEST S20 "x = a[i, j] * 2.0\n" S20 "o[i, j] = x + b[i, j]\n" S20 "o[i, j] = o[i, j] * x\n",
     "mul o[:, :], o[:, :]",
     NULL,
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.Cast('float16', a[i, j]) * T.Cast('float16', 1.1)\n",
     "[CAST_RINT]",
     NULL,
     {0}},
    {"float16",
     NEST S20 "o[i, j] = a[i, j] * r[i] + b[i, j] / c[j]\n",
     "row_expand_mul",
     NULL,
     {0}},
    {"float16",
     NEST S20 "o[i, j] = T.Cast('float16', T.Cast('float32', a[i, j]) * 1.1)\n",
     "cast",
     NULL,
     {0}},
    {"bfloat16", NEST S20 "o[i, j] = T.exp(a[i, j]) * 0.5 - b[i, j] / 3.0\n", "exp", NULL, {0}},
    {"int32",
     NEST S20 "o[i, j] = a[i, j] * 3 + b[i, j] // 2 - (a[i, j] & 6)\n",
     "bitwise_and",
     NULL,
     {0}},
    {"int32", NEST S20 "o[i, j] = (a[i, j] << 2) ^ r[i] + c[j]\n", "bitwise_lshift", NULL, {0}},
    {"float32", NEST S20 "O[i, j] = a[i, j] + 1.0\n", "copy O_t0, O[:, :]", NULL, {0}},
    {"float32", NEST S20 "o[i, j] = A[i, j] * 2.0 + R[i]\n", "copy A[:, :], o_t0", NULL, {0}},
    {"float32",
     "                for i in T.Parallel(M):\n" S20 "r[i] = r[i] * 2.0 + 1.0\n"
     "                for i, j in T.Parallel(M, N):\n" S20 "o[i, j] = r[i]\n",
     "mul r[:], r[:], 2.0",
     NULL,
     {0}},
    {"float32",
     "                for i in T.serial(M):\n"
     "                    for j in T.Parallel(N):\n"
     "                        o[i, j] = a[i, j] * r[i]\n",
     "mul o[i, :], a[i, :], r[i]",
     NULL,
     {0}},
    // o is wider than the nest: rows are contiguous, the whole nest is not
    {"float32",
     NEST S20 "o[i, j + 32] = a[i, j] + c[j]\n",
     "for i in serial(0, 16):",
     NULL,
     {"W=128"}},
    {"float32", NEST S20 "o[i, j] = b[i, j]\n", "copy b[:, :], o[:, :]", NULL, {0}},
    // a row operand stored as [1, M]: copied flat before the broadcast
    {"float32", NEST S20 "o[i, j] = a[i, j] + rt[0, i]\n", "copy rt[:, :], o_t0", NULL, {0}},
    // without memory planning, rows instead of a whole-tile temporary
    {"float32",
     NEST S20 "o[i, j] = a[i, j]\n" S20 "o[i, j] = o[i, j] * c[j]\n",
     "mul o[i, :], o[i, :], c[:]",
     NULL,
     {"TL_ASCEND_MEMORY_PLANNING=False"}},
    // fallbacks
    {"float32",
     NEST S20 "if a[i, j] > 0.0:\n" S20 "    o[i, j] = a[i, j]\n" S20 "else:\n" S20
              "    o[i, j] = 0.0\n",
     "",
     "k.py:24:21: note: T.Parallel loop runs as scalar code: its body contains a data-dependent if",
     {0}},
    {"float32",
     NEST S20 "o[i, j] = b[i, (j + 1) % 64]\n",
     "",
     "T.Parallel loop runs as scalar code: 'b' has a non-linear index in dimension 1",
     {0}},
    {"float32",
     NEST S20 "o[i, j] = b[j % 16, i]\n",
     "",
     "'b' has a non-linear index in dimension 0",
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.if_then_else(a[i, j] > 0.0, a[i, j], b[i, j])\n",
     "",
     "it selects per element (T.if_then_else)",
     {0}},
    {"float32",
     NEST S20 "o[i, j] = a[i, j] + o[i, 0]\n",
     "",
     "it reads 'o' at another element than the one it stores",
     {0}},
    {"float32",
     NEST S20 "o[i, j] = a[i, j] + j\n",
     "",
     "it uses the loop index 'j' as a value",
     {0}},
    // i as a value is fine once the rows are a serial loop
    {"float32",
     NEST S20 "o[i, j] = a[i, j] + i\n",
     "add o[i, :], a[i, :], cast<float32>(i)",
     NULL,
     {0}},
    {"int32",
     NEST S20 "o[i, j] = T.Cast('int8', a[i, j] * 40)\n",
     "",
     "it narrows int32 to int8 (vector casts saturate, scalar conversions wrap)",
     {0}},
    {"float32",
     NEST S20 "o[i, j] = T.tanh(a[i, j])\n",
     "",
     "there is no vector op for 'tanh'",
     {0}},
};

static bool is_parallel(const tl_stmt_t *s)
{
    return s->kind == TL_ST_FOR && s->for_.loop == TL_LOOP_PARALLEL;
}

static void run_case(tl_test_t *t, void *arg)
{
    const pcase_t *c = arg;
    char src[4096];
    snprintf(src, sizeof src, kernel_fmt, c->dtype, c->body);
    pk_spec_t s = {
        .src = src,
        .fills = {"A=uniform:-3:3", "B=uniform:0.5:4", "R=uniform:-2:2", "C=uniform:0.5:2"}};
    for (int i = 0, na = 0, nc = 0; i < 3 && c->args[i]; i++) {
        if (!strncmp(c->args[i], "TL_", 3))
            s.configs[nc++] = c->args[i];
        else
            s.args[na++] = c->args[i];
    }
    pk_t got;
    tl_buf_t why;
    tl_buf_init(&why);
    if (!pk_same_results(&s, par_only, 11, &got, &why))
        tl_test_fail(t, __FILE__, __LINE__, "%s", tl_buf_cstr(&why));
    if (got.k) {
        const char *ir = tl_buf_cstr(&got.dump);
        CHECK_EQ(pk_count(got.k, is_parallel), 0);
        if (c->want[0]) CHECK_CONTAINS(ir, c->want);
        const char *notes = tl_diag_text(&got.d);
        if (c->note)
            CHECK_CONTAINS(notes, c->note);
        else if (strstr(notes, "scalar code"))
            tl_test_fail(t, __FILE__, __LINE__, "not vectorised:\n%s\n%s", notes, ir);
    }
    tl_buf_free(&why);
    pk_free(&got);
}

TEST_GENERATOR(parallel_forms)
{
    for (size_t i = 0; i < TL_ARRAY_LEN(cases); i++) {
        char name[64];
        snprintf(name, sizeof name, "parallel_form_%02zu", i);
        tl_test_add(name, run_case, (void *)&cases[i]);
    }
}

// The kernels' own T.Parallel loops all vectorise and keep their results.
TEST(parallel_kernels_vectorise_with_identical_results)
{
    pk_spec_t specs[] = {
        {.path = "kernels/ds_v4/sparse_attn.py",
         .args = {"h=16", "d=64"},
         .dims = {"b=1", "m=2", "n=90", "topk=100"},
         .fills = {"topk_idxs=int:-1:89"}},
        {.path = "kernels/examples/flash_attention.py",
         .args = {"batch=1", "heads=2", "seq_q=64", "seq_kv=128", "dim=64"}},
        {.path = "kernels/ds_v4/int8_gemm.py", .args = {"N=96", "K=200"}, .dims = {"M=70"}},
        {.path = "kernels/ds_v4/act_quant.py", .kernel = "act_quant_block", .dims = {"M=20"}},
        {.path = "kernels/ds_v4/hc_split_sinkhorn.py", .dims = {"N=40"}},
        {.path = "kernels/examples/layer_norm.py", .args = {"N=256"}, .dims = {"M=19"}},
    };
    for (size_t i = 0; i < TL_ARRAY_LEN(specs); i++) {
        pk_t got;
        tl_buf_t why;
        tl_buf_init(&why);
        if (!pk_same_results(&specs[i], par_only, 5, &got, &why))
            tl_test_fail(t, __FILE__, __LINE__, "%s: %s", specs[i].path, tl_buf_cstr(&why));
        if (got.k) {
            CHECK_EQ(pk_count(got.k, is_parallel), 0);
            if (strstr(tl_diag_text(&got.d), "scalar code"))
                tl_test_fail(t, __FILE__, __LINE__, "%s: %s", specs[i].path, tl_diag_text(&got.d));
        }
        tl_buf_free(&why);
        pk_free(&got);
    }
}
