# Two dependent vector ops with no pipe_barrier("v") between them: instructions
# of one pipe overlap, so the add may read `b` before the exp has written it.
# The PTO target's build with the VS pass off adds no barrier (ok_auto_barrier_v.py: the Ascend C
# build's compiler does).
# expect: race RAW UB v@exp v@add
import tilelang
import tilelang.language as T

# the PTO build without upstream's VS sync pass (on by default: ok_pto_vs_default.py)
RAW_PTO = {tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC_VS: False}


@tilelang.jit(out_idx=[-1], target="pto", pass_configs=RAW_PTO)
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            b = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            with T.Scope("V"):
                row = vid * half
                T.copy(A[row, 0], a)
                T.set_flag("mte2", "v", 0)
                T.wait_flag("mte2", "v", 0)
                T.tile.exp(b, a)  # @exp
                T.tile.add(c, b, a)  # @add
                T.set_flag("v", "mte3", 0)
                T.wait_flag("v", "mte3", 0)
                T.copy(c, C[row, 0])

    return main
