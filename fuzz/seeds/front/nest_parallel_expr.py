#nest 2100
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def big(M=16, N=64):
    @T.prim_func
    def main(A: T.Tensor([M, N], "float32"), B: T.Tensor([M, N], "float32")):
        with T.Kernel(2, is_npu=True) as (cid, vid):
            a = T.alloc_ub([M, N], "float32")
            with T.Scope("V"):
                T.copy(A, a)
                for i, j in T.Parallel(M, N):
                    a[i, j] = 
#--
a[i, j] * 
#--
1.0
                T.copy(a, B)

    return main
