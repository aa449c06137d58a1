# An expert kernel with no T.Scope whose flags name vector pipes (upstream's
# deepseek_v4 tile_kernels/transpose/batched_transpose_kernel.py): every
# kernel is built as one cube + two vector cores, code outside T.Scope runs on
# all three, and AscendC's SetFlag / WaitFlag return at once on the cube core
# for the pairs with V (kernel_operator_block_sync_intf_impl.h, ASCEND_IS_AIC):
# the flags order the vector cores only, and the cube core does nothing here.
# expect: nothing
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=64, N=128, dtype="float32"):
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((half, N), dtype)
            c = T.alloc_ub((half, N), dtype)
            T.copy(A[vid * half, 0], a)
            T.set_flag("mte2", "v", vid)
            T.wait_flag("mte2", "v", vid)
            T.tile.exp(c, a)
            T.set_flag("v", "mte3", vid)
            T.wait_flag("v", "mte3", vid)
            T.copy(c, C[vid * half, 0])

    return main
