# Developer mode: the vector part waits for cross-core flag 1, which nothing
# sets (the compiler's own flags use other ids).
# expect: @wait deadlock
# The simulator's pipeline counts the flags per block at compile time (exit 2).
# expect sim: exit 2 @wait the cube set it 0 times per block
import tilelang
import tilelang.language as T

DEV_MODE = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True,
    tilelang.PassConfigKey.TL_ASCEND_MEMORY_PLANNING: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_SYNC: True,
}


@tilelang.jit(out_idx=[1], pass_configs=DEV_MODE)
def kernel(M=64, N=64, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(2, threads=2, is_npu=True) as cid:
            a = T.alloc_shared((M, N), dtype)
            T.copy(A[0, 0], a)
            T.wait_cross_flag(1)  # @wait
            T.copy(a, B[0, 0])

    return main
