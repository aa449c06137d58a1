# T.tile.reduce_sum_experiment(dst, src, count) sums src's first count
# elements (AscendC::ReduceSum): a count past the source is a located error
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32"), C: T.Tensor((8,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((128,), "float32")
            c = T.alloc_ub((8,), "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.tile.reduce_sum_experiment(c, a[64:128], 65)
                T.copy(c, C)

    return main
