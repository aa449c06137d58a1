# A module of a package (no __init__.py) that imports its sibling relatively: the harness runs
# it as boxes.box_kernel, so its driver reaches the call (tests/unit/test_scripts.c).
import tilelang
import tilelang.language as T
import torch

from ._common import tile_rows


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def box_kernel(M, rows, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(M // (2 * rows), is_npu=True) as (bx, vid):
            a = T.alloc_ub((rows,), dtype)
            T.copy(A[(bx * 2 + vid) * rows], a)
            T.tile.abs(a, a)
            T.copy(a, B[(bx * 2 + vid) * rows])
    return main


if __name__ == "__main__":
    x = torch.randn(256).half()
    box_kernel(x.shape[0], tile_rows(x.shape[0] // 2))(x)
