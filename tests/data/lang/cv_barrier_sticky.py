# TL_ASCEND_AUTO_CV_COMBINE without T.Scope: a T.barrier_all() goes with the statement before
# it, as upstream's CombineCV keeps a call of no core of its own in the program of the last
# classified statement (cann-bench group_norm: `if vid == 0:` around vector code and its
# barriers). The `if` then belongs to the vector cores only, so its vid condition is fine.
import tilelang
import tilelang.language as T

pass_configs = {
    tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: False,
    tilelang.PassConfigKey.TL_ASCEND_AUTO_CV_COMBINE: True,
}


@tilelang.jit(out_idx=[-1], pass_configs=pass_configs)
def kernel(N=256, block=64, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, is_npu=True) as (cid, vid):
            if vid == 0:
                a = T.alloc_shared((block,), dtype)
                T.copy(A[cid * block], a)
                T.barrier_all()
                T.tile.mul(a, a, 2.0)
                T.barrier_all()
                T.copy(a, B[cid * block])

    return main
