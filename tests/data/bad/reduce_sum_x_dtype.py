# T.tile.reduce_sum_experiment is AscendC::ReduceSum: float16 or float32 on
# A2/A3, into a destination of the same dtype (int32: a located error)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel():
    @T.prim_func
    def main(A: T.Tensor((64,), "int32"), C: T.Tensor((8,), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((64,), "int32")
            c = T.alloc_ub((8,), "int32")
            with T.Scope("V"):
                T.copy(A, a)
                T.tile.reduce_sum_experiment(c, a, 64)
                T.copy(c, C)

    return main
