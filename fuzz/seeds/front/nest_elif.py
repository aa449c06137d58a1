#nest 10050
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
                if cid == 0:
                    T.tile.add(a, a, 1.0)

#--
                elif cid == 1:
                    T.tile.add(a, a, 2.0)

#--
                T.copy(a, B)

    return main
