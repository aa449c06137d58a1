# npuir's size= on reductions and casts, and T.reduce (@tilelang.jit(target="npuir")):
#   MX = row max of X's first N/2 columns (T.reduce_max(x, mx, 1, [M, N // 2]): the
#        buffer's extents from size=, the output's with the reduced axis 1);
#   SM = row sums of |X| (T.reduce(x, sm, dims=[1], reduce_mode="abssum"));
#   H  = X's first 16 columns cast to float16 (T.vcast(x, h, size=[M, 16])), the rest 0;
#   XB = X as bfloat16 by T.copy(x, XB) from a float32 UB tile (npuir casts the source first);
#   XH = X through a float16 UB tile: T.copy(X, x16) casts what it loads.
# Integer inputs: exact.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2, 3, 4, 5], target="npuir")
def npuir_sized(M=8, N=64):
    @T.prim_func
    def main(
        X: T.Tensor((M, N), "float32"),
        MX: T.Tensor((M, 1), "float32"),
        SM: T.Tensor((M, 1), "float32"),
        H: T.Tensor((M, N), "float16"),
        XB: T.Tensor((M, N), "bfloat16"),
        XH: T.Tensor((M, N), "float16"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            x = T.alloc_ub((M, N), "float32")
            mx = T.alloc_ub((M, 1), "float32")
            sm = T.alloc_ub((M, 1), "float32")
            h = T.alloc_ub((M, N), "float16")
            T.copy(X, x)
            x16 = T.alloc_ub((M, N), "float16")
            T.copy(X, x16)
            T.copy(x16, XH)
            T.clear(h)
            T.vcast(x, h, size=[M, 16])
            T.copy(h, H)
            T.reduce_max(x, mx, 1, [M, N // 2])
            T.copy(mx, MX)
            T.copy(x, XB)
            T.reduce(x, sm, dims=[1], reduce_mode="abssum")
            T.copy(sm, SM)

    return main
