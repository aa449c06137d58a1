# Driver code computing with torch values before it calls the factory (issue 19):
# the arithmetic is unknown to tilec but must not abandon the function, so the
# call that follows still gives the factory its arguments.
import math

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def kernel(N, block=64, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block,), dtype)
            with T.Scope("V"):
                T.copy(A[cid * block], a)
                T.copy(a, B[cid * block])

    return main


def run(x):
    n = x.shape[0] * 2 + 1
    scale = float(x.abs().max().item()) + 1.0
    blocks = max(int(math.ceil(n / 64)), 4)
    k = kernel(512, block=128)
    return k(x) * scale + blocks


if __name__ == "__main__":
    run(torch.randn(256))
