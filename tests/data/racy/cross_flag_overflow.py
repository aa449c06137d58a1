# The cube raises flag 0 sixteen times before the vector cores consume any:
# the 4-bit counter holds 15 and saturates, so when the sets run ahead the
# 16th release is lost and the vector cores' 16th wait hangs (a producer loop
# needs a reverse sync at least every 15 iterations; asc-devkit's hardware
# constraints for arch 2201: past 15 without one, the kernel hangs).
# expect: finding cross_flag_overflow @set
# expect: error cross_flag_overflow @set
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("C"):
                for i in T.serial(16):
                    T.set_cross_flag("MTE2", 0)  # @set
            with T.Scope("V"):
                for i in T.serial(16):
                    T.wait_cross_flag(0)
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, C[row, 0])

    return main
