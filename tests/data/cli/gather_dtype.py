# T.tile.gather with dst and src of different dtypes: a compile-time error, as
# upstream's tile_gather_dtype_coverage test has it; one dtype runs.
import tilelang.language as T


def gather_dtype(dst_dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "uint32"), C: T.Tensor((128,), dst_dtype)):
        with T.Kernel(1, is_npu=True) as (cid, _):
            a = T.alloc_ub((128,), "float32")
            b = T.alloc_ub((128,), "uint32")
            c = T.alloc_ub((128,), dst_dtype)
            T.copy(A, a)
            T.copy(B, b)
            T.tile.gather(c, a, b, 0)
            T.copy(c, C)

    return main
