# Driver code deciding on torch values before it compiles the kernel (issue 19):
# tilec cannot tell which way such an `if` goes, so it takes neither branch
# (the names bound there become unknown), or the only branch that does not
# raise, and goes on: the tilelang.compile(..., pass_configs=...) that follows
# still gives the kernel its settings (here auto sync, shown as `config`).
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


def check(x):
    assert x.abs().max().item() < 1e6  # holds, or the program stops here
    if x.isnan().any():
        raise ValueError("nan input")
    if not x.is_contiguous() or x.dtype != torch.float32:  # neither branch: x becomes unknown
        x = x.float()
    else:
        x = x.contiguous()
    return x


def run(x, lo, hi):
    x = check(x)
    if lo > hi:  # known values: Python's branch
        lo, hi = hi, lo
    while x.numel() > 4096:  # unknown: neither way; x stays unknown
        x = x[: x.numel() // 2]
    block = 128 if x.numel() > 0 else 64  # unknown: a kernel needing it would say so
    func = copy_kernel(hi * 256, 128)
    func = tilelang.compile(func, pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True})
    return func(x)


if __name__ == "__main__":
    run(torch.randn(512), 4, 2)
