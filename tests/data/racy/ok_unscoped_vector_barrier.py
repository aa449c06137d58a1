# An expert kernel with no T.Scope that orders two dependent vector ops with
# pipe_barrier("v") (upstream's deepseek_v4 lightning_indexer.py does so in its
# phase 2): code outside T.Scope runs on the cube core too, where AscendC's
# PipeBarrier<PIPE_V> returns at once on arch 2201 (asc-devkit
# impl/basic_api/kernel_reg.h, PipeBarrierImpl: ASCEND_IS_AIC, PIPE_V), so the
# barrier orders the vector cores only and the cube core has nothing to report.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: False})
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            T.copy(A[vid * half, 0], a)
            T.set_flag("mte2", "v", 0)
            T.wait_flag("mte2", "v", 0)
            T.tile.exp(c, a)
            T.pipe_barrier("v")
            T.tile.add(c, c, a)
            T.set_flag("v", "mte3", 0)
            T.wait_flag("v", "mte3", 0)
            T.copy(c, C[vid * half, 0])

    return main
