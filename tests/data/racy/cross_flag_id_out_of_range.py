# A cross-core flag id computed at run time that reaches 16: a core has flag
# ids 0 to 15 (higher bits are dropped by the hardware).
# expect: error cross_flag_id @set
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "mte3", 0)
                T.wait_flag("mte2", "mte3", 0)
                T.copy(a, C[row, 0])
                for i in T.serial(2):
                    T.set_cross_flag("MTE3", 15 + i)  # @set
            with T.Scope("C"):
                for i in T.serial(2):
                    T.wait_cross_flag(15 + i)

    return main
