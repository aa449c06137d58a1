# upstream_check's own-argument classes (tests/unit/test_scripts.c): the driver derives
# scale_kernel's arguments from a tensor's shape (recorded by scripts/upstream_harness.py);
# no driver anywhere calls unused_kernel (not instantiated).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def scale_kernel(M, N, block_M, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(M // block_M, is_npu=True) as (bx, vid):
            a = T.alloc_ub((block_M // 2, N), dtype)
            T.copy(A[bx * block_M + vid * (block_M // 2), 0], a)
            T.tile.mul(a, a, 2.0)
            T.copy(a, B[bx * block_M + vid * (block_M // 2), 0])
    return main


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def unused_kernel(N, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((2, N), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((N // 2,), dtype)
            b = T.alloc_ub((N // 2,), dtype)
            T.copy(A[0, vid * (N // 2)], a)
            T.copy(A[1, vid * (N // 2)], b)
            T.tile.add(a, a, b)
            T.copy(a, B[vid * (N // 2)])
    return main


def run(x):
    rows, cols = x.shape
    return scale_kernel(rows, cols, rows // 3)(x)


if __name__ == "__main__":
    run(torch.randn(96, 64).half())
