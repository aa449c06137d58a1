# T.min / T.max of a T.alloc_var and a number (cann-bench moe_re_routing:
# `src0 = T.max(0, T.min(src0, A - 1))`): the minimum / maximum, not the
# comparison the front end made to pick one when both were Python values.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def minmax_var(A=64):
    @T.prim_func
    def main(X: T.Tensor((A,), "int32"), Y: T.Tensor((A,), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            ub = T.alloc_ub((A,), "int32")
            v = T.alloc_var("int32", init=0)
            T.copy(X, ub)
            for i in T.serial(A):
                v = ub[i] * 3
                v = T.max(0, T.min(v, A - 1))
                ub[i] = T.min(7, T.max(v, 2))
            T.copy(ub, Y)

    return main
