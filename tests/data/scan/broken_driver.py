# The driver stops (a device query the stand-in cannot answer) before it calls halve_kernel:
# its arguments stay guessed, with the reason (tests/unit/test_scripts.c).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def halve_kernel(M, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((M // 2,), dtype)
            T.copy(A[vid * (M // 2)], a)
            T.tile.mul(a, a, 0.5)
            T.copy(a, B[vid * (M // 2)])
    return main


if __name__ == "__main__":
    x = torch.randn(128).half()
    raise RuntimeError("needs a device")
    halve_kernel(x.shape[0])(x)
