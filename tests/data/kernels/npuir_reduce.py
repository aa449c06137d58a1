# npuir's reductions (@tilelang.jit(target="npuir")): the output keeps the
# reduced dimension as 1; reduce_abssum writes |buffer| into the buffer first
# (npuir's own expansion), then sums. On integer-valued float32:
#   MX = the rows' max (M x 1), SM = the columns' sums (1 x N),
#   AS = the rows' sums of |A| (M x 1), AB = |A| (the buffer after abssum)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3, 4], target="npuir")
def npuir_reduce(M=8, N=64):
    @T.prim_func
    def main(
        A: T.Tensor((M, N), "float32"),
        MX: T.Tensor((M, 1), "float32"),
        SM: T.Tensor((1, N), "float32"),
        AS: T.Tensor((M, 1), "float32"),
        AB: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((M, N), "float32")
            mx = T.alloc_shared((M, 1), "float32")
            sm = T.alloc_shared((1, N), "float32")
            s = T.alloc_shared((M, 1), "float32")
            T.copy(A, a)
            T.reduce_max(a, mx, dim=1)
            T.reduce_sum(a, sm, dim=0)
            T.reduce_abssum(a, s, dim=1)
            T.copy(mx, MX)
            T.copy(sm, SM)
            T.copy(s, AS)
            T.copy(a, AB)

    return main
