# A package beside the test's folder (as upstream's testing/python/base beside
# testing/python/language): a spec whose kernels are cached properties.
from functools import cached_property

import tilelang.language as T


def make_kernel(tile_op):
    def kernel(N, dtype="float32"):
        @T.prim_func
        def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
            with T.Kernel(1, is_npu=True) as (cid, vid):
                a = T.alloc_ub((N,), dtype)
                b = T.alloc_ub((N,), dtype)
                if vid == 0:
                    T.copy(A, a)
                    tile_op(b, a)
                    T.copy(b, B)

        return main

    return kernel


class Spec:
    def __init__(self, name, tile_op):
        self.name = name
        self.tile_op = tile_op

    @cached_property
    def kernel(self):
        return make_kernel(self.tile_op)

    @property
    def title(self):
        return "op " + self.name
