# Event id 9 is id 1 on the hardware (the instruction's id field is 3 bits; a
# warning says so). The kernel means two flags, MTE2 -> V 1 for `a` and 9 for
# `b`, but both are the one bit of id 1: the second set comes before a wait
# consumed the first (misuse), and the wait for `b` passes as soon as `a` is in,
# so the add reads `b` while its copy may still be writing it. The second set
# is released after that wait cleared the bit, so it sets it again and the
# last wait does not hang.
# expect: warning @set9
# expect: warning @wait9
# expect: error double_set @set9
# expect: race RAW UB mte2@loadb v@use
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "v", 1)
                T.copy(B[row, 0], b)  # @loadb
                T.set_flag("mte2", "v", 9)  # @set9
                T.wait_flag("mte2", "v", 9)  # @wait9
                T.tile.add(c, b, b)  # @use
                T.wait_flag("mte2", "v", 1)
                T.tile.add(c, c, a)
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(c, C[row, 0])

    return main
