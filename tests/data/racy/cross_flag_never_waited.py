# The pattern of upstream's sparse_flash_mla hca / csa (kernel lines 1077 and
# 2144): the vector cores release flag 2 to the cube after every step, and the
# cube never waits for flag 2. After 15 steps the cube's 4-bit counter is at
# its most and each further release is lost; no wait needs them, so the chip
# finishes the kernel (upstream measured hca and csa prefill at 8,192 tokens)
# and the values are right: findings (warnings), not errors. Flags 0 and 1
# (the cube hands a step over, the vector cores hand it back) are paired and
# stay clean.
# expect: finding cross_flag_overflow @release
# expect: finding cross_flag_unmatched @release
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, steps=20, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("C"):
                for i in T.serial(steps):
                    T.set_cross_flag("MTE2", 0)
                    T.wait_cross_flag(1)
            with T.Scope("V"):
                row = vid * half
                for i in T.serial(steps):
                    T.wait_cross_flag(0)
                    T.copy(A[row, 0], a)
                    T.set_flag("mte2", "mte3", 0)
                    T.wait_flag("mte2", "mte3", 0)
                    T.copy(a, C[row, 0])
                    T.set_flag("mte3", "mte2", 0)
                    T.wait_flag("mte3", "mte2", 0)
                    T.set_cross_flag("MTE3", 1)
                    T.set_cross_flag("MTE3", 2)  # @release

    return main
