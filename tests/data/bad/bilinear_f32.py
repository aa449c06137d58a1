# T.tile.bilinear_interpolation is AscendC's BilinearInterpolation, which takes
# float16 only (asc-devkit's doc): float32 operands are a located error
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel():
    @T.prim_func
    def main(A: T.Tensor((256,), "float32"), C: T.Tensor((128,), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((256,), "float32")
            o = T.alloc_ub((8,), "uint32")
            w = T.alloc_ub((8,), "float32")
            c = T.alloc_ub((128,), "float32")
            with T.Scope("V"):
                T.copy(A, a)
                T.tile.bilinear_interpolation(c, a, o, w, 64, 1, False, 1, 128, 1)
                T.copy(c, C)

    return main
