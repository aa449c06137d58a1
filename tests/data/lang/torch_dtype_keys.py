# torch dtypes as dict keys and in comparisons (issue 19): the cann-bench drivers map
# torch.float16 -> "float16" through a dict before they call the factory. A module
# attribute of a module tilec does not run is one object, so the same name is the same
# key (torch's aliases too: torch.half is torch.float16); a key tilec cannot know
# (x.dtype of a torch tensor) gives an unknown value, not an error that ends the driver.
import tilelang
import tilelang.language as T
import torch

DTYPE_MAP = {torch.float16: "float16", torch.float32: "float", torch.int8: "int8"}


@tilelang.jit(out_idx=[-1])
def kernel(N, block, dtype, mask_dtype):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), M: T.Tensor((N,), mask_dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block,), dtype)
            m = T.alloc_ub((block,), mask_dtype)
            h = T.alloc_ub((block,), "float16")
            with T.Scope("V"):
                T.copy(A[cid * block], a)
                T.copy(M[cid * block], m)
                T.tile.cast(h, m, "CAST_NONE", block)
                T.tile.mul(a, a, h)
                T.copy(a, B[cid * block])

    return main


x = torch.randn(64)
unknown = DTYPE_MAP[x.dtype]  # not known here: the driver goes on
same = torch.half == torch.float16
for x_dtype, mask_dtype in [(torch.float16, torch.int8)]:
    if same:
        kernel(256, 64, DTYPE_MAP[x_dtype], DTYPE_MAP[mask_dtype])
