# The driver of lib_kernels.py's lib_copy: a shape from a tensor (tests/unit/test_scripts.c);
# contents_copy's size comes from a tensor's contents, so the call is not the file's own.
import tilelang
import tilelang.language as T
import torch
from lib_kernels import lib_copy


@tilelang.jit(out_idx=[1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
def contents_copy(N, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, is_npu=True) as (bx, vid):
            a = T.alloc_ub((N // 2,), dtype)
            T.copy(A[vid * (N // 2)], a)
            T.copy(a, B[vid * (N // 2)])
    return main


if __name__ == "__main__":
    x = torch.randn(16, 32).half()
    lib_copy(x.shape[0], x.shape[1])(x)
    n = int(torch.randint(1, 4, (1,)).item()) * 16 + 16
    contents_copy(n)(torch.randn(n).half())
