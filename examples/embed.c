// Embedding tilec in a C program: compile a kernel written in the
// TileLang-Ascend language, look at its parameters, run it on caller-owned
// memory and check the result.
//
//   cc embed.c $(pkg-config --cflags --libs tilec) -o embed && ./embed [kernel.py]
//
// Without a file it compiles the element-wise addition below (the same as
// kernels/examples/elementwise_add.py), so it runs from any directory.
#include <stdio.h>
#include <stdlib.h>
#include <tilec.h>

static const char *const ADD =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@tilelang.jit(out_idx=[-1])\n"
    "def elementwise_add(M=1024, N=1024, block_M=64, block_N=256, dtype=\"float32\"):\n"
    "    half = block_M // 2\n"
    "\n"
    "    @T.prim_func\n"
    "    def main(A: T.Tensor([M, N], dtype), B: T.Tensor([M, N], dtype), C: T.Tensor([M, N], dtype)):\n"
    "        with T.Kernel(M // block_M, is_npu=True) as (cid, vid):\n"
    "            r0 = cid * block_M + vid * half\n"
    "            a_ub = T.alloc_ub([half, block_N], dtype)\n"
    "            b_ub = T.alloc_ub([half, block_N], dtype)\n"
    "            c_ub = T.alloc_ub([half, block_N], dtype)\n"
    "            with T.Scope(\"V\"):\n"
    "                for j in T.serial(N // block_N):\n"
    "                    T.copy(A[r0, j * block_N], a_ub)\n"
    "                    T.copy(B[r0, j * block_N], b_ub)\n"
    "                    T.barrier_all()\n"
    "                    T.tile.add(c_ub, a_ub, b_ub)\n"
    "                    T.barrier_all()\n"
    "                    T.copy(c_ub, C[r0, j * block_N])\n"
    "\n"
    "    return main\n";

int main(int argc, char **argv)
{
    tilec_context_t *ctx;
    if (tilec_context_create(&ctx) != TILEC_OK) return 1;
    tilec_arg_t args[] = {{"M", "128"}, {"N", "512"}};
    tilec_compile_options_t opts = {.args = args, .nargs = 2};
    tilec_kernel_t *k;
    tilec_status_t st = argc > 1 ? tilec_compile_file(ctx, argv[1], &opts, &k)
                                 : tilec_compile_string(ctx, "elementwise_add.py", ADD, &opts, &k);
    if (st != TILEC_OK) {
        fprintf(stderr, "%s", tilec_context_error(ctx));
        return 2;
    }
    int np = tilec_kernel_num_params(k);
    printf("tilec %s compiled %s: %d parameters\n", tilec_version(), tilec_kernel_name(k), np);
    // Allocate every tensor parameter from its declared (constant) shape and fill the inputs.
    tilec_value_t *v = calloc((size_t)np, sizeof *v);
    float **data = calloc((size_t)np, sizeof *data);
    size_t n = 0;
    for (int i = 0; i < np; i++) {
        tilec_param_info_t p;
        tilec_kernel_param(k, i, &p);
        if (!p.is_tensor || p.dtype != TILEC_F32) {
            fprintf(stderr, "embed: this example handles float32 tensors only ('%s')\n", p.name);
            return 3;
        }
        n = 1;
        for (int d = 0; d < p.ndim; d++) n *= (size_t)p.shape[d];
        data[i] = malloc(sizeof(float) * n);
        for (size_t e = 0; e < n; e++) data[i][e] = p.role == TILEC_PARAM_INPUT ? (float)(e % 7) + (float)i : 0;
        v[i] = tilec_tensor(data[i], p.dtype, p.ndim, p.shape);
        printf("  %-4s %s [", p.name, p.role == TILEC_PARAM_OUTPUT ? "out" : "in ");
        for (int d = 0; d < p.ndim; d++) printf("%s%lld", d ? ", " : "", (long long)p.shape[d]);
        printf("]\n");
    }
    tilec_report_t rep;
    if (tilec_launch(k, TILEC_TARGET_REF, v, np, &rep) != TILEC_OK) {
        fprintf(stderr, "%s", tilec_context_error(ctx));
        return 4;
    }
    // elementwise_add: C = A + B.
    size_t bad = 0;
    for (size_t e = 0; e < n; e++) bad += data[2][e] != data[0][e] + data[1][e];
    printf("ran in %.3f ms: %zu of %zu elements wrong\n", rep.seconds * 1e3, bad, n);
    for (int i = 0; i < np; i++) free(data[i]);
    free(data);
    free(v);
    tilec_kernel_destroy(k);
    tilec_context_destroy(ctx);
    return bad ? 5 : 0;
}
