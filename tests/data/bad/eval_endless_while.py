import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def endless(N=16):
    x = 1
    while x:  # 1, -1, -3, ...: never 0
        x -= 2

    @T.prim_func
    def main(A: T.Tensor([N], "float32"), B: T.Tensor([N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], "float32")
            T.copy(A, a)
            T.copy(a, B)

    return main
