# Driver code looping over torch values before it builds the kernel, in the style of
# upstream's deepseek_v4 lightning_indexer and chunk_gated_delta_rule drivers (issue 19):
# `len`, `range`, a `for` loop and a comprehension over a value tilec does not run are
# unknown (the loop runs no iteration; the names it binds become unknown), and
# `sys.argv` is the script run with no arguments, so the driver goes on to the
# example it runs by default and the kernel gets that example's shapes (N = 512).
import sys

import tilelang
import tilelang.language as T
import torch


def double_kernel(N, block, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block,), dtype)
            with T.Scope("V"):
                T.copy(A[cid * block], a)
                T.tile.add(a, a, a)
                T.copy(a, B[cid * block])

    return main


def reference(x, lens):
    seqs = [int(v) for v in lens.cpu().tolist()]  # unknown
    total = 0
    for i in range(len(lens) - 1):  # unknown: no iteration; i and total unknown
        total += seqs[i]
    for row in x:  # unknown
        pass
    return x * 2


def run_example(n):
    x = torch.randn(n)
    lens = torch.tensor([0, n])
    ref = reference(x, lens)
    kernel = double_kernel(n, 128)
    return kernel(x), ref


if __name__ == "__main__":
    which = sys.argv[1].lower() if len(sys.argv) > 1 else "all"
    if which in ("all", "small"):
        run_example(512)
    if which in ("all", "large"):
        run_example(8192)
