import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def busy(N=16):
    x = 0
    for i in range(2000):
        for j in range(2000):
            x += 1

    @T.prim_func
    def main(A: T.Tensor([N], "float32"), B: T.Tensor([N], "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub([N], "float32")
            T.copy(A, a)
            T.copy(a, B)

    return main
