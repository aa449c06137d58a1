# GM rows of 8 bytes, 4 elements apart, into a [16, 2] int32 tile: the tile's
# 8-byte rows are not whole 32-byte blocks, and DataCopyPad lays each row it
# moves at a 32-byte boundary ("每一个数据块都需要填充数据至32字节对齐",
# asc-devkit GMToUB DataCopyPad), so the rows would land 8 elements apart, not
# 2. Upstream's lowering moves such a tile only as compact full rows (the GM
# rows one after another: one burst, tilelang-ascend #1537) and rejects the
# rest at compile time ("non-32-byte-aligned UB row pitch require compact full
# rows", "Unsupported strided sub-32B copy"); tilec says so.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, k=2):
    @T.prim_func
    def main(A: T.Tensor((M, 2 * k), "int32"), B: T.Tensor((M, k), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            with T.Scope("V"):
                if vid == 0:
                    a = T.alloc_ub((M, k), "int32")
                    T.copy(A[0:M, 0:k], a)
                    T.barrier_all()
                    T.copy(a, B[0:M, 0:k])

    return main
