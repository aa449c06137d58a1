# GM rows of 8 bytes into a [16, 2] int32 tile (cann-bench
# moe_gating_top_k_softmax line 1150, _moe_apply_finished_row_kernel at k = 2):
# upstream's copy_gm_to_ub is one DataCopyPad of 16 blocks of 8 B, and on
# A2/A3 "每一个数据块都需要填充数据至32字节对齐" (asc-devkit GMToUB DataCopyPad):
# the rows land 8 elements apart, not 2. A file bug; tilec says so.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def kernel(M=16, k=2):
    @T.prim_func
    def main(A: T.Tensor((M, k), "int32"), B: T.Tensor((M, k), "int32")):
        with T.Kernel(1, is_npu=True) as (cid, vid):
            with T.Scope("V"):
                if vid == 0:
                    a = T.alloc_ub((M, k), "int32")
                    T.copy(A[0:M, 0:k], a)
                    T.barrier_all()
                    T.copy(a, B[0:M, 0:k])

    return main
