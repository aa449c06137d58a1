# T.tile.gather's offsets are uint32 byte offsets; another dtype is a located
# compile-time error, as upstream's ascendc front end raises it
# (tile_gather_dtype_coverage's test_gather_offset_dtype_raises).
import tilelang.language as T


def gather_offsets(off_dtype="int32"):
    @T.prim_func
    def main(A: T.Tensor((64,), "float16"), B: T.Tensor((64,), off_dtype), C: T.Tensor((64,), "float16")):
        with T.Kernel(1, is_npu=True) as (cid, _):
            src = T.alloc_ub((64,), "float16")
            off = T.alloc_ub((64,), off_dtype)
            dst = T.alloc_ub((64,), "float16")
            T.copy(A, src)
            T.copy(B, off)
            T.tile.gather(dst, src, off, 0)
            T.copy(dst, C)

    return main
