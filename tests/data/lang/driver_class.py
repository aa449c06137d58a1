# Driver code in the style of upstream's moe_token_permute_grad test (issue 19): the
# test unpacks a torch op's results (`out, idx = torch_npu.op(...)`: each name an
# unknown value) and builds the kernel through a class whose __init__ computes the
# builder's arguments; the instance's methods see its attributes through `self`, a
# @classmethod its class and a @staticmethod no receiver. tilec follows the test
# to the builder's call, so the kernel gets the shapes the test passes (N = 48).
import math

import tilelang
import tilelang.language as T
import torch
import torch_npu


def scale_kernel(N, block, factor, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block,), dtype)
            with T.Scope("V"):
                T.copy(A[cid * block], a)
                T.tile.mul(a, a, factor)
                T.copy(a, B[cid * block])

    return main


class Scaler:
    ALIGN = 8

    def __init__(self, num_tokens, topk, factor=2.0):
        self.n = num_tokens * topk
        self.block = self.pick_block(self.n)
        self.factor = self.scale(factor)
        self._kernel = scale_kernel(self.n, self.block, self.factor)

    @classmethod
    def pick_block(cls, n):
        return math.gcd(n, cls.ALIGN * 2)

    @staticmethod
    def scale(f):
        return f * 1.5

    def __call__(self, x):
        return self._kernel(x)


def test_scaler():
    tokens = torch.randn(12, 16)
    permuted, sorted_idx = torch_npu.npu_moe_token_permute(tokens, torch.randint(0, 4, (12, 4)))
    first, *rest = permuted.shape
    op = Scaler(num_tokens=12, topk=4)
    return op(permuted), sorted_idx, first, rest
