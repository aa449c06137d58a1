# ok_operand_read.py on the PTO target: its code generator reads a buffer-element
# operand after set_flag / wait_flag(V, S) only (codegen_ascend_pto.cc), which
# does not wait for the MTE2 copies: the element read and the mul race with the
# loads.
# expect: race RAW UB mte2@loads s@mul
# expect: race RAW UB mte2@loada v@mul
import tilelang
import tilelang.language as T

# the PTO build without upstream's VS sync pass (on by default: ok_pto_vs_default.py)
RAW_PTO = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC_VS: False}


@tilelang.jit(out_idx=[-1], target="pto", pass_configs=RAW_PTO)
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), S: T.Tensor((8,), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            s = T.alloc_ub((8,), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)  # @loada
                T.copy(S[0], s)  # @loads
                T.tile.mul(b, a, s[0])  # @mul
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(b, C[row, 0])

    return main
