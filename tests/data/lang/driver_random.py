# A test driver that draws kernel arguments with Python's random module and
# orders them before it compiles (upstream's elementwise tests do so for clamp
# bounds and shift amounts, issue 19). tilec's random is its own generator,
# seeded 0 at each compile: the drawn values are reproducible (not CPython's),
# the swap below runs on them, and the compile's pass_configs count.
import random

import tilelang
import tilelang.language as T

pass_configs = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True}


def clamp_shift(N, block, lo, hi, shift, dtype="int32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            a = T.alloc_ub((block,), dtype)
            b = T.alloc_ub((block,), dtype)
            T.copy(A[cid * block], a)
            T.tile.bitwise_lshift(b, a, shift)
            T.tile.clamp(a, b, lo, hi, block)
            T.copy(a, B[cid * block])

    return main


def run_test(N, lo, hi, shift):
    if lo > hi:
        lo, hi = hi, lo
    func = clamp_shift(N, 64, lo, hi, shift)
    func = tilelang.compile(func, out_idx=[-1], pass_configs=pass_configs)
    return func


def test_clamp_shift():
    random.seed(7)
    lo = random.randint(500, 1000)  # above hi: run_test swaps them
    hi = random.randint(-1000, 0)
    picks = [4, 8, 16]
    random.shuffle(picks)
    shift = random.choice(picks[:2]) + random.randrange(0, 4, 2) + int(random.uniform(0, 1))
    run_test(256, lo, hi, shift)
