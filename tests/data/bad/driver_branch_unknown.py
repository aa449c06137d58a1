# A factory argument set under a driver `if` on a torch value: tilec takes
# neither branch, so the argument is unknown and the error says where it was set.
import tilelang
import tilelang.language as T
import torch


def copy_kernel(N, block, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block,), dtype)
            T.copy(A[cid * block], a)
            T.copy(a, B[cid * block])

    return main


def run(x):
    n = 1024
    if x.numel() > 2048:
        n = 4096
    return copy_kernel(n, 128)(x)


if __name__ == "__main__":
    run(torch.randn(512))
