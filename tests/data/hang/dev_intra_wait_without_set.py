# Developer mode without automatic syncs: the vector part waits for an
# mte2 -> mte3 flag that it never sets.
# expect: @wait would wait forever
import tilelang
import tilelang.language as T

DEV_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
}


@tilelang.jit(out_idx=[1], pass_configs=DEV_MODE)
def kernel(M=64, N=64, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(2, threads=2, is_npu=True) as cid:
            a = T.alloc_shared((M, N), dtype)
            T.copy(A[0, 0], a)
            T.wait_flag("mte2", "mte3", 2)  # @wait
            T.copy(a, B[0, 0])

    return main
