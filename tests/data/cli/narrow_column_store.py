# A row sum into a compact [16, 1] float32 tile stored to one column of a
# [16, 4] tensor (tilelang-ascend tail_mask_codegen.py's _tail_reduce, whose
# rows are 32 columns apart): copy_ub_to_gm's DataCopyPad reads each row it
# stores from a 32-byte boundary of the tile, i.e. elements 0, 8, 16, ... and
# then past the tile's 64 bytes (tilelang-ascend #1795 measured it on
# hardware: element 8 in row 1). Upstream's tail mask reserves 32-byte rows
# for a tail compare's mask and a tail broadcast's source only, not for a
# reduction's output, so with or without TL_ASCEND_TAIL_MASK tilec refuses it.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ASCEND_AUTO_SYNC: True, tilelang.PassConfigKey.TL_ASCEND_TAIL_MASK: True})
def kernel(M=16, N=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, 4), "float32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            a = T.alloc_ub((M, N), "float32")
            r = T.alloc_ub((M, 1), "float32")
            with T.Scope("V"):
                if vid == 0:
                    T.copy(A[0, 0], a)
                    T.reduce_sum(a, r, dim=-1)
                    T.copy(r, B[0:M, 1:2])

    return main
