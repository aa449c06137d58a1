# A kernel with a T.symbolic row count: its size comes from the tensor the driver launches
# it with (recorded by scripts/upstream_harness.py), which tilec sim needs as -d R=48, and
# each vector core's first row from an index tensor the driver makes from a list (-i start=...;
# tilec's default contents would read past A); N comes from a list-made tensor's contents
# (tests/unit/test_scripts.c).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def rows_kernel(N, dtype="float16"):
    R = T.symbolic("R")

    @T.prim_func
    def main(A: T.Tensor((R, N), dtype), start: T.Tensor((2,), "int32"), B: T.Tensor((R, N), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((1, N), dtype)
            for i in T.serial(R // 2):
                T.copy(A[start[vid] + i, 0], a)
                T.tile.add(a, a, a)
                T.copy(a, B[start[vid] + i, 0])
    return main


if __name__ == "__main__":
    x = torch.randn(48, 32).half()
    halves = torch.tensor([16, 16], dtype=torch.int32)  # contents the harness knows: N is the file's own
    rows_kernel(sum(halves.tolist()))(x, torch.tensor([0, 24], dtype=torch.int32))
