# `from tvm import tir` with tir.Select and friends, and os.environ in the factory
# (issue 19): the DeepSeek-V4 sparse flash MLA kernels pick a tile width with
# tir.Select on run-time values and read switches from the environment.
import os

import tilelang
import tilelang.language as T
from tvm import tir

os.environ["TL_TEST_SET"] = "32"
BLOCK = int(os.environ.get("TL_TEST_BLOCK", "64"))  # unset: the default
HALF = int(os.getenv("TL_TEST_SET", "0"))  # set above
DEBUG = os.environ.get("TL_TEST_DEBUG")  # unset: None


@tilelang.jit(out_idx=[-1])
def kernel(N=256, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), lens: T.Tensor((4,), "int32"), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // BLOCK, is_npu=True) as (cid, vid):
            a = T.alloc_ub((BLOCK,), dtype)
            with T.Scope("V"):
                n = lens[vid]
                width = tir.Select(tir.all(cid == 0, n < BLOCK), n, tir.const(BLOCK, "int32"))
                first = tir.Select(DEBUG is None, HALF, 0)
                T.copy(A[cid * BLOCK], a)
                T.tile.mul(a, a, tir.Cast("float32", width + first))
                T.copy(a, B[cid * BLOCK])

    return main
