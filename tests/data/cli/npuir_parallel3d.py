# A 3-D T.Parallel in an npuir kernel (hc_split_sinkhorn's comb loops): npuir
# vectorizes a nest of any depth element by element, so it equals a T.serial
# loop over the first extent around a 2-D T.Parallel (ref=True). The body reads
# a 3-D tile, a (M, H, 1) tile broadcast along the last axis and a flat 2-D tile
# indexed i * H + j, as the kernel does. Then T.vdiv's 3-D broadcasts (its comb
# normalisations): o / r with r (M, H, 1), o / c with c (M, 1, W).
import tilelang
import tilelang.language as T


@tilelang.jit(target="npuir")
def npuir_parallel3d(M=8, H=4, W=8, ref=False):
    @T.prim_func
    def main(
        A: T.Tensor((M, H * H), "float32"),
        R: T.Tensor((M, H, 1), "float32"),
        C: T.Tensor((M, 1, W), "float32"),
        O: T.Tensor((M, H, W), "float32"),
    ):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((M, H * H), "float32")
            r = T.alloc_shared((M, H, 1), "float32")
            o = T.alloc_shared((M, H, W), "float32")
            cs = T.alloc_shared((M, 1, W), "float32")
            T.copy(A, a)
            T.copy(R, r)
            T.copy(C, cs)
            T.clear(o)
            if ref:
                for k in T.serial(M):
                    for i, j in T.Parallel(H, H):
                        o[k, i, j] = a[k, i * H + j] * 2.0 + 1.0
                for k in T.serial(M):
                    for i, j in T.Parallel(H, W):
                        o[k, i, j] = T.exp(o[k, i, j] - r[k, i, 0])
                for k in T.serial(M):
                    for i, j in T.Parallel(H, W):
                        o[k, i, j] = o[k, i, j] / r[k, i, 0]
                for k in T.serial(M):
                    for i, j in T.Parallel(H, W):
                        o[k, i, j] = o[k, i, j] / cs[k, 0, j]
            else:
                for k, i, j in T.Parallel(M, H, H):
                    o[k, i, j] = a[k, i * H + j] * 2.0 + 1.0
                for k, i, j in T.Parallel(M, H, W):
                    o[k, i, j] = T.exp(o[k, i, j] - r[k, i, 0])
                T.vdiv(o, r, o)
                T.vdiv(o, cs, o)
            T.copy(o, O)

    return main
