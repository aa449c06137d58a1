# An npuir copy between regions whose shapes differ without their unit
# dimensions (4 x 32 vs 128): npuir's copy moves element k to element k of
# equally shaped regions
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="npuir")
def kernel(R=4, W=32):
    @T.prim_func
    def main(A: T.Tensor((R, W), "float32"), B: T.Tensor((R * W,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_shared((R * W,), "float32")
            T.copy(A, a)
            T.copy(a, B)

    return main
